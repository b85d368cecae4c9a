/**
 * Compares two builds of the content record by record. Pure: it sees only the published bodies.
 *
 * A record is identified by its brand plus Identification (plus SequenceNumber for branches); for
 * service metrics, where the brand object is the record, by the brand. Within a changed record,
 * every differing value is reported at a path a reviewer can read: list items are named by a
 * natural key where the items have one (a day by its Name, a contact by its ContactType), else by
 * position; opening periods read as "opening" and "closing".
 */
import { isDeepStrictEqual } from "node:util";
import type { DatasetDefinition } from "../core/datasets.js";
import { isObject, type JsonObject } from "../core/json-value.js";
import type { Envelope } from "../assemble/envelope.js";

/** One step of a path: a field name, a list item's key or position, or a plain word. */
export interface Segment {
  readonly kind: "field" | "key" | "index" | "word";
  readonly text: string;
}

/** One difference inside a record, at a path a reviewer can read. */
export type FieldChange =
  | {
      readonly kind: "changed";
      readonly path: readonly Segment[];
      readonly before: unknown;
      readonly after: unknown;
    }
  | { readonly kind: "added"; readonly path: readonly Segment[]; readonly after: unknown }
  | { readonly kind: "removed"; readonly path: readonly Segment[]; readonly before: unknown }
  | {
      /** A list of plain values (codes, lines of text) that gained or lost items. */
      readonly kind: "items";
      readonly path: readonly Segment[];
      readonly added: readonly unknown[];
      readonly removed: readonly unknown[];
    };

/** A record as the summary names it. */
export interface RecordRef {
  /** Identity: brand plus identifying fields, as JSON. */
  readonly key: string;
  /** How a reader names it: "Branch 1042 (Acme Bank)". */
  readonly label: string;
  /** The record's Name, when it has one (shown for added and removed records). */
  readonly name: string | undefined;
}

/** A record on both sides whose values differ, with every difference. */
export interface ChangedRecord {
  readonly record: RecordRef;
  readonly changes: readonly FieldChange[];
}

/** What changed in one data set between two builds. */
export interface DatasetDiff {
  readonly dataset: DatasetDefinition;
  /** meta.TotalResults before and after; undefined where that side published nothing. */
  readonly before: number | undefined;
  readonly after: number | undefined;
  readonly added: readonly RecordRef[];
  readonly removed: readonly RecordRef[];
  readonly changed: readonly ChangedRecord[];
}

/**
 * Fields that name a list item, in order of preference. A field is used for a list only when
 * every item on both sides has it as text and no two items of one side share it.
 */
const NATURAL_KEYS: readonly string[] = [
  "Name",
  "Identification",
  "ContactType",
  "MatterType",
  "MatterMethodType",
  "ActionType",
  "ActionMethodType",
  "ExecutionChannelType",
  "IncidentMetricsType",
  "OpeningAccountTimelineType",
  "CardReplacementTimeline",
  "AccountOpeningChannelType",
  "TimelineMetricsType",
  "Type",
];

/** Fields of an opening period, and how they read. */
const PERIOD_WORDS: Readonly<Record<string, string>> = {
  OpeningTime: "opening",
  ClosingTime: "closing",
};

/** The records of one data set added, removed and changed from `before` to `after`. */
export function diffDataset(
  dataset: DatasetDefinition,
  before: Envelope | undefined,
  after: Envelope | undefined,
): DatasetDiff {
  const old = recordsOf(dataset, before);
  const now = recordsOf(dataset, after);
  const added: RecordRef[] = [];
  const changed: ChangedRecord[] = [];
  for (const [key, record] of now) {
    const previous = old.get(key);
    if (!previous) {
      added.push(record.ref);
      continue;
    }
    const changes: FieldChange[] = [];
    diffValue(previous.value, record.value, [], changes, identityFields(dataset));
    if (changes.length > 0) changed.push({ record: record.ref, changes });
  }
  const removed = [...old].filter(([key]) => !now.has(key)).map(([, r]) => r.ref);
  return {
    dataset,
    before: totalResults(before),
    after: totalResults(after),
    added,
    removed,
    changed,
  };
}

/** The publisher-wide meta fields (License, TermsOfUse) that differ between two bodies. */
export function diffSettings(
  before: Envelope | undefined,
  after: Envelope | undefined,
): FieldChange[] {
  if (!before || !after) return [];
  const changes: FieldChange[] = [];
  for (const field of ["License", "TermsOfUse"]) {
    diffValue(before.meta[field], after.meta[field], [field_(field)], changes, []);
  }
  return changes;
}

interface Keyed {
  readonly ref: RecordRef;
  readonly value: unknown;
}

