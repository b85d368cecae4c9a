/**
 * The Worker under `npm start` only: scripts/dev.mjs starts the live preview
 * (build/preview/serve.ts), which hands this entry instead of index.ts to wrangler's
 * unstable_startWorker, and wrangler bundles it with esbuild, as it bundles index.ts for a
 * deploy (which never includes this file). The same Worker, with the landing page's policy opened
 * just enough for the live preview's same-origin script and its requests
 * (docs/decisions.md#the-live-preview-polls-a-version-document). Nothing else differs: every
 * body, ETag and status is index.ts's.
 */
import worker from "./index.js";
import { CONTENT_SECURITY_POLICY } from "../contract/headers.js";

const POLICY = "Content-Security-Policy";
// The deployed policy plus a script from this origin and requests to it.
const PREVIEW_POLICY = CONTENT_SECURITY_POLICY.replace(
  "default-src 'none'",
  "default-src 'none'; script-src 'self'; connect-src 'self'",
);

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const response = await worker.fetch(request, env, ctx);
    if (response.headers.has(POLICY)) response.headers.set(POLICY, PREVIEW_POLICY);
    return response;
  },
} satisfies ExportedHandler<Env>;
