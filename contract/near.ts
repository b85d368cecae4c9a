/**
 * The "near me" extension endpoints, as the build and the Worker share them: the paths, the
 * limits on their parameters, and the shape of the index the build precomputes per data set so
 * the Worker answers by selecting and concatenating bytes of the published body, never parsing
 * it per request. Places (country codes, names, postcodes, distances) are contract/place.ts's. No
 * runtime imports: safe for the Worker's bundle.
 */

/**
 * Bump whenever the Worker would answer an unchanged index with different bytes (a change to
 * the selection, the ordering or the envelope pieces): it is part of every filtered ETag
 * (docs/decisions.md#the-etag-of-a-filtered-answer).
 */
export const NEAR_FORMAT_VERSION = 1;

/** Where the extension paths live: HSBC's extension layout, under our own and the live prefix. */
export const NEAR_PREFIX = "/x-std/v2.2/";
/** The same paths under the live standard's names, when site.yaml sets OpenBankingPaths. */
export const NEAR_OPEN_BANKING_PREFIX = "/x-open-banking/v2.2/";
/** The standard prefix a data set's own path starts with for it to get extension paths. */
export const NEAR_STANDARD_PREFIX = "/std/v2.2/";

/** The filters, by their first path segment. */
export type NearFilter = "country" | "geo-location" | "postcode" | "sortcode" | "segment";

/** Radius of a geo-location query, in statute miles (HSBC's extension: 1 to 10, default 1). */
export const RADIUS_MILES = { min: 1, max: 10, default: 1 } as const;
/** A postcode answer holds the records within this many miles of the postcode (HSBC's extension). */
export const POSTCODE_RADIUS_MILES = 5;

/** What the manifest says of one data set's extension endpoints. */
export interface NearEntry {
  /** Data set id, as in the manifest's datasets. */
  readonly dataset: string;
  /** The filters this data set answers. */
  readonly filters: readonly NearFilter[];
  /** For `segment`: the segment codes its schema allows (anything else is 400). */
  readonly segments: readonly string[];
  /** The index file: asset path under dist/, strong ETag (SHA-256 of its bytes), byte length. */
  readonly index: { readonly asset: string; readonly etag: string; readonly length: number };
}

/** A [start, end) range of bytes of the published identity body. */
export type ByteRange = readonly [start: number, end: number];

/**
 * The index file of one data set (JSON, read once per isolate). Records are numbered in
 * publication order; every list of record numbers is in that order.
 */
export interface NearIndex {
  readonly formatVersion: typeof NEAR_FORMAT_VERSION;
  readonly dataset: string;
  /**
   * The identity body the ranges point into. Its asset path is from the root of the publication
   * the index is in: dist/ itself, or a site's folder with site.yaml's Sites, where the index is
   * at `<folder>/_near/` (nearBodyAsset).
   */
  readonly body: { readonly asset: string; readonly etag: string; readonly length: number };
  /** From the body's first byte up to and including `"TotalResults":`. */
  readonly head: ByteRange;
  /** From just after the TotalResults number up to and including `"data":`. */
  readonly metaTail: ByteRange;
  /** Per brand, 4 numbers: the range before its first record, then the range after its last. */
  readonly brands: readonly number[];
  /** Per record, 3 numbers: its brand's number, then its own byte range. */
  readonly records: readonly number[];
  /** Records with coordinates, sorted by latitude: 3 numbers each (latitude, longitude, record). */
  readonly located: readonly number[];
  /** Record numbers by the ISO 3166-1 code a record's Country means (contract/place.ts countryCode). */
  readonly country: Readonly<Record<string, readonly number[]>>;
  /** Record numbers by `country/town`, the town normalised by contract/place.ts normaliseName. */
  readonly town: Readonly<Record<string, readonly number[]>>;
  /** Record numbers by sort code (six digits). */
  readonly sortcode: Readonly<Record<string, readonly number[]>>;
  /** Record numbers by segment code, as the schema spells it. */
  readonly segment: Readonly<Record<string, readonly number[]>>;
  /** Where a postcode is: [latitude, longitude] by unit, sector and district (contract/place.ts PostcodeKeys). */
  readonly postcodes: {
    readonly unit: Readonly<Record<string, readonly [number, number]>>;
    readonly sector: Readonly<Record<string, readonly [number, number]>>;
    readonly district: Readonly<Record<string, readonly [number, number]>>;
  };
}

// The folder of the index files, under the root of their publication.
const NEAR_FOLDER = "/_near/";

/** Asset path of a data set's index file under dist/ (served to no one: the Worker reads it). */
export function nearIndexAsset(dataset: string): string {
  return `${NEAR_FOLDER}${dataset}.json`;
}

/**
 * The asset path of the body an index names, from the index's own asset path: the body's path
 * under the root of the publication the index is in (a site's folder with Sites, else dist/).
 */
export function nearBodyAsset(indexAsset: string, bodyAsset: string): string {
  return indexAsset.slice(0, indexAsset.lastIndexOf(NEAR_FOLDER)) + bodyAsset;
}
