/**
 * What a change answer is made of, as pure functions: a version's records brand by brand, the
 * changes from one version to another (each record added or changed, whole, and the
 * Identifications removed), and the answer's exact bytes. A record is its Identification and the
 * hash of its JSON text exactly as the full list publishes it, so "changed" means "its bytes
 * changed"; the text itself is held only for the current version, whose records an answer lists.
 */
import type { DatasetDefinition } from "../core/datasets.js";
import type { Envelope } from "../assemble/envelope.js";
import { createHash } from "node:crypto";
import { recordText, type BodySlices } from "../encode/body.js";
import { recordHash } from "../encode/data-digest.js";
import { REMOVED_FIELD, SINCE_FIELD } from "../../contract/changes.js";

/**
 * One record as published: its Identification, the hash of its exact JSON text in the full list
 * (encode/data-digest.ts), and either that text (the current version's records, which answers
 * list) or only its label (a past version's, which the feed may name: see recordLabel).
 */
export interface PublishedRecord {
  readonly id: string;
  readonly hash: string;
  readonly json?: string;
  readonly label?: string;
}

/** A record as the current version publishes it: its text and that text's hash. */
export function publishedRecord(id: string, json: string): PublishedRecord {
  return { id, hash: recordHash(json), json };
}

/** How the feed names a record, from its label, or its text when only that is held. */
export function labelOf(record: PublishedRecord): string {
  return record.label ?? recordLabel(record.json!);
}

/** One brand of a version: its BrandName and its records in publication order. */
export interface BrandRecords {
  readonly name: string;
  readonly records: readonly PublishedRecord[];
  /**
   * What a past version's brand is made from, when known: its files' blob hashes in join order
   * (history/version.ts). Two sites that publish the brand (its own and the group's) have the
   * same source for it, and so the same changes since it (changesFrom's memo).
   */
  readonly source?: string;
}

/** A version's records, brand by brand, in publication order. */
export type VersionRecords = readonly BrandRecords[];

/** What changed in one brand. */
export interface BrandChange {
  readonly name: string;
  /** The records of the newer version whose Identification is new or whose records changed. */
  readonly listed: readonly PublishedRecord[];
  /** How many of `listed` have an Identification the older version did not have. */
  readonly added: number;
  /** Identifications the older version had and the newer one has not. */
  readonly removed: readonly string[];
}

/**
 * The records of a published body (compact JSON, as build/encode/ writes it): each brand's
 * records with their Identification and their exact text. `JSON.stringify` of a record parsed from
 * that text gives the text back, so the text is the published bytes.
 */
export function bodyRecords(dataset: DatasetDefinition, body: Uint8Array | string): VersionRecords {
  const parsed = JSON.parse(
    typeof body === "string" ? body : Buffer.from(body).toString("utf8"),
  ) as { data: { Brand: Record<string, unknown>[] }[] };
  const brands = parsed.data.flatMap((d) => d.Brand);
  return brands.map((brand) => brandRecords(dataset, brand));
}

/**
 * The same as bodyRecords, from the body's value and where each record is in its bytes (as the
 * serialiser wrote them, encode/body.ts), without parsing or serialising it again.
 */
export function slicedRecords(
  dataset: DatasetDefinition,
  body: Envelope,
  bytes: Buffer,
  slices: BodySlices,
  hashes?: readonly string[],
): VersionRecords {
  if (dataset.recordsKey === null) return bodyRecords(dataset, bytes);
  const brands = body.data.flatMap((d) => d.Brand);
  const records: PublishedRecord[][] = brands.map(() => []);
  let at = 0;
  brands.forEach((brand, b) => {
    for (const record of (brand[dataset.recordsKey!] ?? []) as Record<string, unknown>[]) {
      const { range } = slices.records[at]!;
      const json = bytes.toString("utf8", range[0], range[1]);
      const id = String(record.Identification);
      const hash = hashes?.[at];
      records[b]!.push(hash === undefined ? publishedRecord(id, json) : { id, hash, json });
      at++;
    }
  });
  return brands.map((brand, b) => ({ name: String(brand.BrandName), records: records[b]! }));
}

/**
 * A brand object's records (its BrandName and its `dataset.recordsKey` list). In the service
 * metrics (no records key) the brand object is the one record, identified by its BrandName.
 */
function brandRecords(
  dataset: DatasetDefinition,
  brand: Readonly<Record<string, unknown>>,
): BrandRecords {
  if (dataset.recordsKey === null) return wholeBrand(brand);
  const list = (brand[dataset.recordsKey] ?? []) as Record<string, unknown>[];
  return {
    name: String(brand.BrandName),
    records: list.map((record) =>
      publishedRecord(String(record.Identification), recordText(record)!),
    ),
  };
}

/** A service metrics brand object as its one record, identified by its BrandName. */
function wholeBrand(brand: Readonly<Record<string, unknown>>): BrandRecords {
  const name = String(brand.BrandName);
  return { name, records: [publishedRecord(name, recordText(brand)!)] };
}

/**
 * Records grouped by Identification, in order of first appearance. Branches may share an
 * Identification (with another SequenceNumber): such records change, and are listed, together.
 */
