/**
 * One past version of a data set, rebuilt from git as the build of today would publish it: its
 * files at that commit, grouped into brands as build/read/ groups them, parsed as build/read/
 * parses them, joined and wrapped as build/assemble/ does, serialised as build/encode/ does.
 * Nothing is checked again: the build of then checked it (docs/decisions.md#what-a-past-version-is).
 */
import type { DatasetDefinition } from "../core/datasets.js";
import { toRfc3339 } from "../core/dates.js";
import { contentTreeOf, isContentPath, SITE_FILE } from "../read/content.js";
import type { Site } from "../read/site.js";
import { envelope, joinBrand, type Brand } from "../assemble/envelope.js";
import { serialize } from "../encode/variants.js";
import {
  wholeBrand,
  type BrandRecords,
  type PublishedRecord,
  type VersionRecords,
} from "./records.js";
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
  readonly site: string | undefined;
}

/** What a version's bytes depend on besides the code: its content's hashes and its date. */
export function versionKey(ref: VersionRef): string {
  return `${ref.folder ?? "-"}:${ref.site ?? "-"}:${ref.seconds}`;
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
  readonly site: string;
}

// Where a version's files seem to be, for the grouping (never read from disk).
const VIRTUAL_ROOT = "/version";

/** The blobs of each brand, grouped as the build groups files; undefined if it could not build. */
async function layout(
  store: HistoryStore,
  dataset: DatasetDefinition,
  ref: VersionRef,
): Promise<Layout | undefined> {
  if (ref.site === undefined) return undefined; // no site.yaml: that build failed
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
    site: ref.site,
  };
}

/** One parsed brand file or part: its BrandName (when it has one) and its records. */
interface Part {
  readonly brandName: unknown;
  readonly records: readonly PublishedRecord[];
}

/**
 * A version's content, read through `store`, with the records of each of its files worked out
 * once per build (files are shared by many versions).
 */
export class VersionReader {
  private readonly parts = new Map<string, Part | undefined>();

  constructor(
    private readonly store: HistoryStore,
    private readonly dataset: DatasetDefinition,
    /** Only these brands (a site's: docs/decisions.md#sites); undefined: every brand. */
    private readonly brands?: ReadonlySet<string>,
  ) {}

  /** The version's records, or undefined when its content could not have been published. */
  async records(ref: VersionRef): Promise<VersionRecords | undefined> {
    const found = await layout(this.store, this.dataset, ref);
    if (!found) return undefined;
    const blobs = found.brands.flat();
    const parsed = await this.store.parsed([...blobs, found.site]);
    if (site(parsed.get(found.site)) === undefined) return undefined;
    const brands: BrandRecords[] = [];
    for (const files of found.brands) {
      const parts = files.map((blob) => this.part(blob, parsed.get(blob)));
      if (parts.some((p) => p === undefined) || typeof parts[0]!.brandName !== "string") {
        return undefined;
      }
      // joinBrand: the first file's BrandName, every file's records in join order (in the
      // service metrics, the first file is the brand).
      const joined = this.dataset.recordsKey === null ? parts.slice(0, 1) : parts;
      if (this.brands && !this.brands.has(parts[0]!.brandName)) continue;
      brands.push({ name: parts[0]!.brandName, records: joined.flatMap((p) => p!.records) });
    }
    return brands;
  }

  private part(blob: string, json: string | undefined): Part | undefined {
    if (this.parts.has(blob)) return this.parts.get(blob);
    let part: Part | undefined;
    const value = json === undefined ? undefined : (JSON.parse(json) as unknown);
    const key = this.dataset.recordsKey;
    const list = isObject(value) && key !== null ? value[key] : undefined;
    if (key === null) {
      // The service metrics: the brand object is the record.
      if (isObject(value) && typeof value.BrandName === "string") {
        part = { brandName: value.BrandName, records: wholeBrand(value).records };
      }
    } else if (
      isObject(value) &&
      Array.isArray(list) &&
      list.every((r) => isObject(r) && typeof r.Identification === "string")
    ) {
      part = {
        brandName: value.BrandName,
        records: (list as Record<string, unknown>[]).map((record) => ({
          id: record.Identification as string,
          json: JSON.stringify(record),
        })),
      };
    }
    this.parts.set(blob, part);
    return part;
  }

  /**
   * The version's published body, exactly as today's build would serialise it at that commit
   * (its LastUpdated, its site.yaml's meta), or undefined when it could not have been published.
   */
  async body(ref: VersionRef): Promise<Buffer | undefined> {
    const found = await layout(this.store, this.dataset, ref);
    if (!found) return undefined;
    const parsed = await this.store.parsed([...found.brands.flat(), found.site]);
    const settings = site(parsed.get(found.site));
    if (!settings) return undefined;
    const brands: Brand[] = [];
    for (const files of found.brands) {
      const values = files.map((blob) => parsed.get(blob));
      if (values.some((v) => v === undefined)) return undefined;
      const brand = joinBrand(
        this.dataset,
        values.map((json) => JSON.parse(json!) as unknown),
      );
      if (!this.brands || this.brands.has(brand.BrandName as string)) brands.push(brand);
    }
    this.store.counts.rebuilt++;
    return serialize(envelope(this.dataset, brands, settings, toRfc3339(ref.seconds)));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// The settings a body's meta takes from site.yaml, when the file gives them.
function site(json: string | undefined): Site | undefined {
  const value = json === undefined ? undefined : (JSON.parse(json) as unknown);
  if (!isObject(value)) return undefined;
  if (typeof value.License !== "string" || typeof value.TermsOfUse !== "string") return undefined;
  return value as unknown as Site;
}
