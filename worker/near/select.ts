/**
 * Which records answer a query, from a loaded index: lookups for country, town, sort code and
 * segment (publication order), and for geo-location and postcode the records within the radius,
 * nearest first. Pure functions of the index; no parsing.
 */
import { POSTCODE_RADIUS_MILES, type NearIndex } from "../../contract/near.js";
import { EARTH_RADIUS_MILES, distanceMiles } from "../../contract/place.js";
import type { NearQuery } from "./query.js";

/** An index as the Worker keeps it once per isolate: the index, its located records as numbers. */
export interface LoadedIndex {
  readonly index: NearIndex;
  /** The published identity body the index's ranges point into. */
  readonly body: Uint8Array;
  /** index.located as a typed array: latitude, longitude, record, sorted by latitude. */
  readonly located: Float64Array;
}

/** An index and its body made ready for queries. */
export function loadIndex(index: NearIndex, body: Uint8Array): LoadedIndex {
  return { index, body, located: Float64Array.from(index.located) };
}

// Degrees of latitude per mile along a meridian, and a margin so a record on the edge of the
// band, whose distance is the radius itself, is not lost to rounding.
const DEGREES_PER_MILE = 180 / (Math.PI * EARTH_RADIUS_MILES);
const BAND_MARGIN_DEGREES = 1e-9;

/**
 * The records within `radius` miles of the point, nearest first (equal distances in publication
 * order). Only the band of latitudes the radius can reach is scanned, found by binary search.
 */
function withinRadius(
  loaded: LoadedIndex,
  latitude: number,
  longitude: number,
  radius: number,
): number[] {
  const { located } = loaded;
  const n = located.length / 3;
  const reach = radius * DEGREES_PER_MILE + BAND_MARGIN_DEGREES;
  const lowest = latitude - reach;
  const highest = latitude + reach;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (located[mid * 3]! < lowest) lo = mid + 1;
    else hi = mid;
  }
  const found: { record: number; miles: number }[] = [];
  for (let i = lo; i < n && located[i * 3]! <= highest; i++) {
    const miles = distanceMiles(latitude, longitude, located[i * 3]!, located[i * 3 + 1]!);
    if (miles <= radius) found.push({ record: located[i * 3 + 2]!, miles });
  }
  found.sort((a, b) => a.miles - b.miles || a.record - b.record);
  return found.map((f) => f.record);
}

/** Where a postcode is: its unit, else its sector, else its district; undefined if unknown. */
function placePostcode(
  index: NearIndex,
  keys: { readonly unit: string; readonly sector: string; readonly district: string },
): readonly [number, number] | undefined {
  const { unit, sector, district } = index.postcodes;
  return unit[keys.unit] ?? sector[keys.sector] ?? district[keys.district];
}

/**
 * The records answering `query`, in answer order; "unplaced" for a postcode the index cannot
 * place (docs/decisions.md#a-postcode-that-cannot-be-placed).
 */
export function selectRecords(
  loaded: LoadedIndex,
  query: NearQuery,
): readonly number[] | "unplaced" {
  const { index } = loaded;
  switch (query.filter) {
    case "country":
      return query.town === undefined
        ? (index.country[query.country] ?? [])
        : (index.town[`${query.country}/${query.town}`] ?? []);
    case "geo-location":
      return withinRadius(loaded, query.latitude, query.longitude, query.radius);
    case "postcode": {
      const at = placePostcode(index, query);
      return at ? withinRadius(loaded, at[0], at[1], POSTCODE_RADIUS_MILES) : "unplaced";
    }
    case "sortcode":
      return index.sortcode[query.sortcode] ?? [];
    case "segment":
      return index.segment[query.segment] ?? [];
  }
}
