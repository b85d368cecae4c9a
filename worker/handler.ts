/**
 * One request, start to finish. The order of the checks is the order of precedence: transport
 * (https), resource (404), method (405, preflight), service state (503), quota (429), then
 * preconditions (304), which RFC 9110 section 13.2.1 evaluates only where the answer would
 * otherwise be 200.
 */
import type { ContentCoding, ManifestVariant } from "../contract/manifest.js";
import { type Config } from "../contract/vars.js";
import { clientAcceptEncoding, CODING_PREFERENCE, selectCoding } from "./encoding.js";
import type { ErrorStatus } from "../contract/errors.js";
import { errorResponse } from "./errors.js";
import { isNotModified } from "./conditional.js";
import { baseHeaders } from "./headers.js";
import { admit, methodAnswer, validatorHeaders } from "./admission.js";
import { answerNear, type NearDeps } from "./near-handler.js";
import { matchNear } from "./near-query.js";
import { httpsLocation } from "./https.js";
import type { MaintenanceFlag } from "./maintenance.js";
import type { CounterKeys } from "./counter-key.js";
import type { RateLimiter } from "./ratelimit.js";
import type { Route } from "./routes.js";
import { LOG_EVENTS } from "./log.js";
import type { AssetFetcher, Platform } from "./runtime.js";
import { selectChanges, type ChangesRoute } from "./changes/select.js";

/** Retry-After of a 503 caused by the assets binding failing (transient by nature). */
export const TRANSIENT_RETRY_AFTER_SECONDS = 10;

/** Everything a request is answered from; index.ts builds it from env and ctx. */
export interface Deps extends Platform {
  readonly routes: ReadonlyMap<string, Route>;
  readonly assets: AssetFetcher;
  readonly config: Config;
  /** Isolate-lifetime state. */
  readonly limiter: RateLimiter;
  /** Makes the rate limiter's KV keys (keyed hashes of client buckets). */
  readonly counterKeys: CounterKeys;
  readonly maintenance: MaintenanceFlag;
  /** The extension endpoints' routes and their isolate-lifetime index store; none if absent. */
  readonly near?: NearDeps;
  /** The changes endpoints' routes (worker/changes/select.ts); none if absent. */
  readonly changes?: ReadonlyMap<string, ChangesRoute>;
}

/** The response to `request`. Never throws: an unexpected error is the spec's 500. */
export async function handle(request: Request, deps: Deps): Promise<Response> {
  try {
    return await answer(request, deps);
  } catch (error) {
    deps.log({ event: LOG_EVENTS.unexpectedError, status: 500 }, error);
    return errorResponse(500);
  }
}

// A % that does not start a percent-encoded octet (RFC 3986 section 2.1): not a valid URI.
const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

async function answer(request: Request, deps: Deps): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return errorResponse(400);
  }

  const location = httpsLocation(url);
  if (location !== undefined) {
    const headers = baseHeaders();
    headers.set("Location", location);
    return new Response(null, { status: 308, headers });
  }

  // Exact match on the path only: the query never changes a standard path's answer.
  const route = deps.routes.get(url.pathname);
  if (!route) {
    const changes = deps.changes?.get(url.pathname);
    if (changes) return answerChanges(request, deps, url, changes);
    // The extension endpoints are the only paths with parameters (worker/near-*.ts).
    const near = deps.near && matchNear(url.pathname, url.searchParams, deps.near.routes);
    if (near) return answerNear(request, deps, url, near);
    return errorResponse(MALFORMED_ESCAPE.test(url.pathname) ? 400 : 404);
  }

  const method = request.method;
  const refused = methodAnswer(method);
  if (refused) return refused;

  // Documents (plan null) skip maintenance and quota: they describe the APIs, not their data.
  const admitted = await admit(request, deps, route.plan);
  if (admitted instanceof Response) return admitted;
  return serve(request, deps, url, route, admitted);
}

