/**
 * The request metrics, as the Worker writes them (worker/metrics/) and `npm run stats` reads them
 * (build/stats/): one Workers Analytics Engine data point per request. Analytics Engine stores a
 * point's strings and numbers by position only (SQL columns `blob1`…`blob20`, `double1`…
 * `double20`, `index1`), so the order of the lists below is the dataset's schema, written once for
 * both sides. Points are kept three months: add a field at the end of its list, and never move,
 * remove or reuse a position (docs/decisions.md#request-metrics-fields-by-position). No runtime
 * imports: safe for the Worker's bundle.
 */

/** The dataset wrangler.toml binds (Analytics Engine makes it on the first write): the SQL table. */
export const METRICS_DATASET = "opendata_edge_requests";

/**
 * The strings of a data point, in position order (`blob1` is `asked`). Every value is one of a
 * few words or an id from the manifest: never an address, a user agent, a URL or a query string.
 */
export const METRICS_BLOBS = [
  /** What kind of thing was asked for: one of {@link ASKED_KINDS}. */
  "asked",
  /** Which one: a data set id, a document's path, or "" for an unknown path. */
  "target",
  /** How it was asked: "alias" for a live-standard path, a near-me filter, a changes form; or "". */
  "detail",
  /** The answer's class: one of {@link OUTCOMES}. */
  "outcome",
  /** The content coding of the representation chosen (br, gzip, identity), or "" for none. */
  "coding",
  /** The rate-limit plan the request counted under, or "" for none. */
  "plan",
  /** GET, HEAD, OPTIONS, or "other". */
  "method",
  /** The Cloudflare data center that answered (`request.cf.colo`, e.g. LHR), or "". */
  "colo",
  /** The site that answered, by its Name in site.yaml's Sites; "" without Sites or no site's host. */
  "site",
] as const;

/** The numbers of a data point, in position order (`double1` is `status`). */
export const METRICS_DOUBLES = [
  /** The HTTP status answered. */
  "status",
  /** Body bytes sent: 0 for HEAD, 304 and every answer without a body. */
  "bytesSent",
  /**
   * The length of the body a 200 to this GET would carry in the coding chosen: what a 304 saved.
   * 0 where the Worker does not know it without making the body (an unknown path, an error).
   */
  "fullBytes",
  /** The identity variant's length: with bytesSent, what compression saved. 0 where unknown. */
  "identityBytes",
] as const;

export type MetricsBlob = (typeof METRICS_BLOBS)[number];
export type MetricsDouble = (typeof METRICS_DOUBLES)[number];

/** The SQL column holding a field: `blob4` for outcome, `double2` for bytesSent. */
export function metricsColumn(field: MetricsBlob | MetricsDouble): string {
  const blob = (METRICS_BLOBS as readonly string[]).indexOf(field);
  if (blob >= 0) return `blob${blob + 1}`;
  return `double${(METRICS_DOUBLES as readonly string[]).indexOf(field) + 1}`;
}

/** A data point as Analytics Engine takes it: blobs and doubles by position, one index. */
export interface MetricsDataPoint {
  readonly blobs: string[];
  readonly doubles: number[];
  readonly indexes: [string];
}

/** The part of an Analytics Engine dataset binding the Worker uses (or a stand-in for it). */
export interface MetricsSink {
  writeDataPoint(point: MetricsDataPoint): void;
}

/**
 * The one index of a point (SQL column `index1`), which Analytics Engine samples by:
 * `<asked>:<target>`, so a busy data set is sampled on its own and a quiet one keeps every point.
 * At most 96 bytes.
 */
export const METRICS_INDEX_MAX_BYTES = 96;

/** What a request can ask for. */
const ASKED_KINDS = ["dataset", "document", "near", "changes", "unknown"] as const;
export type AskedKind = (typeof ASKED_KINDS)[number];

/** The classes of answer, so 304s, 429s and 5xx are counted as such. */
export const OUTCOMES = {
  ok: "ok",
  notModified: "not-modified",
  redirect: "redirect",
  rateLimited: "rate-limited",
  clientError: "client-error",
  serverError: "server-error",
} as const;
export type Outcome = (typeof OUTCOMES)[keyof typeof OUTCOMES];

/** The class of an HTTP status (RFC 9110 section 15): 304 and 429 apart from their ranges. */
export function outcomeOf(status: number): Outcome {
  if (status === 304) return OUTCOMES.notModified;
  if (status === 429) return OUTCOMES.rateLimited;
  if (status >= 500) return OUTCOMES.serverError;
  if (status >= 400) return OUTCOMES.clientError;
  if (status >= 300) return OUTCOMES.redirect;
  return OUTCOMES.ok;
}

/** The methods recorded by name; any other is recorded as "other". */
export const METRICS_METHODS = ["GET", "HEAD", "OPTIONS"] as const;
export const OTHER_METHOD = "other";
