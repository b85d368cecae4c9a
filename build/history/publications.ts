/**
 * The publications the feed and the landing page tell: each version of a data set against the
 * one before, counted and with a few records of each kind named. Told brand by brand, so a
 * brand's part, made of its two versions' files alone, is worked out once for every site that
 * publishes it and kept (store.ts, brandPublications): a publication between two past versions
 * never changes.
 */
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { codeHash } from "../core/code-fingerprint.js";
import type { DatasetDefinition, DatasetId } from "../core/datasets.js";
import {
  brandRecordChanges,
  byBrand,
  labelOf,
  sourcesOf,
  type PublishedRecord,
  type VersionRecords,
} from "./records.js";

/** How many records of each kind a publication names. */
const NAMED_PER_KIND = 3;

interface Named {
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
}

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
  readonly named: Named;
}

/** One brand's part of a publication: its counts, and the first names of each kind. */
export interface BrandPublication {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
  readonly named: Named;
}

/**
 * Brands' parts of publications, by the brand's name and what its two versions are made of
 * (BrandRecords.source): the part kept under `key`, or the one `make` gives, kept. Async, since a
 * build may keep them in its cache.
 */
export interface BrandPublications {
  through(key: string, make: () => BrandPublication): Promise<BrandPublication>;
}

// The first NAMED_PER_KIND distinct names of `names`, in order.
function firstNames(names: Iterable<string>): string[] {
  const out: string[] = [];
  for (const name of names) {
    if (out.length === NAMED_PER_KIND) break;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** A brand's part of a publication, from its records before (none: new) and after (none: gone). */
function brandPublication(
  before: readonly PublishedRecord[],
  after: readonly PublishedRecord[],
): BrandPublication {
  const { added, changed, removed } = brandRecordChanges(before, after);
  const named = (records: readonly PublishedRecord[]) => firstNames(lazyLabels(records));
  return {
    added: added.length,
    changed: changed.length,
    removed: removed.length,
    named: { added: named(added), changed: named(changed), removed: named(removed) },
  };
}

// Labels one at a time: a record's label may mean parsing its text (records.ts, labelOf).
function* lazyLabels(records: readonly PublishedRecord[]): Generator<string> {
  for (const record of records) yield labelOf(record);
}

/**
 * The publication `newer` against `older` (undefined: nothing was published before it): its
 * brands' parts in `newer`'s order, then the brands only `older` had. A brand's part goes through
 * `memo` where both versions say what the brand is made of. Since each part names its first
 * distinct records, the first distinct names over all parts in order are the whole's.
 */
export async function publication(
  dataset: DatasetDefinition,
  newer: { lastUpdated: string; records: VersionRecords },
  older: { lastUpdated: string; records: VersionRecords } | undefined,
  memo?: BrandPublications,
): Promise<Publication> {
  // Each version's brands by name, made only for a part the memo does not hold.
  let brands: { before: Map<string, PublishedRecord[]>; after: Map<string, PublishedRecord[]> };
  const records = () =>
    (brands ??= { before: byBrand(older?.records ?? []), after: byBrand(newer.records) });
  const olderSources = memo && sourcesOf(older?.records ?? []);
  const newerSources = memo && sourcesOf(newer.records);
  const part = async (name: string): Promise<BrandPublication> => {
    const from = olderSources?.get(name);
    const to = newerSources?.get(name);
    const make = () => {
      const { before, after } = records();
      return brandPublication(before.get(name) ?? [], after.get(name) ?? []);
    };
    if (from === undefined || to === undefined) return make();
    return memo!.through(`${dataset.id}\0${name}\0${from}\0${to}`, make);
  };
  const newerNames = new Set(newer.records.map((b) => b.name));
  const olderNames = new Set((older?.records ?? []).map((b) => b.name));
  const names = [...newerNames, ...[...olderNames].filter((name) => !newerNames.has(name))];
  const parts = await Promise.all(names.map(part));
  const sum = (kind: "added" | "changed" | "removed") => parts.reduce((n, p) => n + p[kind], 0);
  const named = (kind: keyof Named) => firstNames(parts.flatMap((p) => p.named[kind]));
  return {
    dataset: dataset.id,
    lastUpdated: newer.lastUpdated,
    before: older?.lastUpdated,
    brands: [...newerNames],
    added: sum("added"),
    changed: sum("changed"),
    removed: sum("removed"),
    named: { added: named("added"), changed: named("changed"), removed: named("removed") },
  };
}

// This module's extension: .js compiled, .ts under vitest.
const OWN = extname(fileURLToPath(import.meta.url));

/**
 * What a brand's part of a publication kept across builds is keyed by besides its versions' files:
 * this module and all it imports (records.ts's matching and labels, encode/body.ts's record
 * text), so a change to how a publication is told tells the past ones again.
 */
export function publicationForm(): string {
  return codeHash([new URL(`./publications${OWN}`, import.meta.url)]);
}
