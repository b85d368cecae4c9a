/**
 * What `npm run verify` fetches from a deployment and what it expects each answer to be, from the
 * manifest of the build that was deployed: every data set at its own path and at each
 * live-standard alias, every document, one near-me query per data set with an index, and each
 * changes endpoint (and its alias) asked since the current version. All are
 * asked for in identity (Accept-Encoding: identity), whose strong ETag is the hex SHA-256 of the
 * body (docs/architecture.md#what-the-build-writes), so the body's hash is known too.
 */
import type { Manifest, ManifestEntry, ServedFile } from "../../contract/manifest.js";
import { SINCE_PARAMETER } from "../../contract/changes.js";
import {
  NEAR_FORMAT_VERSION,
  NEAR_PREFIX,
  NEAR_STANDARD_PREFIX,
  type NearEntry,
} from "../../contract/near.js";

/** What an answer must carry for the path to count as the same as the build. */
export interface Expected {
  readonly status: number;
  /**
   * The entity tag: the exact strong tag, or the start every tag of that answer has (a near-me
   * answer's tag ends in the Worker's form of the query). A weak W/ form counts as the same tag:
   * Cloudflare's edge weakens a strong tag when it transforms a response.
   */
  readonly etag: { readonly exact: string } | { readonly prefix: string };
  /** The Last-Modified field, as the manifest writes it (an IMF-fixdate). */
  readonly lastModified: string;
  /** The hex SHA-256 of the body, where the build knows the body. */
  readonly sha256?: string;
}

/** One path to fetch, what it is, and what to expect. */
export interface PathCheck {
  /** The path (and query) to GET, from the deployment's origin. */
  readonly path: string;
  /** What the path serves, for the report: "data set atms", "document", … */
  readonly what: string;
  /** The data set it belongs to, if any, so a report can name the data sets that differ. */
  readonly dataset?: string;
  readonly expected: Expected;
}

/** The hex digest an identity ETag quotes: `"ab12…"` → `ab12…`. */
function digestOf(etag: string): string {
  return etag.replaceAll('"', "");
}

function identityExpectation(file: ServedFile): Expected {
  const { etag } = file.variants.identity;
  return {
    status: 200,
    etag: { exact: etag },
    lastModified: file.lastModified,
    sha256: digestOf(etag),
  };
}

/**
 * A near-me query every data set with an index answers 200 to, whatever its records: a country
 * (GB) where the data set filters by country, else its first segment code, else a point in
 * London with the largest radius; undefined when it offers none of these.
 */
export function nearQueryPath(entry: ManifestEntry, near: NearEntry): string | undefined {
  if (!entry.path.startsWith(NEAR_STANDARD_PREFIX)) return undefined;
  const base = `${NEAR_PREFIX}${entry.path.slice(NEAR_STANDARD_PREFIX.length)}`;
  if (near.filters.includes("country")) return `${base}/country/GB`;
  const segment = near.segments[0];
  if (near.filters.includes("segment") && segment) return `${base}/segment/${segment}`;
  if (near.filters.includes("geo-location")) {
    return `${base}/geo-location/lat/51.5074/long/-0.1278?radius=10`;
  }
  return undefined;
}

/**
 * Every path to check, in the manifest's order: data sets (each alias after its data set), the
 * documents, the near-me queries, then the changes endpoints. This is the one list.
 */
export function pathChecks(manifest: Manifest): PathCheck[] {
  const checks: PathCheck[] = [];
  for (const entry of manifest.datasets) {
    const expected = identityExpectation(entry);
    const dataset = entry.dataset;
    checks.push({ path: entry.path, what: `data set ${dataset}`, dataset, expected });
    for (const alias of entry.aliases) {
      checks.push({ path: alias.path, what: `data set ${dataset}, alias`, dataset, expected });
    }
  }
  for (const document of manifest.documents) {
    checks.push({ path: document.path, what: "document", expected: identityExpectation(document) });
  }
  for (const near of manifest.near ?? []) {
    const entry = manifest.datasets.find((d) => d.dataset === near.dataset);
    const path = entry && nearQueryPath(entry, near);
    if (!entry || !path) continue;
    checks.push({
      path,
      what: `data set ${entry.dataset}, near me`,
      dataset: entry.dataset,
      // The Worker's tag for a filtered answer names the index it was cut from, after the
      // format version (docs/decisions.md#the-etag-of-a-filtered-answer); the body is made per
      // request, so the build knows no hash of it.
      expected: {
        status: 200,
        etag: { prefix: `"near.${NEAR_FORMAT_VERSION}.${digestOf(near.index.etag)}.` },
        lastModified: entry.lastModified,
      },
    });
  }
  for (const changes of manifest.changes ?? []) {
    // Since the current version: the one answer every deployment of this build has, whatever
    // history it kept (nothing listed), stored like a body, so its hash is known too.
    const current = changes.answers[0];
    if (!current) continue;
    const query = `?${SINCE_PARAMETER}=${encodeURIComponent(current.since)}`;
    const expected: Expected = {
      status: 200,
      etag: { exact: current.variants.identity.etag },
      lastModified: changes.lastModified,
      sha256: digestOf(current.variants.identity.etag),
    };
    const dataset = changes.dataset;
    checks.push({
      path: changes.path + query,
      what: `data set ${dataset}, changes`,
      dataset,
      expected,
    });
    for (const alias of changes.aliases) {
      checks.push({
        path: alias.path + query,
        what: `data set ${dataset}, changes, alias`,
        dataset,
        expected,
      });
    }
  }
  return checks;
}
