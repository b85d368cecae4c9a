/**
 * The reference the extension endpoints are tested against: the plain filter over a data set's
 * full list, written here from the words and the haversine formula, independently of
 * worker/near/ and build/near/. Distances are great-circle miles on a sphere of the mean Earth
 * radius (6371.0088 km; 1 mile = 1.609344 km).
 */

type Json = Record<string, unknown>;
/** A data set's envelope as published. */
export interface Body {
  readonly meta: Json;
  readonly data: readonly { readonly Brand: readonly Json[] }[];
}

/** One record of a full list, with its brand (without the record list) and its position. */
export interface Listed {
  readonly brandName: string;
  readonly record: Json;
  readonly order: number;
}

/** Every record of a body, in publication order. */
export function listRecords(body: Body, recordsKey: string): Listed[] {
  const out: Listed[] = [];
  for (const item of body.data) {
    for (const brand of item.Brand) {
      for (const record of (brand[recordsKey] ?? []) as Json[]) {
        out.push({ brandName: String(brand.BrandName), record, order: out.length });
      }
    }
  }
  return out;
}

/** The records of an answer, in answer order (brand by brand). */
export function answerRecords(body: Body, recordsKey: string): Json[] {
  return listRecords(body, recordsKey).map((l) => l.record);
}

const MILES = 6371.0088 / 1.609344;

/** Haversine distance in miles. */
export function referenceMiles(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const h =
    Math.sin(((lat2 - lat1) * r) / 2) ** 2 +
    Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * MILES * Math.asin(Math.sqrt(h));
}

/** A record's postal address: a branch's, or an ATM's under Location. */
export function addressOf(record: Json): Json {
  return (record.PostalAddress ??
    (record.Location as Json | undefined)?.PostalAddress ??
    {}) as Json;
}

const positions = new WeakMap<Json, [number, number] | undefined>();

/** A record's position, if it has one (read once per record: the reference asks often). */
export function positionOf(record: Json): [number, number] | undefined {
  if (positions.has(record)) return positions.get(record);
  const at = (addressOf(record).GeoLocation as Json | undefined)?.GeographicCoordinates as
    | Json
    | undefined;
  const position: [number, number] | undefined = at
    ? [Number(at.Latitude), Number(at.Longitude)]
    : undefined;
  positions.set(record, position);
  return position;
}

/**
 * The records within `radius` miles, nearest first, equal distances in publication order; then
 * grouped brand by brand, brands in the order of their nearest record (as an envelope holds
 * them).
 */
export function referenceNear(
  listed: readonly Listed[],
  lat: number,
  lon: number,
  radius: number,
): Json[] {
  const found = listed
    .map((l) => ({ l, at: positionOf(l.record) }))
    .filter((x): x is { l: Listed; at: [number, number] } => x.at !== undefined)
    .map(({ l, at }) => ({ l, miles: referenceMiles(lat, lon, at[0], at[1]) }))
    .filter((x) => x.miles <= radius)
    .sort((a, b) => a.miles - b.miles || a.l.order - b.l.order)
    .map((x) => x.l);
  return groupByBrand(found);
}

/** Records grouped by brand, brands in order of first appearance, order kept within a brand. */
export function groupByBrand(listed: readonly Listed[]): Json[] {
  const brands = new Map<string, Json[]>();
  for (const l of listed) {
    const list = brands.get(l.brandName) ?? [];
    list.push(l.record);
    brands.set(l.brandName, list);
  }
  return [...brands.values()].flat();
}

/** The records whose address has this country and, if given, this town (any letter case). */
export function referenceTown(listed: readonly Listed[], country: string, town?: string): Json[] {
  const fold = (text: unknown) => String(text).trim().replace(/\s+/g, " ").toLowerCase();
  return groupByBrand(
    listed.filter((l) => {
      const a = addressOf(l.record);
      if (a.Country !== country) return false;
      return town === undefined || (a.TownName !== undefined && fold(a.TownName) === fold(town));
    }),
  );
}
