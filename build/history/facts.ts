/**
 * What the history keeps of a past file: per record, its Identification, the hash of the JSON text
 * it is published as, and its label for the feed; the brand's own fields. Worked out once per git
 * blob (a file's text never changes under its hash) and kept by the blob's hash
 * (history/store.ts), so a version is known by its files' facts: what changed since it, its Data
 * digest, the publications between versions, all without parsing it again or rebuilding its body.
 */
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { codeHash } from "../core/code-fingerprint.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { isObject } from "../core/json-value.js";
import { envelopeMeta, recordParts } from "../assemble/envelope.js";
import { recordText } from "../encode/body.js";
import { parseYaml } from "../read/yaml-source.js";
import type { SiteSettings } from "../read/site.js";
import { brandShell, metaText, recordHash, type DataParts } from "../encode/data-digest.js";
import { labelOfValue, type BrandRecords, type PublishedRecord } from "./records.js";

/** One brand file's facts, or part of a brand's when the brand is a folder of files. */
export interface PastFileFacts {
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
    const json = recordText(value)!;
    const record = { id: brandName, hash: recordHash(json), label: brandName };
    return {
      facts: { brandName, shell: "", records: [record] },
      joined: Buffer.from(json, "utf8"),
    };
  }
  const list = value[recordsKey];
  if (!Array.isArray(list)) return NOTHING;
  const records: PublishedRecord[] = [];
  const texts: string[] = [];
  for (const record of list) {
    if (!isObject(record) || typeof record.Identification !== "string") return NOTHING;
    const json = recordText(record)!;
    texts.push(json);
    records.push({
      id: record.Identification,
      hash: recordHash(json),
      label: labelOfValue(record),
    });
  }
  const joined = Buffer.from(texts.join(","), "utf8");
  return { facts: { brandName, shell: brandShell(value, recordsKey), records }, joined };
}

/**
 * A file read: its facts, and its records' JSON texts in order joined by commas, in UTF-8, as a
 * body lists them (in the service metrics, the brand whole): what a past body's bytes are written
 * from (history/version.ts), held by the build that read it, one buffer a file, so a thread hands
 * it over as one copy of bytes, not thousands of strings. Both undefined when the file does not
 * parse or could not have been published.
 */
export interface ReadFile {
  readonly facts: PastFileFacts | undefined;
  readonly joined: Uint8Array | undefined;
}

const NOTHING: ReadFile = { facts: undefined, joined: undefined };

/** One file to read: its text, and what it is: site.yaml, or a file of a data set's records. */
export interface FileTask {
  readonly text: string;
  readonly name: string;
  /** "site" for site.yaml; else the data set's records key (null: the service metrics). */
  readonly kind: { readonly recordsKey: string | null } | "site";
}

/** What a file read gives: a brand file's ReadFile, or site.yaml's settings. */
export type FileReply = ReadFile | { readonly settings: SiteSettings | undefined };

/**
 * A file's text to what the history keeps of it, parsed as build/read/ parses it: on the build's
 * thread or a worker thread (thread.ts).
 */
export function readFileTask(task: FileTask): FileReply {
  const source = parseYaml(task.name, task.text);
  const value = source.diagnostics.length === 0 ? source.value : undefined;
  if (task.kind === "site")
    return { settings: value === undefined ? undefined : siteSettings(value) };
  return value === undefined ? NOTHING : fileFacts(task.kind.recordsKey, value);
}

// The settings a body's meta takes from site.yaml, when the file gives them.
function siteSettings(value: unknown): SiteSettings | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.License !== "string" || typeof value.TermsOfUse !== "string") return undefined;
  return value as unknown as SiteSettings;
}

/** A past version as its files' facts: its Data in parts, and its records brand by brand. */
export interface VersionFacts {
  readonly data: DataParts;
  readonly records: readonly BrandRecords[];
}

/**
 * A version from its brands' files' facts (each brand's files in join order, as build/read/ groups
 * them) and its site.yaml's settings: joined by the build's rule (assemble/envelope.ts,
 * recordParts: the first file's fields, every file's records; in the service metrics the first
 * file is the brand),
 * its meta as envelope() writes it. Undefined when a brand's first file has no BrandName.
 */
export function versionFacts(
  dataset: DatasetDefinition,
  brands: readonly (readonly PastFileFacts[])[],
  settings: SiteSettings,
  /** Each brand's files' blob hashes, joined: what it is made from (BrandRecords.source). */
  sources?: readonly string[],
): VersionFacts | undefined {
  const records: BrandRecords[] = [];
  const shells: string[] = [];
  for (const [i, files] of brands.entries()) {
    const first = files[0];
    if (first?.brandName === undefined) return undefined;
    const joined = recordParts(dataset, files);
    const source = sources?.[i];
    records.push({
      name: first.brandName,
      records: joined.flatMap((f) => f.records),
      ...(source === undefined ? {} : { source }),
    });
    shells.push(first.shell);
  }
  const count = records.reduce((n, b) => n + b.records.length, 0);
  const meta = envelopeMeta(count, settings, "");
  return {
    data: {
      meta: metaText(meta),
      brands: records.map((brand, i) => ({ shell: shells[i]!, records: brand.records })),
    },
    records,
  };
}

// This module's extension: .js compiled, .ts under vitest.
const OWN = extname(fileURLToPath(import.meta.url));

/**
 * What the history keeps of past files by their git objects (their facts here, their bodies'
 * ETags in dataset.ts) is keyed by the code that makes it: this module, which parses a past file
 * and hashes its records, and encode/body.ts, which writes a past body's bytes, with all they
 * import. A change to how a record is published changes it, and the history is made again.
 */
export function pastForm(): string {
  return codeHash([
    new URL(`./facts${OWN}`, import.meta.url),
    new URL(`../encode/body${OWN}`, import.meta.url),
  ]);
}
