/**
 * The publications the feed and the landing page tell: each version of a data set against the
 * one before, counted and with a few records of each kind named.
 */
import type { DatasetDefinition, DatasetId } from "../core/datasets.js";
import { labelOf, recordChanges, type PublishedRecord, type VersionRecords } from "./records.js";

/** How many records of each kind a publication names. */
const NAMED_PER_KIND = 3;

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
  const { added, changed, removed } = recordChanges(older?.records ?? [], newer.records);
  const named = (records: readonly PublishedRecord[]) => {
    const names: string[] = [];
    for (const record of records) {
      if (names.length === NAMED_PER_KIND) break;
      const text = labelOf(record);
      if (!names.includes(text)) names.push(text);
    }
    return names;
  };
  return {
    dataset: dataset.id,
    lastUpdated: newer.lastUpdated,
    before: older?.lastUpdated,
    brands: [...new Set(newer.records.map((b) => b.name))],
    added: added.length,
    changed: changed.length,
    removed: removed.length,
    named: { added: named(added), changed: named(changed), removed: named(removed) },
  };
}
