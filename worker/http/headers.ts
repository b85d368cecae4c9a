/** The fields responses carry (contract/headers.ts names them), as pure functions of the manifest. */
import { BASE_HEADERS, cacheControl, VARY } from "../../contract/headers.js";
import type { ContentCoding } from "../../contract/manifest.js";
import type { Representation } from "./representation.js";

/** A fresh, mutable header list starting from BASE_HEADERS. */
export function baseHeaders(): Headers {
  return new Headers(BASE_HEADERS);
}

/** Header fields as name-value pairs, handed to `new Response` in one go. */
export type Fields = [string, string][];

const BASE_FIELDS: readonly (readonly [string, string])[] = Object.entries(BASE_HEADERS);

/**
 * The fields of a 304 of `representation` whose tag is `etag`, which its 200 carries too. RFC 9110
 * section 15.4.5: a 304 MUST carry those of Content-Location, Date, ETag and Vary, and of
 * Cache-Control and Expires, that its 200 would (Date: handler.ts; no Content-Location or Expires
 * is ever sent), and SHOULD NOT carry other representation metadata unless it guides a cache's
 * update: Last-Modified does (RFC 9111 section 4.3.4 updates a stored response from it), but
 * Content-Type, Content-Encoding and Content-Length describe content a 304 has none of, and a
 * validating proxy rejects a bodiless answer that names a type and coding. The security, CORS and
 * document policy fields are about the response, not the representation, and stay.
 */
export function notModifiedFields(
  representation: Representation,
  etag: string,
  nowMs: number,
): Fields {
  const fields: Fields = [];
  for (const [name, value] of BASE_FIELDS) fields.push([name, value]);
  fields.push(
    ["ETag", etag],
    // RFC 9110 section 8.8.2.1: never a Last-Modified later than the answer's Date (handler.ts).
    // A content date ahead of this clock (a commit made on a clock that runs fast) is sent as now
    // until then; preconditions still compare with the date the content has, so no 304 is early.
    [
      "Last-Modified",
      representation.lastModifiedMs > nowMs ? httpDate(nowMs) : representation.lastModified,
    ],
    ["Cache-Control", cacheControl(representation.maxAge)],
    // The answer depends on Accept-Encoding, so shared caches must key on it.
    ["Vary", VARY],
  );
  for (const [name, value] of representation.headers) fields.push([name, value]);
  return fields;
}

/**
 * The fields of a 200 of `representation` in `coding`, `length` bytes long (and of its HEAD, RFC
 * 9110 section 9.3.2): its 304's, and the representation metadata of the content it carries.
 */
export function okFields(
  representation: Representation,
  etag: string,
  coding: ContentCoding,
  length: number,
  nowMs: number,
): Fields {
  const fields = notModifiedFields(representation, etag, nowMs);
  fields.push(["Content-Type", representation.mediaType]);
  if (coding !== "identity") fields.push(["Content-Encoding", coding]);
  fields.push(["Content-Length", String(length)]);
  return fields;
}

// The last HTTP-date made, by its second: Date changes once a second, not once a request.
let dated = { second: Number.NaN, value: "" };

/** `nowMs` as an IMF-fixdate (RFC 9110 section 5.6.7), whole seconds. */
export function httpDate(nowMs: number): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== dated.second) dated = { second, value: new Date(second * 1000).toUTCString() };
  return dated.value;
}

/** Retry-After (RFC 9110 section 10.2.3) in whole seconds, as a field for errorResponse. */
export function retryAfter(seconds: number): [string, string] {
  return ["Retry-After", String(seconds)];
}
