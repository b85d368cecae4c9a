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
import { clientAcceptEncoding, variantCoding } from "./encoding.js";
import { ERROR_CAUSES } from "../../contract/errors.js";
import { errorResponse, invalidParameterField } from "./errors.js";
import { notModifiedFields, okFields, retryAfter } from "./headers.js";
import { methodAnswer } from "./methods.js";
import type { Representation } from "./representation.js";
import type { ContentCoding } from "../../contract/manifest.js";

/** Retry-After of a 503 caused by the assets binding failing (transient by nature). */
const TRANSIENT_RETRY_AFTER_SECONDS = 10;

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
  if (body === undefined) {
    const { problem } = representation;
    return errorResponse(400, problem ? [invalidParameterField(problem)] : undefined);
  }

  // The variant this request would get and its tag are known from the manifest (or, for a made
  // body, before any byte is made), so the preconditions are read before admission: a 304 is
  // admitted without spending the quota (docs/decisions.md, "304s are free"). They still take
  // effect only after 503 and 429, in RFC 9110 section 13.2.1's place.
  let coding: ContentCoding | undefined;
  let etag: string | undefined;
  if (body.kind === "stored") {
    // Each coding is its own representation with its own strong ETag (RFC 9110 section 8.8.3),
    // so If-None-Match is compared with the tag of the variant this request would get: a 304
    // answers only for the coding its 200 would have been sent in.
    coding = variantCoding(clientAcceptEncoding(request), representation.mediaType, body.codings);
    etag = (body.variants[coding] ?? body.variants.identity).etag;
  } else if (body.kind === "made") {
    // Identity only: a made body has no stored variants
    // (docs/decisions.md#filtered-answers-are-not-compressed).
    coding = "identity";
    etag = body.etag;
  }
  const now = deps.clock.now();
  const precondition =
    etag === undefined
      ? "ok"
      : evaluatePreconditions(
          request.headers,
          { etag, lastModifiedMs: representation.lastModifiedMs },
          now,
        );

  // Documents (plan null) skip maintenance and quota: they describe the APIs, not their data.
  const admitted = await admit(request, deps, representation.plan, precondition !== "not-modified");
  if (admitted instanceof Response) return admitted;
  const quota = admitted;
  // Only a gone body has no tag.
  if (body.kind === "gone" || coding === undefined || etag === undefined) {
    return errorResponse(410, quota);
  }
  outcome.coding = coding;
  if (body.kind === "stored") {
    outcome.fullBytes = (body.variants[coding] ?? body.variants.identity).length;
    outcome.identityBytes = body.variants.identity.length;
  }
  if (precondition === "failed") return errorResponse(412, quota);
  // RFC 9110 section 15.4.5: a 304 carries the validators and caching fields of its 200, and no
  // representation metadata of content it does not carry (notModifiedFields); it reads and makes
  // nothing. Cloudflare's front line compresses only 200s, 403s and 404s, so it leaves a 304 as
  // it is (docs/decisions.md#304s-carry-no-content-type-or-content-encoding).
  if (precondition === "not-modified") {
    const fields = notModifiedFields(representation, etag, now);
    for (const field of quota) fields.push(field);
    return new Response(null, { status: 304, headers: fields });
  }

  try {
    if (body.kind === "stored") {
      const variant = body.variants[coding] ?? body.variants.identity;
      const fields = okFields(representation, etag, coding, variant.length, now);
      for (const field of quota) fields.push(field);
      // HEAD is answered from the manifest alone: the same fields as GET (RFC 9110 section
      // 9.3.2), with the length the GET body would have. workerd keeps a Content-Length set by
      // the Worker on a body-less response (checked through wrangler dev and
      // unstable_startWorker; see test/e2e).
      if (method === "HEAD") return new Response(null, { status: 200, headers: fields });
      const asset = await fetchAsset(deps.assets, origin, variant.asset, variant.length);
      outcome.bytes = variant.length;
      // The stored bytes are sent exactly as they are: "manual" stops the runtime from encoding
      // the body again to match Content-Encoding.
      return new Response(asset.body, { status: 200, headers: fields, encodeBody: "manual" });
    }
    // Its length is known once it is made, so HEAD makes it too (and answers the 404 GET would).
    const bytes = await body.make();
    if (typeof bytes === "string") {
      outcome.coding = null;
      return errorResponse(ERROR_CAUSES[bytes].status, quota, bytes);
    }
    outcome.fullBytes = outcome.identityBytes = bytes.length;
    const fields = okFields(representation, etag, coding, bytes.length, now);
    for (const field of quota) fields.push(field);
    if (method === "HEAD") return new Response(null, { status: 200, headers: fields });
    outcome.bytes = bytes.length;
    return new Response(bytes, { status: 200, headers: fields });
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