function byIdentification(records: readonly PublishedRecord[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { id, hash } of records) {
    const group = groups.get(id);
    if (group) group.push(hash);
    else groups.set(id, [hash]);
  }
  return groups;
}

// A version's brands by name; two brand objects with one name are one brand (decisions.md).
export function byBrand(version: VersionRecords): Map<string, PublishedRecord[]> {
  const brands = new Map<string, PublishedRecord[]>();
  for (const { name, records } of version) {
    const list = brands.get(name);
    if (list) list.push(...records);
    else brands.set(name, [...records]);
  }
  return brands;
}

const sameGroup = (a: readonly string[] | undefined, b: readonly string[]) =>
  a !== undefined && a.length === b.length && a.every((hash, i) => hash === b[i]);

/** A version grouped for comparing: by brand, and within a brand by Identification. */
export interface VersionIndex {
  readonly brands: ReadonlyMap<string, IndexedBrand>;
}

interface IndexedBrand {
  readonly records: readonly PublishedRecord[];
  readonly groups: Map<string, string[]>;
  /** The hash of its records' Identifications and hashes, in order: what its content is. */
  readonly digest: () => string;
}

/** `version` grouped once, to be compared with many others (changesFrom). */
export function indexVersion(version: VersionRecords): VersionIndex {
  const brands = new Map<string, IndexedBrand>();
  for (const [name, records] of byBrand(version)) {
    let digest: string | undefined;
    const digestOf = () => {
      const sum = createHash("sha256");
      for (const r of records) sum.update(r.id).update("\0").update(r.hash).update("\0");
      return sum.digest("base64url");
    };
    brands.set(name, {
      records,
      groups: byIdentification(records),
      digest: () => (digest ??= digestOf()),
    });
  }
  return { brands };
}

/**
 * The changes of one brand from a past version, by what both sides are made of (the brand's
 * current records' digest, the past version's files): kept for every site that publishes the
 * brand and, in a session, from one save to the next; null where the brand did not change.
 */
export interface BrandChanges {
  get(key: string): BrandChange | null | undefined;
  set(key: string, change: BrandChange | null): void;
}

/**
 * The changes from `from` to `to` (indexed once: the current version, for every past one), brand
 * by brand: the brands of `to` first, in its order, then the brands only `from` had; only brands
 * with a change. Applying them to `from` (drop each Identification removed and each one listed,
 * then add the records listed) gives `to`'s records. Each brand's changes go through `memo`
 * where the past brand's source is known.
 */
export function changesFrom(
  from: VersionRecords,
  to: VersionIndex,
  memo?: BrandChanges,
): BrandChange[] {
  const before = byBrand(from);
  const sources = memo && sourcesOf(from);
  const changes: BrandChange[] = [];
  for (const [name, brand] of to.brands) {
    const source = sources?.get(name);
    const key = source === undefined ? undefined : `${name}\0${brand.digest()}\0${source}`;
    const known = key === undefined ? undefined : memo!.get(key);
    const change = known !== undefined ? known : brandChange(name, before.get(name) ?? [], brand);
    if (key !== undefined && known === undefined) memo!.set(key, change);
    if (change) changes.push(change);
  }
  for (const [name, records] of before) {
    if (to.brands.has(name)) continue;
    const removed = [...byIdentification(records).keys()];
    if (removed.length > 0) changes.push({ name, listed: [], added: 0, removed });
  }
  return changes;
}

/** Each brand's source, where the version has one brand object of that name with a source. */
export function sourcesOf(version: VersionRecords): Map<string, string> {
  const sources = new Map<string, string | undefined>();
  for (const { name, source } of version) sources.set(name, sources.has(name) ? undefined : source);
  return new Map([...sources].filter((entry): entry is [string, string] => entry[1] !== undefined));
}

// What changed in one brand from its past records to its current ones; null: nothing.
function brandChange(
  name: string,
  past: readonly PublishedRecord[],
  { records, groups: now }: IndexedBrand,
): BrandChange | null {
  const old = byIdentification(past);
  const listedIds = new Set<string>();
  let added = 0;
  for (const [id, group] of now) {
    if (sameGroup(old.get(id), group)) continue;
    listedIds.add(id);
    if (!old.has(id)) added += group.length;
  }
  const removed = [...old.keys()].filter((id) => !now.has(id));
  if (listedIds.size === 0 && removed.length === 0) return null;
  return { name, listed: records.filter((r) => listedIds.has(r.id)), added, removed };
}

/** meta.TotalResults of a change answer: the records listed plus the Identifications removed. */
export function changeCount(changes: readonly BrandChange[]): number {
  return changes.reduce((n, c) => n + c.listed.length + c.removed.length, 0);
}

/** The records a publication added, changed and removed, each once, in publication order. */
export interface RecordChanges {
  readonly added: readonly PublishedRecord[];
  readonly changed: readonly PublishedRecord[];
  /** From the older version. */
  readonly removed: readonly PublishedRecord[];
}