// A changes path: the method, then a bad query's 400 (not counted, like a 404), then maintenance
// and quota, then a token no version kept answers 410, else the stored answer as a data set's.
async function answerChanges(
  request: Request,
  deps: Deps,
  url: URL,
  changes: ChangesRoute,
): Promise<Response> {
  const refused = methodAnswer(request.method);
  if (refused) return refused;
  const selected = selectChanges(changes, url.searchParams);
  if (selected.status === 400) return errorResponse(400);
  const admitted = await admit(request, deps, changes.plan);
  if (admitted instanceof Response) return admitted;
  if (selected.status === 410) return errorResponse(410, admitted);
  const { file } = selected;
  const codings = CODING_PREFERENCE.filter((coding) => file.variants[coding] !== undefined);
  const route = {
    entry: file,
    plan: changes.plan,
    codings,
    name: changes.entry.dataset,
    extraHeaders: {},
  };
  return serve(request, deps, url, route, admitted);
}

// A stored representation, after admission: its coding, 304, HEAD, or its bytes.
async function serve(
  request: Request,
  deps: Deps,
  url: URL,
  route: Route,
  quota: [string, string][],
): Promise<Response> {
  const method = request.method;
  const { entry } = route;
  const coding = selectCoding(clientAcceptEncoding(request), route.codings);
  // Each coding is its own representation with its own strong ETag (RFC 9110 section 8.8.3), so
  // If-None-Match is compared with the tag of the variant this request would get.
  const variant = entry.variants[coding] ?? entry.variants.identity;
  const headers = validatorHeaders(variant.etag, entry.lastModified);
  for (const [name, value] of quota) headers.set(name, value);

  const validators = { etag: variant.etag, lastModifiedMs: entry.lastModifiedMs };
  if (isNotModified(request.headers, validators, deps.clock.now())) {
    // RFC 9110 section 15.4.5: a 304 carries the validators and caching fields a 200 would.
    return new Response(null, { status: 304, headers });
  }

  headers.set("Content-Type", entry.mediaType);
  headers.set("Content-Length", String(variant.length));
  for (const [name, value] of Object.entries(route.extraHeaders)) headers.set(name, value);
  if (coding !== "identity") headers.set("Content-Encoding", coding);

  // HEAD is answered from the manifest alone: the same fields as GET (RFC 9110 section 9.3.2),
  // with the length the GET body would have. workerd keeps a Content-Length set by the Worker on
  // a body-less response (checked through wrangler dev and unstable_startWorker; see test/e2e).
  if (method === "HEAD") return new Response(null, { status: 200, headers });

  const asset = await readAsset(deps, url, route.name, variant, coding);
  if (typeof asset === "number") {
    const retry: [string, string][] =
      asset === 503 ? [["Retry-After", String(TRANSIENT_RETRY_AFTER_SECONDS)]] : [];
    return errorResponse(asset, [...quota, ...retry]);
  }
  // The stored bytes are sent exactly as they are: "manual" stops the runtime from encoding the
  // body again to match Content-Encoding.
  return new Response(asset.body, { status: 200, headers, encodeBody: "manual" });
}

// The variant's bytes from the assets binding, or the error status to answer. The request is
// built afresh: no conditional headers reach ASSETS (its ETags are not ours and it compares them
// exactly), and no Accept-Encoding either (the file is already the coding wanted).
async function readAsset(
  deps: Deps,
  url: URL,
  dataset: string,
  variant: ManifestVariant,
  coding: ContentCoding,
): Promise<Response | ErrorStatus> {
  let response: Response;
  try {
    response = await deps.assets.fetch(new Request(`${url.origin}${variant.asset}`));
  } catch (error) {
    // The binding itself failed: transient by nature.
    deps.log({ event: LOG_EVENTS.assetsUnavailable, dataset, status: 503 }, error);
    return 503;
  }
  const length = response.headers.get("Content-Length");
  if (
    response.status !== 200 ||
    !response.body ||
    (length !== null && Number(length) !== variant.length)
  ) {
    // The deployment's files and manifest disagree: a server fault, not a passing one.
    deps.log({
      event: LOG_EVENTS.assetMismatch,
      dataset,
      status: 500,
      cause: `assets answered ${response.status} (length ${length}, manifest ${variant.length}) for ${variant.asset} (${coding})`,
    });
    await response.body?.cancel();
    return 500;
  }
  return response;
}
