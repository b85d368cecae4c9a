/**
 * Conditional GET and HEAD (RFC 9110 section 13), as pure functions of the request's headers and
 * the validators the build recorded. The caller evaluates them only where the answer would
 * otherwise be 200 (RFC 9110 section 13.2.1).
 */

/** The validators of the representation the request would get. */
export interface Validators {
  /** Strong entity tag, quoted, as in the manifest. */
  readonly etag: string;
  /** Last modification in ms since the epoch, a whole second. */
  readonly lastModifiedMs: number;
}

/**
 * What the request's preconditions make of the answer, in RFC 9110 section 13.2.2's order:
 * `failed` (412) when If-Match, or If-Unmodified-Since without it, evaluates to false (steps 1
 * and 2: an origin server must evaluate both, sections 13.1.1 and 13.1.4, though the specs name
 * only the other two); `not-modified` (304) when If-None-Match, or If-Modified-Since without it,
 * says the client's copy is current (steps 3 and 4); otherwise `ok`. Step 5, If-Range, never
 * applies: every answer is the whole representation (section 14.2 lets a server ignore Range).
 */
export function evaluatePreconditions(
  headers: Headers,
  validators: Validators,
  nowMs: number,
): "ok" | "not-modified" | "failed" {
  const ifMatch = headers.get("If-Match");
  if (ifMatch !== null) {
    if (!matchesIfMatch(ifMatch, validators.etag)) return "failed";
  } else {
    const ifUnmodifiedSince = headers.get("If-Unmodified-Since");
    // Section 13.1.4: a value that is not a valid HTTP-date (or lists several) is ignored.
    const since = ifUnmodifiedSince === null ? undefined : parseHttpDate(ifUnmodifiedSince, nowMs);
    if (since !== undefined && wholeSeconds(validators.lastModifiedMs) > since) return "failed";
  }
  return isNotModified(headers, validators, nowMs) ? "not-modified" : "ok";
}

// HTTP dates have one-second resolution, so Last-Modified is compared in whole seconds.
const wholeSeconds = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * True when the request's preconditions say the client's copy is current, so the answer is 304.
 * If-None-Match wins; If-Modified-Since counts only without it (RFC 9110 section 13.2.2, steps 3
 * and 4).
 */
export function isNotModified(headers: Headers, validators: Validators, nowMs: number): boolean {
  const ifNoneMatch = headers.get("If-None-Match");
  if (ifNoneMatch !== null) return matchesIfNoneMatch(ifNoneMatch, validators.etag);
  const ifModifiedSince = headers.get("If-Modified-Since");
  if (ifModifiedSince === null) return false;
  // RFC 9110 section 13.1.3: a value that is not a valid HTTP-date (or lists several) is ignored.
  const since = parseHttpDate(ifModifiedSince, nowMs);
  if (since === undefined) return false;
  return wholeSeconds(validators.lastModifiedMs) <= since;
}

// One entity-tag of a list: optional weakness indicator, then an opaque tag in double quotes
// (RFC 9110 section 8.8.3). etagc excludes the double quote but allows the comma, so a list is
// scanned tag by tag rather than split on commas.
const ENTITY_TAG = /(?:W\/)?("[\x21\x23-\x7E\x80-\xFF]*")/g;

/**
 * True when If-None-Match "evaluates to false" (RFC 9110 section 13.1.2): the field is `*` (the
 * representation exists), or lists a tag that matches `etag` by weak comparison, which ignores
 * the W/ prefix on either side. Weak comparison is what the RFC requires here, and the edge may
 * have weakened our strong tag on the way to the client.
 */
export function matchesIfNoneMatch(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const match of ifNoneMatch.matchAll(ENTITY_TAG)) if (match[1] === opaque) return true;
  return false;
}

/**
 * True when If-Match "evaluates to true" (RFC 9110 section 13.1.1): the field is `*` (the
 * representation exists), or lists a tag that matches `etag` by strong comparison: both tags
 * strong and their opaque parts equal, so a weak tag never matches.
 */
function matchesIfMatch(ifMatch: string, etag: string): boolean {
  if (ifMatch.trim() === "*") return true;
  if (etag.startsWith("W/")) return false;
  for (const match of ifMatch.matchAll(ENTITY_TAG)) {
    if (!match[0].startsWith("W/") && match[1] === etag) return true;
  }
  return false;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = `(?<month>${MONTHS.join("|")})`;
const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const TIME = "(?<hour>\\d\\d):(?<minute>\\d\\d):(?<second>\\d\\d)";
// RFC 9110 section 5.6.7: recipients accept all three formats; names are case-sensitive.
const HTTP_DATE_FORMATS = [
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  new RegExp(`^${DAY}, (?<day>\\d\\d) ${MONTH} (?<year>\\d{4}) ${TIME} GMT$`),
  // obsolete RFC 850 form: Sunday, 06-Nov-94 08:49:37 GMT
  new RegExp(
    `^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (?<day>\\d\\d)-${MONTH}-(?<yy>\\d\\d) ${TIME} GMT$`,
  ),
  // obsolete asctime form: Sun Nov  6 08:49:37 1994
  new RegExp(`^${DAY} ${MONTH} (?<day>[ \\d]\\d) ${TIME} (?<year>\\d{4})$`),
];

/**
 * An HTTP-date (IMF-fixdate, RFC 850 or asctime form) in ms since the epoch, or undefined when
 * the value is not one. `nowMs` places the two-digit years of the RFC 850 form.
 */
export function parseHttpDate(value: string, nowMs: number): number | undefined {
  const v = value.trim();
  let g: Record<string, string> | undefined;
  for (const format of HTTP_DATE_FORMATS) if ((g = format.exec(v)?.groups)) break;
  if (!g) return undefined;
  let year = Number(g.year);
  if (g.yy !== undefined) {
    // RFC 9110 section 5.6.7: a two-digit year that looks more than 50 years ahead is in the past.
    const thisYear = new Date(nowMs).getUTCFullYear();
    year = Math.floor(thisYear / 100) * 100 + Number(g.yy);
    if (year > thisYear + 50) year -= 100;
  }
  const fields = [
    year,
    MONTHS.indexOf(g.month!),
    Number(g.day),
    Number(g.hour),
    Number(g.minute),
    Number(g.second),
  ] as const;
  const ms = Date.UTC(...fields);
  // Date.UTC rolls 31 Feb over into March and second 60 into the next minute: reject those.
  const d = new Date(ms);
  const back = [
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
  ];
  return back.every((n, i) => n === fields[i]) ? ms : undefined;
}