/**
 * What one brand's records `after` added, changed and removed against its records `before`.
 * Records sharing an Identification (branches with other SequenceNumbers) are matched by their
 * bytes: those found unchanged in the older group are no change; of the rest, as many as the
 * older group lost are changed, the others added (or, the older group's left over, removed). So
 * one changed record of two that share an Identification is one change, though the change answer
 * lists both (changesFrom).
 */
export function brandRecordChanges(
  before: readonly PublishedRecord[],
  after: readonly PublishedRecord[],
): RecordChanges {
  const added: PublishedRecord[] = [];
  const changed: PublishedRecord[] = [];
  const removed: PublishedRecord[] = [];
  const old = groups(before);
  const now = groups(after);
  for (const [id, group] of now) {
    const older = old.get(id);
    // Most records are one to an Identification, and most are unchanged from one day to the
    // next: compared by hash, without the matching below.
    if (group.length === 1 && older?.length === 1) {
      if (group[0]!.hash !== older[0]!.hash) changed.push(group[0]!);
      continue;
    }
    const fresh = unmatched(group, older ?? []);
    const gone = unmatched(older ?? [], group);
    const pairs = Math.min(fresh.length, gone.length);
    changed.push(...fresh.slice(0, pairs));
    added.push(...fresh.slice(pairs));
    removed.push(...gone.slice(pairs));
  }
  for (const [id, group] of old) if (!now.has(id)) removed.push(...group);
  return { added, changed, removed };
}

// Records grouped by Identification, in order of first appearance.
function groups(records: readonly PublishedRecord[]): Map<string, PublishedRecord[]> {
  const out = new Map<string, PublishedRecord[]>();
  for (const r of records) {
    const group = out.get(r.id);
    if (group) group.push(r);
    else out.set(r.id, [r]);
  }
  return out;
}

// The records of `records` not matched, hash for hash, by one of `others`.
function unmatched(
  records: readonly PublishedRecord[],
  others: readonly PublishedRecord[],
): PublishedRecord[] {
  const left = new Map<string, number>();
  for (const r of others) left.set(r.hash, (left.get(r.hash) ?? 0) + 1);
  return records.filter((r) => {
    const n = left.get(r.hash) ?? 0;
    if (n > 0) left.set(r.hash, n - 1);
    return n === 0;
  });
}

/** The meta fields of a change answer besides the counts. */
export interface AnswerMeta {
  /** The current version's meta.LastUpdated. */
  readonly lastUpdated: string;
  /** The LastUpdated of the version the changes are since. */
  readonly since: string;
  /** The current body's Agreement, License and TermsOfUse. */
  readonly agreement: unknown;
  readonly license: unknown;
  readonly termsOfUse: unknown;
}

/**
 * The exact bytes of a change answer: the data set's envelope with meta.Since after LastUpdated,
 * and under each brand with a change its records listed (as the full list has them) and its
 * `Removed` Identifications. A list with nothing in it is left out; no change at all is
 * `"data":[]`, as an empty data set is published (docs/decisions.md#envelope-shape).
 */
export function answerBytes(
  dataset: DatasetDefinition,
  meta: AnswerMeta,
  changes: readonly BrandChange[],
): Buffer {
  const head = JSON.stringify({
    LastUpdated: meta.lastUpdated,
    [SINCE_FIELD]: meta.since,
    TotalResults: changeCount(changes),
    Agreement: meta.agreement,
    License: meta.license,
    TermsOfUse: meta.termsOfUse,
  });
  const key = JSON.stringify(dataset.recordsKey);
  const brands = changes.flatMap((c) => {
    // The service metrics: each brand added or changed whole, as in the full list; a brand gone
    // as its BrandName with Removed true.
    if (dataset.recordsKey === null) {
      return c.listed.length > 0
        ? c.listed.map((r) => r.json!)
        : [`{"BrandName":${JSON.stringify(c.name)},"${REMOVED_FIELD}":true}`];
    }
    const parts = [`{"BrandName":${JSON.stringify(c.name)}`];
    if (c.listed.length > 0) parts.push(`,${key}:[${c.listed.map((r) => r.json!).join(",")}]`);
    if (c.removed.length > 0) parts.push(`,"${REMOVED_FIELD}":${JSON.stringify(c.removed)}`);
    parts.push("}");
    return parts.join("");
  });
  const data = brands.length === 0 ? "[]" : `[{"Brand":[${brands.join(",")}]}]`;
  return Buffer.from(`{"meta":${head},"data":${data}}`, "utf8");
}

/**
 * How the publication feed names a record: its Identification and where it is (a branch's or an
 * ATM's town) or what it is (a product's name).
 */
export function recordLabel(json: string): string {
  return labelOfValue(JSON.parse(json) as Record<string, unknown>);
}

/** recordLabel of a record's value, as parsed. */
export function labelOfValue(record: Readonly<Record<string, unknown>>): string {
  const object = (v: unknown) =>
    v !== null && typeof v === "object" ? (v as Record<string, unknown>) : {};
  const address = object(record.PostalAddress ?? object(record.Location).PostalAddress);
  const what = address.TownName ?? record.Name;
  const id = String(record.Identification ?? record.BrandName);
  return typeof what === "string" && what.trim() !== "" ? `${id} (${what.trim()})` : id;
}
