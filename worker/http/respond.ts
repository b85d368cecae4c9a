/**
 * The response path: how every representation is answered, whatever its body source (data sets,
 * their aliases, the documents, near-me slices). The order of the checks is the order of
 * precedence: method (405, preflight), then the request's parameters (400), service state (503)
 * and quota (429), then preconditions (412, 304), which RFC 9110 section 13.2.1 evaluates only
 * where the answer would otherwise be 200, then HEAD, then the body. Each decision is a pure
 * function of its own module (methods.ts, encoding.ts, conditional.ts); this module only puts
 * them in order.
 */
import { LOG_EVENTS } from "../log.js";
import type { Outcome } from "../outcome.js";
import type { Deps } from "../deps.js";
import { AssetError, fetchAsset } from "../assets.js";
import { admit } from "../rate-limit/admission.js";
import { evaluatePreconditions } from "./conditional.js";
import { clientAcceptEncoding, selectCoding } from "./encoding.js";
import { errorResponse } from "./errors.js";
import { retryAfter, validatorHeaders } from "./headers.js";
import { methodAnswer } from "./methods.js";
import type { Representation } from "./representation.js";

/** Retry-After of a 503 caused by the assets binding failing (transient by nature). */
export const TRANSIENT_RETRY_AFTER_SECONDS = 10;

/**
 * The answer to `request` for `representation`. Records the coding and the body's length in
 * `outcome`; the caller records the rest.
 */
export async function respond(
  request: Request,
  deps: Deps,
  origin: string,
  representation: Representation,
  outcome: Outcome,
): Promise<Response> {
  const method = request.method;
  const refused = methodAnswer(method);
  if (refused) return refused;
  const { body } = representation;
  if (body === undefined) return errorResponse(400);

  // Documents (plan null) skip maintenance and quota: they describe the APIs, not their data.
  const admitted = await admit(request, deps, representation.plan);
  if (admitted instanceof Response) return admitted;
  const quota = admitted;
  if (body.kind === "gone") return errorResponse(410, quota);

  try {
    if (body.kind === "stored") {
      // Each coding is its own representation with its own strong ETag (RFC 9110 section 8.8.3),
      // so If-None-Match is compared with the tag of the variant this request would get.
      const coding = selectCoding(clientAcceptEncoding(request), body.codings);
      const variant = body.variants[coding] ?? body.variants.identity;
      outcome.coding = coding;
      outcome.fullBytes = variant.length;
      outcome.identityBytes = body.variants.identity.length;
      const headers = okOrNotModified(request, deps, representation, variant.etag, quota);
      if (headers instanceof Response) return headers;
      headers.set("Content-Length", String(variant.length));
      if (coding !== "identity") headers.set("Content-Encoding", coding);
      // HEAD is answered from the manifest alone: the same fields as GET (RFC 9110 section
      // 9.3.2), with the length the GET body would have. workerd keeps a Content-Length set by
      // the Worker on a body-less response (checked through wrangler dev and
      // unstable_startWorker; see test/e2e).
      if (method === "HEAD") return new Response(null, { status: 200, headers });
      const asset = await fetchAsset(deps.assets, origin, variant.asset, variant.length);
      outcome.bytes = variant.length;
      // The stored bytes are sent exactly as they are: "manual" stops the runtime from encoding
      // the body again to match Content-Encoding.
      return new Response(asset.body, { status: 200, headers, encodeBody: "manual" });
    }
    // Identity only: a made body has no stored variants
    // (docs/decisions.md#filtered-answers-are-not-compressed).
    outcome.coding = "identity";
    const headers = okOrNotModified(request, deps, representation, body.etag, quota);
    if (headers instanceof Response) return headers;
    // Its length is known once it is made, so HEAD makes it too (and answers the 404 GET would).
    const bytes = await body.make();
    if (bytes === 404) {
      outcome.coding = null;
      return errorResponse(404, quota);
    }
    outcome.fullBytes = outcome.identityBytes = bytes.length;
    headers.set("Content-Length", String(bytes.length));
    if (method === "HEAD") return new Response(null, { status: 200, headers });
    outcome.bytes = bytes.length;
    return new Response(bytes, { status: 200, headers });
  } catch (error) {
    if (!(error instanceof AssetError)) throw error;
    outcome.coding = null;
    outcome.fullBytes = outcome.identityBytes = 0;
    const event = error.status === 503 ? LOG_EVENTS.assetsUnavailable : LOG_EVENTS.assetMismatch;
    // The binding's own error for a 503; the disagreement, in words, for a 500.
    const cause = error.status === 503 ? error.reason : error.message;
    deps.log(
      { event, dataset: representation.asked.name ?? undefined, status: error.status },
      cause,
    );
    const fields =
      error.status === 503 ? [...quota, retryAfter(TRANSIENT_RETRY_AFTER_SECONDS)] : quota;
    return errorResponse(error.status, fields);
  }
}

/**
 * The 412 when a precondition the request sets fails (If-Match, If-Unmodified-Since), the 304 when
 * they say the client's copy is current, else the fields of the 200 so far: validators, caching,
 * quota, media type and the representation's own fields.
 */
function okOrNotModified(
  request: Request,
  deps: Deps,
  representation: Representation,
  etag: string,
  quota: readonly [string, string][],
): Headers | Response {
  const now = deps.clock.now();
  // RFC 9110 section 8.8.2.1: never a Last-Modified later than the answer's Date (handler.ts). A
  // content date ahead of this clock (a commit made on a clock that runs fast) is sent as now
  // until then; preconditions still compare with the date the content has, so no 304 is early.
  const lastModified =
    representation.lastModifiedMs > now ? new Date(now).toUTCString() : representation.lastModified;
  const headers = validatorHeaders(etag, lastModified);
  for (const [name, value] of quota) headers.set(name, value);
  const validators = { etag, lastModifiedMs: representation.lastModifiedMs };
  const precondition = evaluatePreconditions(request.headers, validators, now);
  if (precondition === "failed") return errorResponse(412, quota);
  if (precondition === "not-modified") {
    // RFC 9110 section 15.4.5: a 304 carries the validators and caching fields a 200 would.
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Type", representation.mediaType);
  for (const [name, value] of representation.headers) headers.set(name, value);
  return headers;
}
