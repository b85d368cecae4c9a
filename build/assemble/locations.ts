/**
 * The located records of the published data sets: every record (branch, ATM, …) whose content
 * gives GeographicCoordinates, wherever in the record they sit (a branch has them in its
 * PostalAddress, an ATM in Location.PostalAddress). Read from the assembled bodies, so the map
 * shows exactly what is published.
 */
import type { DatasetDefinition } from "../core/datasets.js";

export interface LocatedRecord {
  /** The data set's title, e.g. "Branches": the kind of mark. */
  readonly kind: string;
  readonly brand: string;
  readonly latitude: number;
  readonly longitude: number;
}

/** The key holding a record's latitude and longitude (open-data-api-v2.2.md, GeoLocation). */
const COORDINATES = "GeographicCoordinates";
/** Records nest addresses a few levels deep; nothing deeper is searched. */
const MAX_DEPTH = 6;

/** Every located record of one data set's envelope, in publication order. */
export function locatedRecords(
  dataset: DatasetDefinition,
  envelope: { readonly data: readonly { readonly Brand: readonly Record<string, unknown>[] }[] },
): LocatedRecord[] {
  if (dataset.recordsKey === null) return [];
  const found: LocatedRecord[] = [];
  for (const { Brand } of envelope.data) {
    for (const brand of Brand) {
      const records = (brand[dataset.recordsKey] ?? []) as unknown[];
      for (const record of records) {
        const at = findCoordinates(record, 0);
        if (!at) continue;
        const latitude = Number(at.Latitude);
        const longitude = Number(at.Longitude);
        if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
        found.push({ kind: dataset.title, brand: String(brand.BrandName), latitude, longitude });
      }
    }
  }
  return found;
}

function findCoordinates(value: unknown, depth: number): Record<string, unknown> | undefined {
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) return undefined;
  const own = (value as Record<string, unknown>)[COORDINATES];
  if (own !== null && typeof own === "object") return own as Record<string, unknown>;
  for (const child of Object.values(value)) {
    const found = findCoordinates(child, depth + 1);
    if (found) return found;
  }
  return undefined;
}
