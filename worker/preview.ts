/**
 * The Worker under `npm start` only (scripts/dev.mjs bundles this entry instead of index.ts; a
 * deploy never does): the same Worker, with the landing page's policy opened just enough for the
 * live preview's same-origin script and its requests (docs/decisions.md#the-live-preview-polls-a-version-document).
 * Nothing else differs: every body, ETag and status is index.ts's.
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
