/**
 * The specs' literal values, written out here from the spec documents (and, for what the specs
 * leave open, from docs/decisions.md), never imported from worker/ or build/, so
 * that a wrong constant in the implementation fails the tests that compare against these.
 */

/** Each API's path prefix and its media type (open-data-api-v2.2.md and service-metrics-api-v1.0.md, "What the service does"). */
export const SPEC_MEDIA_TYPES: readonly (readonly [prefix: string, mediaType: string])[] = [
  ["/std/v2.2/", "application/prs.std.opendata.v2.2+json"],
  ["/std/v1.0/reg-service-metrics/", "application/prs.std.opendata.v1.0+json"],
];

/** Both specs, "GET 200 response headers" (and "Errors" for the three security headers). */
export const SPEC_SECURITY_HEADERS: readonly (readonly [name: string, value: string])[] = [
  ["Strict-Transport-Security", "max-age=31536000"],
  ["X-Frame-Options", "DENY"],
  ["X-Content-Type-Options", "nosniff"],
];
export const SPEC_CACHE_CONTROL = "max-age=28800";

/**
 * Error titles and descriptions: the spec's table word for word (both specs, "Errors"); 404 and
 * 405, which the specs do not list, as docs/decisions.md#statuses-the-specs-do-not-list states them.
 */
export const SPEC_ERRORS: readonly (readonly [
  status: number,
  title: string,
  description: string,
])[] = [
  [400, "Bad request", "You have sent a request which could not be understood."],
  [404, "Not found", "There is no resource at this path."],
  [405, "Method not allowed", "This resource supports only the methods GET and HEAD."],
  [
    408,
    "Client timeout",
    "Your client has failed to submit a request, and a timeout has occurred.",
  ],
  // Not the spec's: RFC 9110 section 13.2.2's answer to a failed If-Match or If-Unmodified-Since,
  // in the spec's shape with our own words (docs/decisions.md).
  [
    412,
    "Precondition failed",
    "The representation is not the one your If-Match or If-Unmodified-Since names: it has changed since. Fetch it again without those fields.",
  ],
  [429, "Too many requests", "You have requested this resource too often. Slow down."],
  [
    500,
    "Internal server error",
    "An error occurred on the server. No further information is available.",
  ],
  [503, "Service temporarily unavailable", "The service is temporarily unavailable."],
];

/** docs/decisions.md#error-media-type and #the-status-code-header: errors as JSON, never stored. */
export const DECIDED_ERROR_HEADERS: readonly (readonly [
  name: string,
  value: (status: number) => string,
])[] = [
  ["Content-Type", () => "application/json"],
  ["Cache-Control", () => "no-store"],
  ["Status-Code", (status) => String(status)],
];

/** The spec's media type for a data path. */
export function specMediaType(path: string): string {
  const match = SPEC_MEDIA_TYPES.find(([prefix]) => path.startsWith(prefix));
  if (!match) throw new Error(`no spec media type is known for ${path}`);
  return match[1];
}

/** The spec's error body for a status, as an object. */
export function specErrorBody(status: number): {
  status: string;
  title: string;
  description: string;
} {
  const row = SPEC_ERRORS.find(([s]) => s === status);
  if (!row) throw new Error(`no error text is known for ${status}`);
  return { status: String(status), title: row[1], description: row[2] };
}

/**
 * The live standard's names and media types per data set id (platform notes, "The standard as
 * it is served in the wild"): the six v2.2 data sets, and the service metrics with and without
 * the version segment.
 */
const LIVE_V22 = "application/prs.openbanking.opendata.v2.2+json";
const LIVE_V10 = "application/prs.openbanking.opendata.v1.0+json";
export const LIVE_STANDARD_PATHS: Readonly<
  Record<string, readonly (readonly [path: string, mediaType: string])[]>
> = {
  branches: [["/open-banking/v2.2/branches", LIVE_V22]],
  atms: [["/open-banking/v2.2/atms", LIVE_V22]],
  "personal-current-accounts": [["/open-banking/v2.2/personal-current-accounts", LIVE_V22]],
  "business-current-accounts": [["/open-banking/v2.2/business-current-accounts", LIVE_V22]],
  "unsecured-sme-loans": [["/open-banking/v2.2/unsecured-sme-loans", LIVE_V22]],
  "commercial-credit-cards": [["/open-banking/v2.2/commercial-credit-cards", LIVE_V22]],
  "service-metrics-pca": [
    ["/open-banking/v1.0/fca-service-metrics/pca", LIVE_V10],
    ["/open-banking/fca-service-metrics/pca", LIVE_V10],
  ],
  "service-metrics-bca": [
    ["/open-banking/v1.0/fca-service-metrics/bca", LIVE_V10],
    ["/open-banking/fca-service-metrics/bca", LIVE_V10],
  ],
};

