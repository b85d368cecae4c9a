/**
 * The Worker's entry, as deployed: the manifest is imported at bundle time and its routes are made
 * once, at module load, so no request parses or hashes anything; each request is answered from
 * them by entry.ts (the request's dependencies from env and ctx, the handler, the metrics data
 * point).
 */
import type { Manifest } from "../contract/manifest.js";
import manifest from "../dist/manifest.json" with { type: "json" };
import { answerFrom, selectionOf, servedFor } from "./entry.js";

// One publication, or one per site's host (content/site.yaml's Sites), made at module load.
const selection = selectionOf(manifest as Manifest);

export default {
  fetch(request, env, ctx): Promise<Response> {
    return answerFrom(servedFor(selection, request), env.ASSETS, request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