function recordsOf(dataset: DatasetDefinition, body: Envelope | undefined): Map<string, Keyed> {
  const records = new Map<string, Keyed>();
  for (const item of body?.data ?? []) {
    for (const brand of item.Brand) {
      const brandName = String(brand.BrandName);
      if (dataset.recordsKey === null) {
        records.set(JSON.stringify([brandName]), {
          ref: { key: JSON.stringify([brandName]), label: brandName, name: undefined },
          value: brand,
        });
        continue;
      }
      for (const record of (brand[dataset.recordsKey] as JsonObject[] | undefined) ?? []) {
        const ids = dataset.identity.map((field) => String(record[field]));
        const key = JSON.stringify([brandName, ...ids]);
        const sequence = dataset.identity.includes("SequenceNumber")
          ? String(record.SequenceNumber)
          : "0";
        const label =
          `${dataset.recordNoun} ${String(record.Identification)}` +
          (sequence === "0" ? "" : `, sequence ${sequence}`) +
          ` (${brandName})`;
        const name = typeof record.Name === "string" ? record.Name : undefined;
        records.set(key, { ref: { key, label, name }, value: record });
      }
    }
  }
  return records;
}

/** Fields left out of a record's comparison: they are its identity, equal by definition. */
function identityFields(dataset: DatasetDefinition): readonly string[] {
  return dataset.recordsKey === null ? ["BrandName"] : dataset.identity;
}

function totalResults(body: Envelope | undefined): number | undefined {
  const total = body?.meta.TotalResults;
  return typeof total === "number" ? total : undefined;
}

function diffValue(
  before: unknown,
  after: unknown,
  path: readonly Segment[],
  out: FieldChange[],
  skip: readonly string[],
): void {
  if (isObject(before) && isObject(after)) {
    const keys = [...Object.keys(before), ...Object.keys(after).filter((k) => !(k in before))];
    for (const key of keys) {
      if (skip.includes(key)) continue;
      const segment = PERIOD_WORDS[key] && isPeriod(before) ? word(PERIOD_WORDS[key]) : field_(key);
      const next = [...path, segment];
      if (!(key in after)) out.push({ kind: "removed", path: next, before: before[key] });
      else if (!(key in before)) out.push({ kind: "added", path: next, after: after[key] });
      else diffValue(before[key], after[key], next, out, []);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    diffList(before, after, path, out);
    return;
  }
  if (!sameValue(before, after)) out.push({ kind: "changed", path, before, after });
}

function diffList(
  before: readonly unknown[],
  after: readonly unknown[],
  path: readonly Segment[],
  out: FieldChange[],
): void {
  if (sameValue(before, after)) return;
  if ([...before, ...after].every(isScalar)) {
    const removed = before.filter((v) => !after.some((w) => sameValue(v, w)));
    const added = after.filter((v) => !before.some((w) => sameValue(v, w)));
    // Same items in another order, or repeated items: show the whole list.
    if (added.length === 0 && removed.length === 0) {
      out.push({ kind: "changed", path, before, after });
    } else {
      out.push({ kind: "items", path, added, removed });
    }
    return;
  }
  if ([...before, ...after].every(isPeriod)) {
    // Opening periods read as the day's hours: "Day/Saturday closing", "Day/Monday period 2 opening".
    const day =
      path.length > 0 && path[path.length - 1]!.kind === "field" ? path.slice(0, -1) : path;
    if (before.length !== after.length) {
      out.push({ kind: "changed", path: [...day, word("hours")], before, after });
      return;
    }
    before.forEach((period, i) => {
      const next = before.length === 1 ? day : [...day, word(`period ${i + 1}`)];
      diffValue(period, after[i], next, out, []);
    });
    return;
  }
  const key = naturalKey(before, after);
  if (key) {
    const byKey = (items: readonly unknown[]) =>
      new Map(items.map((item) => [String((item as JsonObject)[key]), item]));
    const old = byKey(before);
    const now = byKey(after);
    for (const [name, item] of now) {
      const next = [...path, { kind: "key" as const, text: name }];
      if (!old.has(name)) out.push({ kind: "added", path: next, after: item });
      else diffValue(old.get(name), item, next, out, [key]);
    }
    for (const [name, item] of old) {
      if (!now.has(name)) {
        out.push({ kind: "removed", path: [...path, { kind: "key", text: name }], before: item });
      }
    }
    return;
  }
  const common = Math.min(before.length, after.length);
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const next = [...path, { kind: "index" as const, text: `#${i + 1}` }];
    if (i < common) diffValue(before[i], after[i], next, out, []);
    else if (i < after.length) out.push({ kind: "added", path: next, after: after[i] });
    else out.push({ kind: "removed", path: next, before: before[i] });
  }
}

/** The first natural key field that names every item of both lists uniquely, if any. */
function naturalKey(before: readonly unknown[], after: readonly unknown[]): string | undefined {
  const names = (items: readonly unknown[], key: string) =>
    items.map((item) => (isObject(item) ? item[key] : undefined));
  return NATURAL_KEYS.find((key) =>
    [before, after].every((items) => {
      const values = names(items, key);
      return values.every((v) => typeof v === "string") && new Set(values).size === values.length;
    }),
  );
}

/** An opening period: an object of OpeningTime and ClosingTime only. */
export function isPeriod(value: unknown): value is JsonObject {
  return (
    isObject(value) &&
    Object.keys(value).length > 0 &&
    Object.keys(value).every((k) => Object.hasOwn(PERIOD_WORDS, k))
  );
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

function field_(text: string): Segment {
  return { kind: "field", text };
}

function word(text: string): Segment {
  return { kind: "word", text };
}
