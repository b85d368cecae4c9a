/** The headers every response starts from (contract/headers.ts names them). */
import { BASE_HEADERS, cacheControl, VARY } from "../../contract/headers.js";
import type { ContentCoding } from "../../contract/manifest.js";
import type { Representation } from "./representation.js";

/** A fresh, mutable header list starting from BASE_HEADERS. */
export function baseHeaders(): Headers {
  return new Headers(BASE_HEADERS);
}

/**
 * The fields a 200 of `representation` in `coding` (with tag `etag`) and its 304 share: every one
 * but Content-Length, the quota fields aside (RFC 9110 section 15.4.5; RFC 9111 section 4.3.4).
 * A pure function of what the manifest says and the clock.
 */
export function representationFields(
  representation: Representation,
  etag: string,
  coding: ContentCoding,
  nowMs: number,
): Headers {
  const headers = baseHeaders();
  headers.set("ETag", etag);
  // RFC 9110 section 8.8.2.1: never a Last-Modified later than the answer's Date (handler.ts). A
  // content date ahead of this clock (a commit made on a clock that runs fast) is sent as now
  // until then; preconditions still compare with the date the content has, so no 304 is early.
  headers.set(
    "Last-Modified",
    representation.lastModifiedMs > nowMs
      ? new Date(nowMs).toUTCString()
      : representation.lastModified,
  );
  headers.set("Cache-Control", cacheControl(representation.maxAge));
  // The answer depends on Accept-Encoding, so shared caches must key on it.
  headers.set("Vary", VARY);
  headers.set("Content-Type", representation.mediaType);
  if (coding !== "identity") headers.set("Content-Encoding", coding);
  for (const [name, value] of representation.headers) headers.set(name, value);
  return headers;
}

/** Retry-After (RFC 9110 section 10.2.3) in whole seconds, as a field for errorResponse. */
export function retryAfter(seconds: number): [string, string] {
  return ["Retry-After", String(seconds)];
}
