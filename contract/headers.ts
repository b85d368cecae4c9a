/**
 * Header names and values the Worker sends, named once, part of the build–Worker contract: the
 * Worker sends them and the build's documents (/openapi.json, the landing page) state them. Both
 * specs declare the same defaults for GET 200 and for errors ("GET 200 response headers",
 * "Errors").
 */

import { INVALID_PARAMETER_HEADER } from "./errors.js";

/**
 * How long an answer may be reused, in seconds (Cache-Control max-age, RFC 9111 section 5.2.2.1),
 * named once for the Worker and the documents:
 *
 * - the data sets, their aliases, their near-me slices and the documents about them: the specs'
 *   default (open-data-api-v2.2.md and service-metrics-api-v1.0.md, "GET 200 response headers"
 *   and "Limits": `max-age=28800`), or site.yaml's CacheMaxAgeSeconds (the manifest's
 *   `cacheMaxAge`);
 * - the changes answers and the publication feed: CHANGES_MAX_AGE_SECONDS, whatever site.yaml
 *   says, as they change with every publication (docs/decisions.md, "Changes answers and the
 *   feed are fresh for a minute").
 */
export const DEFAULT_MAX_AGE_SECONDS = 28800;
export const CHANGES_MAX_AGE_SECONDS = 60;

/** The Cache-Control value of a 200 or 304 reusable for `maxAge` seconds. */
export function cacheControl(maxAge: number): string {
  return `max-age=${maxAge}`;
}

/** Every data response depends on the request's Accept-Encoding (encoding.ts). */
export const VARY = "Accept-Encoding";
/** Errors depend on the moment (quota, maintenance) and must not be stored by caches. */
export const ERROR_CACHE_CONTROL = "no-store";

/** Sent on every response, errors included (spec, "Errors"). */
export const SECURITY_HEADERS = {
  "Strict-Transport-Security": "max-age=31536000",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
} as const;

/** Rate-limit fields (draft-ietf-httpapi-ratelimit-headers-10, sections 3 and 4). */
export const RATE_LIMIT_HEADER = "RateLimit";
export const RATE_LIMIT_POLICY_HEADER = "RateLimit-Policy";

/** The methods a data path supports; sent in Allow and in preflight answers. */
export const ALLOWED_METHODS = "GET, HEAD";

/**
 * Open data is read by browser apps from any origin (Fetch standard, CORS protocol). Without
 * Expose-Headers a script could not read the validators, Retry-After, its quota or what a 400
 * found wrong.
 */
const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": `ETag, Last-Modified, Retry-After, ${RATE_LIMIT_HEADER}, ${RATE_LIMIT_POLICY_HEADER}, ${INVALID_PARAMETER_HEADER}`,
} as const;

/**
 * The answer to a preflight. A browser sends one before a conditional GET, because none of the
 * four precondition fields the Worker evaluates (worker/http/conditional.ts) is a CORS-safelisted
 * request header. Chromium caps Max-Age at 7200.
 */
export const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Methods": ALLOWED_METHODS,
  "Access-Control-Allow-Headers": "If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since",
  "Access-Control-Max-Age": "7200",
} as const;

/**
 * The landing page's policy (CSP Level 3): nothing but its own stylesheet may load, no script at
 * all, no form, no base URL, no framing. The map is inline SVG markup, which needs no source;
 * `img-src data:` admits only the page's empty icon (which saves a /favicon.ico 404) and can
 * never reach another origin. Sent with every document (harmless on JSON and CSS).
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Fields a document's 200 carries besides a data set's (routes.ts). */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
};

/** Headers every response carries: the security defaults and CORS. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  ...CORS_HEADERS,
};
