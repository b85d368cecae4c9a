/**
 * One past version of a data set, as the build of today would publish it: its files at that
 * commit, grouped into brands as build/read/ groups them, known by their facts (facts.ts: each
 * record's Identification and hash, joined as build/assemble/ joins them), and, only where a past
 * body's ETag is wanted, parsed as build/read/ parses them, joined and wrapped as build/assemble/
 * does and serialised as build/encode/ does. Nothing is checked again: the build of then checked
 * it (docs/decisions.md#what-a-past-version-is).
 */
import type { DatasetDefinition } from "../core/datasets.js";
import { toRfc3339 } from "../core/dates.js";
import { contentTreeOf, isContentPath, SITE_FILE } from "../read/content.js";
import type { VersionRecords } from "./records.js";
import { envelopeMeta } from "../assemble/envelope.js";
import { writeBody, type BodyParts } from "../encode/body.js";
import { versionFacts, type PastFileFacts, type VersionFacts } from "./facts.js";
import type { HistoryStore } from "./store.js";

/** A version: a commit on HEAD's first-parent line where the data set's Data changed (data-versions.ts). */
export interface VersionCommit {
  readonly commit: string;
  /** Its meta.LastUpdated, in seconds: what the build of that commit dated it. */
  readonly seconds: number;
}

/** A version with the hashes of its content, looked up only when it is read. */
export interface VersionRef extends VersionCommit {
  /** The hash of the data set's folder's tree at the commit; undefined when there is none. */
  readonly folder: string | undefined;
  /** The hash of site.yaml's blob at the commit; undefined when there is none. */
  readonly siteBlob: string | undefined;
}

/** What a version's bytes depend on besides the code: its content's hashes and its date. */
export function versionKey(ref: VersionRef): string {
  return `${ref.folder ?? "-"}:${ref.siteBlob ?? "-"}:${ref.seconds}`;
}

/**
 * The brands a site publishes (BrandName values; undefined: every brand), as parts of a cache key:
 * none for every brand, so the keys of a build without Sites are what they were.
 */
export function brandsKey(brands: ReadonlySet<string> | undefined): string[] {
  return brands === undefined ? [] : [`brands ${JSON.stringify([...brands].sort())}`];
}

/** A version's brands: each one's files as blob hashes, in join order. */
interface Layout {
  readonly brands: readonly (readonly string[])[];
  readonly siteBlob: string;
}

// Where a version's files seem to be, for the grouping (never read from disk).
const VIRTUAL_ROOT = "/version";

/** The blobs of each brand, grouped as the build groups files; undefined if it could not build. */
async function layout(
  store: HistoryStore,
  dataset: DatasetDefinition,
  ref: VersionRef,
): Promise<Layout | undefined> {
  if (ref.siteBlob === undefined) return undefined; // no site.yaml: that build failed
  const files = ref.folder ? await store.files(ref.folder) : [];
  const blobOf = new Map<string, string>();
  for (const file of files) {
    if (isContentPath(file.path)) blobOf.set(`${dataset.contentDir}/${file.path}`, file.blob);
  }
  const tree = contentTreeOf([...blobOf.keys(), SITE_FILE], VIRTUAL_ROOT, VIRTUAL_ROOT);
  if (tree.problems.length > 0) return undefined;
  const units = tree.units.get(dataset.id) ?? [];
  const rel = (path: string) => path.slice(VIRTUAL_ROOT.length + 1);
  return {
    brands: units.map((unit) => unit.files.map((f) => blobOf.get(rel(f.path))!)),
    siteBlob: ref.siteBlob,
  };
}

/**
 * A version's content, read through `store`: its facts (facts.ts) from each file's facts, kept by
 * the file's blob hash, and, only when a past body's ETag is wanted, its body.
 */
export class VersionReader {
  constructor(
    private readonly store: HistoryStore,
    private readonly dataset: DatasetDefinition,
    /** Only these brands (a site's: docs/decisions.md#sites); undefined: every brand. */
    private readonly brands?: ReadonlySet<string>,
  ) {}

