/**
 * The located records of the published data sets: every record (branch, ATM, …) whose content
 * gives GeographicCoordinates, wherever in the record they sit (a branch has them in its
 * PostalAddress, an ATM in Location.PostalAddress). Read from the assembled bodies, so the map
 * shows exactly what is published.
 */
import type { DatasetDefinition } from "../core/datasets.js";
import type { LocatedRecord } from "../core/place.js";

export type { LocatedRecord } from "../core/place.js";

/** The keys holding a record's latitude and longitude (open-data-api-v2.2.md, GeoLocation). */
const GEO_LOCATION = "GeoLocation";
const COORDINATES = "GeographicCoordinates";
/** Records nest addresses a few levels deep; nothing deeper is searched. */
const MAX_DEPTH = 6;

/**
 * What is read of each record, by the record, as a build's memory keeps it (core/memory.ts,
 * "record-marks"): a process that builds again with the same memory (the live preview, which keeps
 * the values of unchanged files) reads only the records it has not read before. Values are never
 * changed once parsed.
 */
export class RecordMarks {
  /**
   * Each located record, by its record: the same object from build to build while the record is
   * unchanged, so what is derived from it (the map's cache key, documents/landing/page.ts) can be
   * kept by it too.
   */
  readonly located = new WeakMap<object, LocatedRecord>();
  /** Each record's place. */
  readonly places = new WeakMap<object, RecordPlace | null>();
}

/**
 * Every located record of one data set's envelope, in publication order. `marks`: what builds
 * before read of the same records; a build's own by default.
 */
export function locatedRecords(
  dataset: DatasetDefinition,
  envelope: { readonly data: readonly { readonly Brand: readonly Record<string, unknown>[] }[] },
  marks: RecordMarks = new RecordMarks(),
): LocatedRecord[] {
  const { located } = marks;
  if (dataset.recordsKey === null) return [];
  const found: LocatedRecord[] = [];
  for (const { Brand } of envelope.data) {
    for (const brand of Brand) {
      const brandName = String(brand.BrandName);
      const records = (brand[dataset.recordsKey] ?? []) as unknown[];
      for (const record of records) {
        const kept = isObject(record) ? located.get(record) : undefined;
        if (kept && kept.kind === dataset.title && kept.brand === brandName) {
          found.push(kept);
          continue;
        }
        const place = placeOf(record, marks.places);
        if (!place) continue;
        const item = {
          kind: dataset.title,
          record: dataset.recordsKey,
          brand: brandName,
          ...place,
        };
        if (isObject(record)) located.set(record, item);
        found.push(item);
      }
    }
  }
  return found;
}

/** What a record says of its place: its coordinates and the names the map shows. */
type RecordPlace = Omit<LocatedRecord, "kind" | "record" | "brand">;

function placeOf(record: unknown, places: RecordMarks["places"]): RecordPlace | undefined {
  if (!isObject(record)) return undefined;
  let place = places.get(record);
  if (place === undefined) places.set(record, (place = readPlace(record)));
  return place ?? undefined;
}

function readPlace(fields: Fields): RecordPlace | null {
  const place = findPlace(fields, 0);
  if (!place) return null;
  const { address, at } = place;
  const latitude = Number(at.Latitude);
  const longitude = Number(at.Longitude);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  const site = isObject(fields.Location) ? fields.Location.Site : undefined;
  return {
    latitude,
    longitude,
    ...textField("identification", fields.Identification),
    ...textField("name", fields.Name ?? (isObject(site) ? site.Name : undefined)),
    ...textField("town", address.TownName),
  };
}

// A field kept only when it is text, so a cached summary holds no `undefined`.
const textField = <K extends string>(key: K, value: unknown) =>
  typeof value === "string" && value !== "" ? ({ [key]: value } as Record<K, string>) : {};

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The coordinates, and the address holding them (its GeoLocation), wherever in the record they are. */
function findPlace(value: unknown, depth: number): { address: Fields; at: Fields } | undefined {
  if (depth > MAX_DEPTH || !isObject(value)) return undefined;
  const geo = value[GEO_LOCATION];
  if (isObject(geo) && isObject(geo[COORDINATES])) return { address: value, at: geo[COORDINATES] };
  for (const child of Object.values(value)) {
    const found = findPlace(child, depth + 1);
    if (found) return found;
  }
  return undefined;
}
