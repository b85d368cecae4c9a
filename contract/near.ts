/**
 * The "near me" extension endpoints, as the build and the Worker share them: the paths, the
 * limits on their parameters, and the shape of the index the build precomputes per data set so
 * the Worker answers by selecting and concatenating bytes of the published body, never parsing
 * it per request. No runtime imports: safe for the Worker's bundle.
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
/** Mean Earth radius (IUGG, 6371.0088 km) in statute miles (1 mile = 1.609344 km). */
export const EARTH_RADIUS_MILES = 6371.0088 / 1.609344;

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
  /** The identity body the ranges point into. */
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
  /** Record numbers by country code (upper case). */
  readonly country: Readonly<Record<string, readonly number[]>>;
  /** Record numbers by `country/town`, the town normalised by {@link normaliseTown}. */
  readonly town: Readonly<Record<string, readonly number[]>>;
  /** Record numbers by sort code (six digits). */
  readonly sortcode: Readonly<Record<string, readonly number[]>>;
  /** Record numbers by segment code, as the schema spells it. */
  readonly segment: Readonly<Record<string, readonly number[]>>;
  /** Where a postcode is: [latitude, longitude] by unit, sector and district (see postcodeKeys). */
  readonly postcodes: {
    readonly unit: Readonly<Record<string, readonly [number, number]>>;
    readonly sector: Readonly<Record<string, readonly [number, number]>>;
    readonly district: Readonly<Record<string, readonly [number, number]>>;
  };
}

/**
 * A country code as compared: upper case, and `UK`, which ISO 3166-1 reserves exceptionally for
 * the United Kingdom and which Barclays and NatWest publish, read as `GB`
 * (docs/decisions.md#parameters-of-the-extension-paths).
 */
export function normaliseCountry(code: string): string {
  const upper = code.toUpperCase();
  return upper === "UK" ? "GB" : upper;
}

/** A town as compared: trimmed, inner white space as one space, lower case. */
export function normaliseTown(town: string): string {
  return town.trim().replace(/\s+/g, " ").toLowerCase();
}

// A full UK postcode without its space: outward code (area, district) then inward code
// (sector digit, unit letters), e.g. SW1A1AA, M11AE, WX14AB.
const FULL_POSTCODE = /^([A-Z]{1,2}[0-9][A-Z0-9]?)([0-9])([A-Z]{2})$/;

/**
 * The unit, sector and district keys of a full UK postcode, any case, with or without inner
 * spaces ("wx1 4ab" gives WX14AB, WX14, WX1); undefined when it is not one.
 */
export function postcodeKeys(
  postcode: string,
): { readonly unit: string; readonly sector: string; readonly district: string } | undefined {
  const match = FULL_POSTCODE.exec(postcode.replace(/\s+/g, "").toUpperCase());
  if (!match) return undefined;
  const [, outward, sector, unit] = match as unknown as [string, string, string, string];
  return { unit: outward + sector + unit, sector: outward + sector, district: outward };
}

/** Great-circle distance in miles between two points given in degrees (haversine formula). */
export function distanceMiles(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The ISO 3166-1 alpha-2 codes assigned to countries (a `country` outside them is 400). */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR " +
    "BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ " +
    "EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW " +
    "GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY " +
    "KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV " +
    "MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY " +
    "QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG " +
    "TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

/** Asset path of a data set's index file under dist/ (served to no one: the Worker reads it). */
export function nearIndexAsset(dataset: string): string {
  return `/_near/${dataset}.json`;
}
