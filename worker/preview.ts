/**
 * The Worker under `npm start` only: the live preview (build/preview/serve.ts) hands this entry
 * instead of index.ts to wrangler's unstable_startWorker, once per session; a deploy bundles
 * index.ts, which never includes this file. The same Worker (entry.ts answers every request), with
 * two differences:
 *
 * - What it serves comes from the process that builds, through the PREVIEW binding
 *   (contract/preview.ts), not from a manifest bundled in: each request asks which generation is
 *   current and reads every file from that generation, so a save needs no new bundle and no
 *   reload, and an answer never mixes two builds. A generation's manifest is parsed and its routes
 *   made once, when the first request sees it (the preview may; the deployed Worker never parses
 *   per request or per generation). Before the content has ever built, every path but the
 *   preview's page, script and version answers the spec's 503.
 * - The landing page's policy is opened just enough for the preview's same-origin script and its
 *   requests (docs/decisions.md#the-live-preview-polls-a-version-document).
 */
import { CONTENT_SECURITY_POLICY } from "../contract/headers.js";
import {
  PREVIEW_CURRENT_PATH,
  PREVIEW_GENERATION_HEADER,
  PREVIEW_HAVE_PARAMETER,
  PREVIEW_ORIGIN,
  previewFilePath,
  type CurrentGeneration,
} from "../contract/preview.js";
import { answerFrom, selectionOf, servedFor, type Selection } from "./entry.js";
import { sitesPage, type ListedSite } from "./preview-sites.js";
import { errorResponse } from "./http/errors.js";
import type { AssetFetcher } from "./runtime.js";

/** The preview's env: the deployed Worker's, and the binding to the building process. */
interface PreviewEnv extends Env {
  readonly PREVIEW: Fetcher;
}

const POLICY = "Content-Security-Policy";
// The deployed policy plus a script from this origin and requests to it.
const PREVIEW_POLICY = CONTENT_SECURITY_POLICY.replace(
  "default-src 'none'",
  "default-src 'none'; script-src 'self'; connect-src 'self'",
);

/** A generation as this isolate serves it. */
interface Generation {
  readonly id: string;
  readonly built: boolean;
  /** With Sites, each site at its host and at <Name>.localhost (RFC 6761 section 6.3). */
  readonly selection: Selection;
  /** The sites, for the page at an address no site names; empty without Sites. */
  readonly sites: readonly ListedSite[];
  readonly assets: AssetFetcher;
}

// The newest generation this isolate has made routes for.
let known: Generation | undefined;

/** The generation current now, its routes made on first sight. */
async function current(binding: Fetcher): Promise<Generation> {
  const have = known?.id ?? "";
  const url = `${PREVIEW_ORIGIN}${PREVIEW_CURRENT_PATH}?${PREVIEW_HAVE_PARAMETER}=${encodeURIComponent(have)}`;
  const response = await binding.fetch(url);
  if (response.status === 204 && known?.id === response.headers.get(PREVIEW_GENERATION_HEADER)) {
    return known;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`the preview's process answered ${response.status} for the current generation`);
  }
  const next = await response.json<CurrentGeneration>();
  const generation: Generation = {
    id: next.id,
    built: next.built,
    selection: selectionOf(next.manifest, ({ name }) => [`${name}.localhost`]),
    sites: next.manifest.sites?.map(({ name, host }) => ({ name, host })) ?? [],
    // Every file of this request from this generation, whatever is current by then.
    assets: {
      fetch: (request) =>
        binding.fetch(PREVIEW_ORIGIN + previewFilePath(next.id, new URL(request.url).pathname)),
    },
  };
  known = generation;
  return generation;
}

export default {
  async fetch(request, env, ctx): Promise<Response> {
    let generation: Generation;
    try {
      generation = await current(env.PREVIEW);
    } catch (error) {
      console.error(`preview: ${String(error)}`);
      return errorResponse(503);
    }
    const served = servedFor(generation.selection, request);
    const url = new URL(request.url);
    // At an address no site names (127.0.0.1:8787), the sites, each with its preview address.
    if (served.site === "" && url.pathname === "/") return sitesPage(generation.sites, url.port);
    if (!generation.built && !served.routes.has(url.pathname)) {
      return errorResponse(503);
    }
    // Plain http at a site's host too: the preview has no certificate for it (no redirect).
    const response = await answerFrom(served, generation.assets, request, env, ctx, true);
    if (response.headers.has(POLICY)) response.headers.set(POLICY, PREVIEW_POLICY);
    return response;
  },
} satisfies ExportedHandler<PreviewEnv>;
