/**
 * One request to an extension path, after routing: the same order of precedence as the standard
 * paths (method, then the 400 of a bad parameter, then 503, 429, 304), the same headers, the data
 * set's own quota. The ETag is known before any byte is read, so a 304 and a bad request never
 * touch the index (docs/decisions.md#the-etag-of-a-filtered-answer).
 */
import type { Manifest } from "../../contract/manifest.js";
import { NEAR_FORMAT_VERSION } from "../../contract/near.js";
import { admit, methodAnswer, validatorHeaders } from "../rate-limit/admission.js";
import { isNotModified } from "../http/conditional.js";
import { errorResponse } from "../http/errors.js";
import type { Deps } from "../handler.js";
import { LOG_EVENTS } from "../log.js";
import { answerBytes } from "./body.js";
import { nearRoutes, queryKey, type NearMatch, type NearQuery, type NearRoute } from "./query.js";
import { selectRecords } from "./select.js";
import { NearLoadError, NearStore } from "./store.js";

/** What the extension endpoints need besides the handler's own dependencies. */
export interface NearDeps {
  readonly routes: ReadonlyMap<string, NearRoute>;
  readonly store: NearStore;
}

/** The extension endpoints of a manifest, with an empty store (one per isolate). */
export function nearDeps(manifest: Manifest): NearDeps {
  return { routes: nearRoutes(manifest), store: new NearStore() };
}

/** Retry-After of a 503 caused by the assets binding failing, as for the standard paths. */
const TRANSIENT_RETRY_AFTER_SECONDS = 10;

/**
 * The strong ETag of a filtered answer: the index's own tag (the SHA-256 of the index, which
 * names the body's), the format version of the Worker's selection, and the normalised query.
 * Every byte of the answer is a function of these three, and no two of them share a tag.
 */
export function nearEntityTag(indexEtag: string, query: NearQuery): string {
  return `"near.${NEAR_FORMAT_VERSION}.${indexEtag.replaceAll('"', "")}.${queryKey(query)}"`;
}

/** The answer to a request `matchNear` matched. */
export async function answerNear(
  request: Request,
  deps: Deps,
  url: URL,
  { route, query }: NearMatch,
): Promise<Response> {
  const refused = methodAnswer(request.method);
  if (refused) return refused;
  if (query === "bad") return errorResponse(400);

  const admitted = await admit(request, deps, route.plan);
  if (admitted instanceof Response) return admitted;

  const etag = nearEntityTag(route.near.index.etag, query);
  const headers = validatorHeaders(etag, route.entry.lastModified);
  for (const [name, value] of admitted) headers.set(name, value);
  const validators = { etag, lastModifiedMs: route.entry.lastModifiedMs };
  if (isNotModified(request.headers, validators, deps.clock.now())) {
    return new Response(null, { status: 304, headers });
  }

  let records;
  let bytes: Uint8Array;
  try {
    const loaded = await deps.near!.store.load(route.near, deps.assets, url.origin);
    records = selectRecords(loaded, query);
    if (records === "unplaced") return errorResponse(404, admitted);
    bytes = answerBytes(loaded, records);
  } catch (error) {
    if (!(error instanceof NearLoadError)) throw error;
    const event = error.status === 503 ? LOG_EVENTS.assetsUnavailable : LOG_EVENTS.assetMismatch;
    deps.log({ event, dataset: route.near.dataset, status: error.status }, error);
    const retry: [string, string][] =
      error.status === 503 ? [["Retry-After", String(TRANSIENT_RETRY_AFTER_SECONDS)]] : [];
    return errorResponse(error.status, [...admitted, ...retry]);
  }
  // Identity only: the answers are made per request, so there are no stored variants, and the
  // front line does not compress prs.*+json (docs/decisions.md#filtered-answers-are-not-compressed).
  headers.set("Content-Type", route.mediaType);
  headers.set("Content-Length", String(bytes.length));
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });
  return new Response(bytes, { status: 200, headers });
}
