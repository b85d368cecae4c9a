/**
 * What an import writes, decided before anything is written: per brand, its file name (from
 * BrandName) or, with a split field, its folder and one file per distinct value (named from the
 * value). Pure: no files, no clock.
 */
import type { DatasetDefinition } from "../core/datasets.js";
import type { Feed } from "./envelope.js";
import { ImportError } from "./errors.js";
import { slugify } from "./slug.js";

/** File extension of written content. */
const YAML_EXTENSION = ".yaml";
/** File (in a split brand's folder) for the records that lack the split field: `_no-<field>`. */
const MISSING_VALUE_PREFIX = "_no-";

interface PlannedFile {
  /** Path under the data set's content folder, `/`-separated. */
  readonly path: string;
  /** The brand object (or the part of it) to write, keys in the feed's order. */
  readonly value: Record<string, unknown>;
  /** Which records the file holds, for its header comment; undefined for a whole brand. */
  readonly note: string | undefined;
  readonly records: number;
}

export interface PlannedBrand {
  readonly brandName: string;
  /** File or folder name under the data set's folder, without extension. */
  readonly slug: string;
  /** true: a brand folder of `files`; false: one brand file. */
  readonly folder: boolean;
  readonly files: readonly PlannedFile[];
  readonly records: number;
}

/** The field path of `--split-by`, e.g. `Location.PostalAddress.TownName`, as its segments. */
export function parseFieldPath(text: string): string[] {
  const segments = text.split(".");
  if (segments.some((s) => s.trim() === "")) {
    throw new ImportError(
      `--split-by ${JSON.stringify(text)} is not a field path; write the field names inside one record joined by dots, e.g. Location.PostalAddress.TownName`,
    );
  }
  return segments;
}

/** Every brand of `feed` as files; refuses brands whose names give the same file name. */
export function planImport(
  feed: Feed,
  input: string,
  splitBy: readonly string[] | undefined,
): PlannedBrand[] {
  const { dataset } = feed;
  if (splitBy && dataset.recordsKey === null) {
    throw new ImportError(
      `--split-by works on a list of records; a ${dataset.id} brand is one object, written as one file`,
    );
  }
  const bySlug = new Map<string, string>();
  return feed.brands.map(({ value, where }) => {
    const brandName = value.BrandName as string;
    const slug = slugify(brandName);
    const other = bySlug.get(slug);
    if (other !== undefined) {
      throw new ImportError(
        `${input}: the brands ${JSON.stringify(other)} and ${JSON.stringify(brandName)} (${where}) would both be written as "${slug}"; ` +
          `a data set's brands need names that differ in more than case, accents or punctuation`,
      );
    }
    bySlug.set(slug, brandName);
    const records =
      dataset.recordsKey === null ? 1 : (value[dataset.recordsKey] as unknown[]).length;
    if (!splitBy) {
      return {
        brandName,
        slug,
        folder: false,
        records,
        files: [{ path: `${slug}${YAML_EXTENSION}`, value, note: undefined, records }],
      };
    }
    return {
      brandName,
      slug,
      folder: true,
      records,
      files: splitBrand(dataset, value, slug, splitBy, `${input}: ${where}`),
    };
  });
}

/** One file per distinct value of the split field, in the order values first appear. */
function splitBrand(
  dataset: DatasetDefinition,
  brand: Record<string, unknown>,
  slug: string,
  path: readonly string[],
  where: string,
): PlannedFile[] {
  const key = dataset.recordsKey!;
  const field = path.join(".");
  const groups = new Map<string | undefined, unknown[]>();
  (brand[key] as unknown[]).forEach((record, index) => {
    const found = valueAt(record, path);
    if (found !== undefined && typeof found !== "string") {
      throw new ImportError(
        `${where}/${key}/${index}: ${field} is ${Array.isArray(found) ? "a list" : "a group of fields"}, not one value; split by a field that holds text`,
      );
    }
    const group = groups.get(found) ?? [];
    group.push(record);
    groups.set(found, group);
  });
  // Two values with the same name ("St. Ives", "St Ives") get -2, -3… in order of appearance.
  const used = new Set<string>();
  const files: PlannedFile[] = [];
  for (const [value, records] of groups) {
    let name: string;
    if (value === undefined) name = `${MISSING_VALUE_PREFIX}${slugify(path[path.length - 1]!)}`;
    else {
      const base = slugify(value);
      name = base;
      for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    }
    used.add(name);
    const part = Object.fromEntries(
      Object.entries(brand).map(([k, v]) => [k, k === key ? records : v]),
    );
    files.push({
      path: `${slug}/${name}${YAML_EXTENSION}`,
      value: part,
      note:
        value === undefined
          ? `${key} records without ${field}`
          : `${key} records whose ${field} is ${JSON.stringify(value)}`,
      records: records.length,
    });
  }
  return files;
}

/**
 * The value at `path` inside `record`, as text; undefined when the path is missing or null. Numbers
 * and booleans count as their JSON text, so any scalar field can split.
 */
function valueAt(record: unknown, path: readonly string[]): unknown {
  let node = record;
  for (const segment of path) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  if (node === null || node === undefined) return undefined;
  if (typeof node === "number" || typeof node === "boolean") return JSON.stringify(node);
  return node;
}