/** meta.Agreement's single allowed value (both specs, "Response envelope", meta). */
export const SPEC_AGREEMENT =
  "Use of the APIs and any related data will be subject to the terms of the Open Licence and subject to terms and conditions";

/**
 * Each data set's path (open-data-api-v2.2.md and service-metrics-api-v1.0.md, "Endpoints";
 * open-data-api-v2.2-products.md, each data set's "Path").
 */
export const SPEC_PATHS: Readonly<
  Record<
    | "branches"
    | "atms"
    | "personal-current-accounts"
    | "business-current-accounts"
    | "unsecured-sme-loans"
    | "commercial-credit-cards"
    | "service-metrics-pca"
    | "service-metrics-bca",
    string
  >
> = {
  branches: "/std/v2.2/branches",
  atms: "/std/v2.2/atms",
  "personal-current-accounts": "/std/v2.2/personal-current-accounts",
  "business-current-accounts": "/std/v2.2/business-current-accounts",
  "unsecured-sme-loans": "/std/v2.2/unsecured-sme-loans",
  "commercial-credit-cards": "/std/v2.2/commercial-credit-cards",
  "service-metrics-pca": "/std/v1.0/reg-service-metrics/pca",
  "service-metrics-bca": "/std/v1.0/reg-service-metrics/bca",
};

/** service-metrics-api-v1.0.md, "Limits": the Default Plan, 145 requests per minute. */
export const SPEC_LIMIT_PER_MINUTE = 145;
export const SPEC_LIMIT_WINDOW_SECONDS = 60;

/**
 * What docs/decisions.md settles where the specs are silent, written out as the document states
 * it: the methods, the response fields every answer carries, the preflight, the rate-limit fields.
 */
export const DECIDED = {
  allow: "GET, HEAD",
  vary: "Accept-Encoding",
  cors: {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers":
      "ETag, Last-Modified, Retry-After, RateLimit, RateLimit-Policy, Invalid-Parameter",
  },
  preflight: {
    "Access-Control-Allow-Methods": "GET, HEAD",
    "Access-Control-Allow-Headers":
      "If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since",
    "Access-Control-Max-Age": "7200",
  },
  rateLimitHeader: "RateLimit",
  rateLimitPolicyHeader: "RateLimit-Policy",
  statusCodeHeader: "Status-Code",
  /** Retry-After of a 503 when the static assets cannot be read. */
  assetsRetryAfterSeconds: 10,
  /** Retry-After of a 503 in maintenance, unless MAINTENANCE_RETRY_AFTER_SECONDS says otherwise. */
  maintenanceRetryAfterSeconds: 300,
  maintenanceKey: "maintenance",
  maintenanceCacheTtlSeconds: 60,
  maintenanceRefreshMs: 30_000,
  kvTimeoutMs: 1_000,
  logIntervalMs: 60_000,
  counterKeyPrefix: "rl:",
  counterTtlSeconds: 120,
  /** An isolate shares a count once it holds back this share of what it believes is left. */
  shareFraction: 0.25,
  /** The live preview (npm start only): its version document, its script, the page's policy. */
  preview: {
    versionPath: "/_preview/version",
    scriptPath: "/_preview/reload.js",
    policy:
      "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    /** docs/decisions.md, "The preview compresses fast": brotli's quality and gzip's level. */
    brotliQuality: 3,
    gzipLevel: 1,
  },
  /** docs/architecture.md, "What the build writes": a published body's brotli and gzip. */
  published: {
    brotliQuality: 11,
    brotliMiddleQuality: 10,
    brotliMiddleAboveBytes: 64 * 1024,
    brotliLargeQuality: 9,
    brotliLargeAboveBytes: 1 << 20,
    gzipLevel: 9,
    /** docs/decisions.md, "Pages for people are compressed at brotli 9": the pages' highest. */
    pageBrotliQuality: 9,
  },
} as const;

/** Every response's fields: the security headers the specs require and CORS. */
export const EVERY_RESPONSE_HEADERS: readonly (readonly [name: string, value: string])[] = [
  ...SPEC_SECURITY_HEADERS,
  ...Object.entries(DECIDED.cors),
];