  /**
   * Reads the files of many versions at once (on worker threads when there are enough), so that
   * facts() of each then finds them read.
   */
  async readAhead(refs: readonly VersionRef[]): Promise<void> {
    const found = await Promise.all(refs.map((ref) => layout(this.store, this.dataset, ref)));
    const blobs = found.flatMap((f) => f?.brands.flat() ?? []);
    const siteBlobs = [...new Set(found.flatMap((f) => (f ? [f.siteBlob] : [])))];
    await Promise.all([
      this.store.facts(this.dataset, blobs),
      ...siteBlobs.map((blob) => this.store.siteSettings(blob)),
    ]);
  }

  /** The version's facts, or undefined when its content could not have been published. */
  facts(ref: VersionRef): Promise<VersionFacts | undefined> {
    const key = [
      "facts",
      this.dataset.id,
      ref.folder ?? "-",
      ref.siteBlob ?? "-",
      ...brandsKey(this.brands),
    ].join("\0");
    return this.store.derived(key, () => this.readFacts(ref));
  }

  private async readFacts(ref: VersionRef): Promise<VersionFacts | undefined> {
    const found = await layout(this.store, this.dataset, ref);
    if (!found) return undefined;
    const [facts, settings] = await Promise.all([
      this.store.facts(this.dataset, found.brands.flat()),
      this.store.siteSettings(found.siteBlob),
    ]);
    if (!settings) return undefined;
    const brands: PastFileFacts[][] = [];
    const sources: string[] = [];
    for (const files of found.brands) {
      const parts = files.map((blob) => facts.get(blob));
      if (parts.some((p) => p === undefined)) return undefined;
      const name = parts[0]!.brandName;
      if (name === undefined) return undefined;
      // A site's version: its brands alone (docs/decisions.md#sites).
      if (this.brands && !this.brands.has(name)) continue;
      brands.push(parts as PastFileFacts[]);
      sources.push(files.join(","));
    }
    return versionFacts(this.dataset, brands, settings, sources);
  }

  /** The version's records, brand by brand, or undefined as for facts. */
  async records(ref: VersionRef): Promise<VersionRecords | undefined> {
    return (await this.facts(ref))?.records;
  }

  /**
   * The version's published body, exactly as today's build would serialise it at that commit
   * (its LastUpdated, its site.yaml's meta), or undefined when it could not have been published.
   */
  async body(ref: VersionRef): Promise<Buffer | undefined> {
    const found = await layout(this.store, this.dataset, ref);
    if (!found) return undefined;
    const blobs = found.brands.flat();
    const [facts, joined, settings] = await Promise.all([
      this.store.facts(this.dataset, blobs),
      this.store.joined(this.dataset, blobs),
      this.store.siteSettings(found.siteBlob),
    ]);
    if (!settings) return undefined;
    const key = this.dataset.recordsKey;
    const brands: BodyParts["brands"][number][] = [];
    let count = 0;
    for (const files of found.brands) {
      const first = facts.get(files[0]!);
      if (first?.brandName === undefined) return undefined;
      if (this.brands && !this.brands.has(first.brandName)) continue;
      // joinBrand: the first file's fields, every file's records (in the service metrics, the
      // first file is the brand, whole).
      const parts = (key === null ? files.slice(0, 1) : files).map((blob) => joined.get(blob));
      if (parts.some((part) => part === undefined)) return undefined;
      if (key === null) {
        brands.push({ shell: parts[0]!.toString("utf8"), records: [] });
        count++;
        continue;
      }
      // Each file's records, already joined; a file with none adds no separator.
      brands.push({
        shell: first.shell,
        records: parts.filter((part) => part!.length > 0) as Buffer[],
      });
      count += files.reduce((n, blob) => n + facts.get(blob)!.records.length, 0);
    }
    this.store.counts.rebuilt++;
    const meta = envelopeMeta(count, settings, toRfc3339(ref.seconds));
    return writeBody({ meta, brands }, key)?.bytes;
  }
}
