/**
 * What the history keeps of a past file: per record, its Identification, the hash of the JSON text
 * it is published as, and its label for the feed; the brand's own fields. Worked out once per git
 * blob (a file's text never changes under its hash) and kept by the blob's hash
 * (history/store.ts), so a version is known by its files' facts: what changed since it, its Data
 * digest, the publications between versions, all without parsing it again or rebuilding its body.
 */
import type { DatasetDefinition } from "../core/datasets.js";
import { isObject } from "../core/json-value.js";
import { envelope } from "../assemble/envelope.js";
import { parseYaml } from "../read/yaml-source.js";
import type { Site } from "../read/site.js";
import { brandShell, metaText, recordHash, type DataParts } from "../encode/data-digest.js";
import { labelOfValue, type BrandRecords, type PublishedRecord } from "./records.js";

/** One brand file's facts, or part of a brand's when the brand is a folder of files. */
export interface FileFacts {
  /** Its BrandName, when it is a string. */
  readonly brandName: string | undefined;
  /** brandShell of the file's value: the brand's own fields when it is the brand's first file. */
  readonly shell: string;
  /** Its records in order: Identification, hash, label (no text). */
  readonly records: readonly PublishedRecord[];
}

/**
 * The facts of one file's parsed value, or undefined when a build could not have published it (no
 * records list, a record without a string Identification; in the service metrics, no BrandName).
 * Nothing else is checked: the build of then checked it (docs/decisions.md#what-a-past-version-is).
 */
export function fileFacts(recordsKey: string | null, value: unknown): ReadFile {
  if (!isObject(value)) return NOTHING;
  const brandName = typeof value.BrandName === "string" ? value.BrandName : undefined;
  if (recordsKey === null) {
    // The service metrics: the brand object is the record, named by its BrandName.
    if (brandName === undefined) return NOTHING;
    const json = JSON.stringify(value);
    const record = { id: brandName, hash: recordHash(json), label: brandName };
    return { facts: { brandName, shell: "", records: [record] }, texts: [json] };
  }
  const list = value[recordsKey];
  if (!Array.isArray(list)) return NOTHING;
  const records: PublishedRecord[] = [];
  const texts: string[] = [];
  for (const record of list) {
    if (!isObject(record) || typeof record.Identification !== "string") return NOTHING;
    const json = JSON.stringify(record);
    texts.push(json);
    records.push({
      id: record.Identification,
      hash: recordHash(json),
      label: labelOfValue(record),
    });
  }
  return { facts: { brandName, shell: brandShell(value, recordsKey), records }, texts };
}

/**
 * A file read: its facts, and each record's JSON text in order (for a past body's bytes, held by
 * the build that read it); both undefined when it does not parse or could not have been published.
 */
export interface ReadFile {
  readonly facts: FileFacts | undefined;
  readonly texts: readonly string[] | undefined;
}

const NOTHING: ReadFile = { facts: undefined, texts: undefined };

/** One file to read: its text, and what it is: site.yaml, or a file of a data set's records. */
export interface FileTask {
  readonly text: string;
  readonly name: string;
  /** "site" for site.yaml; else the data set's records key (null: the service metrics). */
  readonly kind: { readonly recordsKey: string | null } | "site";
}

/** What a file read gives: a brand file's ReadFile, or site.yaml's settings. */
export type FileReply = ReadFile | { readonly site: Site | undefined };

/**
 * A file's text to what the history keeps of it, parsed as build/read/ parses it: on the build's
 * thread or a worker thread (thread.ts).
 */
export function readFileTask(task: FileTask): FileReply {
  const source = parseYaml(task.name, task.text);
  const value = source.diagnostics.length === 0 ? source.value : undefined;
  if (task.kind === "site") return { site: value === undefined ? undefined : siteSettings(value) };
  return value === undefined ? NOTHING : fileFacts(task.kind.recordsKey, value);
}

// The settings a body's meta takes from site.yaml, when the file gives them.
function siteSettings(value: unknown): Site | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.License !== "string" || typeof value.TermsOfUse !== "string") return undefined;
  return value as unknown as Site;
}

/** A past version as its files' facts: its Data in parts, and its records brand by brand. */
export interface VersionFacts {
  readonly data: DataParts;
  readonly records: readonly BrandRecords[];
}

/**
 * A version from its brands' files' facts (each brand's files in join order, as build/read/ groups
 * them) and its site.yaml's settings: joined as assemble/envelope.ts's joinBrand joins them (the
 * first file's fields, every file's records; in the service metrics the first file is the brand),
 * its meta as envelope() writes it. Undefined when a brand's first file has no BrandName.
 */
export function versionFacts(
  dataset: DatasetDefinition,
  brands: readonly (readonly FileFacts[])[],
  site: Site,
): VersionFacts | undefined {
  const records: BrandRecords[] = [];
  const shells: string[] = [];
  for (const files of brands) {
    const first = files[0];
    if (first?.brandName === undefined) return undefined;
    const joined = dataset.recordsKey === null ? [first] : files;
    records.push({ name: first.brandName, records: joined.flatMap((f) => f.records) });
    shells.push(first.shell);
  }
  const count = records.reduce((n, b) => n + b.records.length, 0);
  const meta = { ...envelope(dataset, [], site, "").meta, TotalResults: count };
  return {
    data: {
      meta: metaText(meta),
      brands: records.map((brand, i) => ({ shell: shells[i]!, records: brand.records })),
    },
    records,
  };
}

/** One brand of a past version as its bytes are made: its shell, its records' texts in order. */
export interface BrandTexts {
  readonly shell: string;
  readonly texts: readonly string[];
}

/**
 * A past version's body, exactly the bytes today's build would publish for it (what
 * `serialize(envelope(...))` of its joined brands gives: encode/body.ts writes a body the same way,
 * piece by piece), made from its brands' shells and records' texts without parsing anything
 * again. Undefined when a shell is not one the pieces can be cut from.
 */
export function versionBytes(
  dataset: DatasetDefinition,
  brands: readonly BrandTexts[],
  site: Site,
  lastUpdated: string,
): Buffer | undefined {
  const key = dataset.recordsKey;
  const count = key === null ? brands.length : brands.reduce((n, b) => n + b.texts.length, 0);
  const meta = { ...envelope(dataset, [], site, lastUpdated).meta, TotalResults: count };
  const pieces: string[] = [`{"meta":${JSON.stringify(meta)},"data":`];
  if (brands.length === 0) pieces.push("[]");
  else {
    pieces.push(`[{"Brand":[`);
    // The list's place in the brand's text: the one place its key is written with an empty list.
    const marker = key === null ? "" : `${JSON.stringify(key)}:[`;
    for (const [i, brand] of brands.entries()) {
      if (i > 0) pieces.push(",");
      if (key === null) {
        pieces.push(brand.texts[0]!);
        continue;
      }
      const cut = brand.shell.indexOf(`${marker}]`);
      if (cut < 0 || cut !== brand.shell.lastIndexOf(`${marker}]`)) return undefined;
      const end = cut + marker.length;
      pieces.push(brand.shell.slice(0, end), brand.texts.join(","), brand.shell.slice(end));
    }
    pieces.push("]}]");
  }
  pieces.push("}");
  return Buffer.from(pieces.join(""), "utf8");
}
