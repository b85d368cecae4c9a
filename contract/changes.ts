/**
 * The changes endpoints and the publication feed, as the build and the Worker share them: their
 * paths, the `since` token's syntax, and the words of an answer. A change answer is a data set's
 * envelope that lists each record added or changed since a version (whole, exactly as in the full
 * list) and the Identifications removed (docs/consumers.md#keeping-a-copy-in-sync). No runtime
 * imports but contract/: safe for the Worker's bundle.
 */
import { NEAR_OPEN_BANKING_PREFIX, NEAR_PREFIX, NEAR_STANDARD_PREFIX } from "./near.js";

/** The last path segment of a data set's changes endpoint: `/x-std/v2.2/atms/changes`. */
const CHANGES_SEGMENT = "changes";

/** The query parameter naming the version the consumer holds; the only one accepted. */
export const SINCE_PARAMETER = "since";

/** meta's field naming that version, in a change answer, after LastUpdated. */
export const SINCE_FIELD = "Since";

/** A brand's list of the Identifications removed since that version, after its records. */
export const REMOVED_FIELD = "Removed";

/** Under /x-std/v2.2/, and under /x-open-banking/v2.2/ with OpenBankingPaths, as the near-me paths. */
const CHANGES_PREFIX = NEAR_PREFIX;
const CHANGES_OPEN_BANKING_PREFIX = NEAR_OPEN_BANKING_PREFIX;

/**
 * Where a data set's own path and its live-standard alias start, for its changes path: the
 * extension's `x-` before the API's own prefix, as the near-me paths have it. The service
 * metrics' unversioned alias (`/open-banking/fca-service-metrics/`) has none: its versioned one
 * does (docs/decisions.md, "The service metrics' changes paths").
 */
const SERVED_PREFIXES: readonly (readonly [served: string, changes: string])[] = [
  [NEAR_STANDARD_PREFIX, CHANGES_PREFIX],
  ["/open-banking/v2.2/", CHANGES_OPEN_BANKING_PREFIX],
  ["/std/v1.0/", "/x-std/v1.0/"],
  ["/open-banking/v1.0/", "/x-open-banking/v1.0/"],
];

/**
 * The changes path of a data set served at `path`: `/std/v2.2/atms` has
 * `/x-std/v2.2/atms/changes`, its alias `/open-banking/v2.2/atms` has
 * `/x-open-banking/v2.2/atms/changes`; `/std/v1.0/reg-service-metrics/pca` has
 * `/x-std/v1.0/reg-service-metrics/pca/changes`. Undefined for any other path.
 */
export function changesPathOf(path: string): string | undefined {
  for (const [served, changes] of SERVED_PREFIXES) {
    if (path.startsWith(served)) return `${changes}${path.slice(served.length)}/${CHANGES_SEGMENT}`;
  }
  return undefined;
}

/**
 * A LastUpdated token: RFC 3339 in UTC with whole seconds and `Z`, as meta.LastUpdated is
 * published (docs/decisions.md#lastupdated), with each field in its range. Anything else is
 * malformed (400), not unknown (410).
 */
export const LAST_UPDATED_TOKEN =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;

/** An ETag token: the 64 lower-case hex digits of a strong ETag, without its quotes. */
export const ETAG_TOKEN = /^[0-9a-f]{64}$/;

/** Whether `token` is a well-formed `since` (either kind); a well-formed unknown one is a 410. */
export function isSinceToken(token: string): boolean {
  return ETAG_TOKEN.test(token) || LAST_UPDATED_TOKEN.test(token);
}

/** Where the stored change answers are kept in the assets folder (not served by that name). */
export const CHANGES_ASSET_FOLDER = "/_changes/";

/** The publication feed: one entry per publication of a data set (Atom 1.0, RFC 4287). */
export const CHANGES_FEED_PATH = "/x-std/changes.atom";
/** RFC 4287 section 7: the media type of an Atom document. */
export const CHANGES_FEED_MEDIA_TYPE = "application/atom+xml";
