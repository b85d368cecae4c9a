/** The headers every response starts from (contract/headers.ts names them). */
import { BASE_HEADERS, CACHE_CONTROL, VARY } from "../../contract/headers.js";

/** A fresh, mutable header list starting from BASE_HEADERS. */
export function baseHeaders(): Headers {
  return new Headers(BASE_HEADERS);
}

/** The fields a 200 and a 304 share: validators and caching (RFC 9110 section 15.4.5). */
export function validatorHeaders(etag: string, lastModified: string): Headers {
  const headers = baseHeaders();
  headers.set("ETag", etag);
  headers.set("Last-Modified", lastModified);
  headers.set("Cache-Control", CACHE_CONTROL);
  // The answer depends on Accept-Encoding, so shared caches must key on it.
  headers.set("Vary", VARY);
  return headers;
}

/** Retry-After (RFC 9110 section 10.2.3) in whole seconds, as a field for errorResponse. */
export function retryAfter(seconds: number): [string, string] {
  return ["Retry-After", String(seconds)];
}
