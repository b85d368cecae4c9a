/**
 * The publications the feed and the landing page tell: each version of a data set against the
 * one before, counted and with a few records of each kind named.
 */
import type { DatasetDefinition, DatasetId } from "../core/datasets.js";
import {
  changeCounts,
  changesBetween,
  recordLabel,
  type BrandChange,
  type VersionRecords,
} from "./records.js";

/** How many records of each kind a publication names. */
export const NAMED_PER_KIND = 3;

/** One publication of a data set, against the one before, as the feed tells it. */
export interface Publication {
  readonly dataset: DatasetId;
  readonly lastUpdated: string;
  /** The LastUpdated of the publication before; undefined for the data set's first. */
  readonly before: string | undefined;
  /** The BrandNames it published. */
  readonly brands: readonly string[];
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
  /** A few records of each kind, named (Identification, and town or product name). */
  readonly named: {
    readonly added: readonly string[];
    readonly changed: readonly string[];
    readonly removed: readonly string[];
  };
}

/** The publication `newer` against `older` (undefined: nothing was published before it). */
export function publication(
  dataset: DatasetDefinition,
  newer: { lastUpdated: string; records: VersionRecords },
  older: { lastUpdated: string; records: VersionRecords } | undefined,
): Publication {
  const changes: BrandChange[] = changesBetween(older?.records ?? [], newer.records);
  const counts = changeCounts(changes);
  const firstOf = (id: string, version: VersionRecords) => {
    for (const brand of version) for (const r of brand.records) if (r.id === id) return r.json;
    return undefined;
  };
  const label = (id: string, version: VersionRecords) => {
    const json = firstOf(id, version);
    return json === undefined ? id : recordLabel(json);
  };
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  const oldIds = new Set(older?.records.flatMap((b) => b.records.map((r) => `${b.name}\0${r.id}`)));
  for (const change of changes) {
    for (const record of change.listed) {
      const list = oldIds.has(`${change.name}\0${record.id}`) ? changed : added;
      const text = recordLabel(record.json);
      if (list.length < NAMED_PER_KIND && !list.includes(text)) list.push(text);
    }
    for (const id of change.removed) {
      if (removed.length < NAMED_PER_KIND) removed.push(label(id, older!.records));
    }
  }
  return {
    dataset: dataset.id,
    lastUpdated: newer.lastUpdated,
    before: older?.lastUpdated,
    brands: [...new Set(newer.records.map((b) => b.name))],
    ...counts,
    named: { added, changed, removed },
  };
}
