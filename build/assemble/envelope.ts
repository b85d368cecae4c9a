/**
 * Step 5, assemble: joins each brand's files into one brand object and wraps the brands of a data
 * set in the response envelope both specs define ({meta, data}).
 */
import { AGREEMENT, type DatasetDefinition } from "../core/datasets.js";
import type { SiteSettings } from "../read/site.js";
import type { Brand, Envelope } from "../core/envelope-shape.js";

export type { Brand, Envelope } from "../core/envelope-shape.js";

/**
 * The files of a brand, in join order, whose records the brand publishes: the brand's fields are
 * its first file's, and its records every file's in order; in the service metrics (no records
 * key) the first file is the brand. The one rule for the build's values (joinBrand) and for a past
 * version's files' facts (history/facts.ts, versionFacts).
 */
export function recordParts<T>(dataset: DatasetDefinition, parts: readonly T[]): readonly T[] {
  return dataset.recordsKey === null ? parts.slice(0, 1) : parts;
}

/**
 * One brand object from the validated values of its files, in join order. A brand file holds the
 * whole object; the files of a brand folder each hold part of the record list.
 */
export function joinBrand(dataset: DatasetDefinition, parts: readonly unknown[]): Brand {
  const first = parts[0] as Brand;
  const key = dataset.recordsKey;
  if (key === null || parts.length === 1) return first;
  return {
    ...first,
    [key]: recordParts(dataset, parts).flatMap((part) => (part as Brand)[key] as unknown[]),
  };
}

// meta.TotalResults: records for branches, ATMs and products; brand objects for service metrics.
function countRecords(dataset: DatasetDefinition, brands: readonly Brand[]): number {
  const key = dataset.recordsKey;
  if (key === null) return brands.length;
  return brands.reduce((sum, brand) => sum + (brand[key] as unknown[]).length, 0);
}

/**
 * The GET 200 body. All brands go in one data item's Brand array, the shape the spec's
 * `data[].Brand` describes; an empty data set publishes `data: []`.
 */
export function envelope(
  dataset: DatasetDefinition,
  brands: readonly Brand[],
  settings: SiteSettings,
  lastUpdated: string,
): Envelope {
  return {
    meta: envelopeMeta(countRecords(dataset, brands), settings, lastUpdated),
    data: brands.length === 0 ? [] : [{ Brand: [...brands] }],
  };
}

/** The body's meta, for `count` records: the one place its fields and their order are set. */
export function envelopeMeta(
  count: number,
  settings: SiteSettings,
  lastUpdated: string,
): Envelope["meta"] {
  return {
    LastUpdated: lastUpdated,
    TotalResults: count,
    Agreement: AGREEMENT,
    License: settings.License,
    TermsOfUse: settings.TermsOfUse,
  };
}
