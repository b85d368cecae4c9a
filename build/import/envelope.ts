/**
 * Reads a published response envelope ({meta, data: [{Brand: [...]}]}, as the build writes and
 * other publishers serve) and tells which data set it is. Pure: no files, no network.
 */
import { DATASETS, findDataset, type DatasetDefinition } from "../core/datasets.js";
import { isObject } from "../core/json-value.js";
import { ImportError } from "./errors.js";

/** A brand object of the feed, with its place in it for messages. */
interface FeedBrand {
  readonly value: Record<string, unknown>;
  /** `data/0/Brand/2`, for messages. */
  readonly where: string;
}

export interface Feed {
  readonly dataset: DatasetDefinition;
  readonly brands: readonly FeedBrand[];
  /** Records across all brands (brand objects for service metrics). */
  readonly records: number;
}

/**
 * A list as the feed holds it: the list itself, or the one object a feed converted from XML gives
 * where the list had a single item (`"Brand": {…}`, `"SMELoan": {…}`), as the list holding it.
 * Anything else is not a list.
 */
function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  return isObject(value) ? [value] : undefined;
}

/** Data sets whose brand objects carry a record list, by the list's key (Branch, ATM, PCA…). */
function datasetsByRecordsKey(): Map<string, DatasetDefinition> {
  return new Map(
    DATASETS.filter((d) => d.recordsKey !== null).map((d) => [d.recordsKey as string, d]),
  );
}

/** Ids of the data sets that cannot be told from the feed (service metrics: no record key). */
function undetectable(): string[] {
  return DATASETS.filter((d) => d.recordsKey === null).map((d) => d.id);
}

/** The data set named by `--dataset`, or an error listing the ids there are. */
export function datasetById(id: string): DatasetDefinition {
  const dataset = findDataset(id);
  if (!dataset) {
    throw new ImportError(
      `--dataset ${JSON.stringify(id)} is not a data set; use one of ${DATASETS.map((d) => d.id).join(", ")}`,
    );
  }
  return dataset;
}

/**
 * The brands of `envelope` and its data set: `wanted` when given (checked against the feed),
 * otherwise the one whose record key (Branch, ATM, PCA…) the brands carry. `input` names the feed
 * in messages.
 */
export function readFeed(
  envelope: unknown,
  input: string,
  wanted: DatasetDefinition | undefined,
): Feed {
  // Open Data API v2.2 makes `data` a list of objects each holding a Brand list; banks have also
  // served (and consumers saved) `data` as that one object, {"Brand": […]}. Both say the same, as
  // do a Brand list or a record list served as its one object (asList).
  const data = isObject(envelope) ? envelope.data : undefined;
  const items: [unknown, string][] = Array.isArray(data)
    ? data.map((item: unknown, i) => [item, `data/${i}`])
    : isObject(data) && "Brand" in data
      ? [[data, "data"]]
      : [];
  if (items.length === 0 && !Array.isArray(data)) {
    throw new ImportError(
      `${input} is not a response envelope: expected a JSON object whose "data" is a list of {"Brand": […]} objects (or one such object), as in {"meta": …, "data": [{"Brand": […]}]}`,
    );
  }
  const parts: FeedBrand[] = [];
  for (const [item, at] of items) {
    const brands = isObject(item) ? asList(item.Brand) : undefined;
    if (!brands) {
      throw new ImportError(`${input} is not a response envelope: ${at} has no "Brand" list`);
    }
    brands.forEach((brand: unknown, j) => {
      const where = `${at}/Brand/${j}`;
      if (!isObject(brand)) throw new ImportError(`${input}: ${where} is not a brand object`);
      if (typeof brand.BrandName !== "string" || brand.BrandName.trim() === "") {
        throw new ImportError(
          `${input}: ${where} has no BrandName; every brand needs one, its file is named from it`,
        );
      }
      parts.push({ value: withRecordLists(brand), where });
    });
  }
  if (parts.length === 0) throw new ImportError(`${input} has no brands: "data" holds none`);

  const dataset = wanted ?? detect(parts, input);
  const key = dataset.recordsKey;
  if (key === null) {
    const found = parts.flatMap((b) => recordKeysOf(b.value));
    if (found.length > 0) {
      throw new ImportError(
        `${input} holds ${found[0]} records, not ${dataset.id}; leave out --dataset or pass the data set of ${found[0]}`,
      );
    }
    return { dataset, brands: parts, records: parts.length };
  }
  let records = 0;
  for (const brand of parts) {
    const list = brand.value[key];
    if (!Array.isArray(list)) {
      const other = recordKeysOf(brand.value)[0];
      throw new ImportError(
        other
          ? `${input}: ${brand.where} holds ${other} records, but ${dataset.id} is made of ${key} records`
          : `${input}: ${brand.where} (${JSON.stringify(brand.value.BrandName)}) has no ${key} list`,
      );
    }
    records += list.length;
  }
  if (records === 0) throw new ImportError(`${input} has no records: every ${key} list is empty`);
  return { dataset, brands: mergeParts(parts, key, input), records };
}

/**
 * One brand per BrandName: banks have served a brand as many Brand objects with the same name
 * (one per product), which the spec's envelope allows and which say what one Brand object with
 * all their records says. The records keep the feed's order; the brand's other fields must agree.
 */
function mergeParts(parts: readonly FeedBrand[], key: string, input: string): FeedBrand[] {
  const byName = new Map<
    string,
    { value: Record<string, unknown>; where: string; count: number }
  >();
  const merged: { value: Record<string, unknown>; where: string; count: number }[] = [];
  for (const part of parts) {
    const name = part.value.BrandName as string;
    const first = byName.get(name);
    if (!first) {
      const entry = { value: { ...part.value }, where: part.where, count: 1 };
      byName.set(name, entry);
      merged.push(entry);
      continue;
    }
    for (const [field, value] of Object.entries(part.value)) {
      if (field === key) continue;
      if (!(field in first.value)) first.value[field] = value;
      else if (JSON.stringify(first.value[field]) !== JSON.stringify(value)) {
        throw new ImportError(
          `${input}: ${part.where} and ${first.where} are both brand ${JSON.stringify(name)} but give different ${field}; make them agree or give the brands different names`,
        );
      }
    }
    first.value[key] = [...(first.value[key] as unknown[]), ...(part.value[key] as unknown[])];
    first.count += 1;
  }
  return merged.map(({ value, where, count }) => ({
    value,
    where: count === 1 ? where : `${where} (and ${count - 1} more Brand objects named so)`,
  }));
}

/** `brand` with each record list the feed gave as its one object made the list holding it. */
function withRecordLists(brand: Record<string, unknown>): Record<string, unknown> {
  const known = datasetsByRecordsKey();
  const lists = Object.entries(brand).filter(([k, v]) => known.has(k) && isObject(v));
  if (lists.length === 0) return brand;
  return { ...brand, ...Object.fromEntries(lists.map(([k, v]) => [k, [v]])) };
}

function recordKeysOf(brand: Record<string, unknown>): string[] {
  const known = datasetsByRecordsKey();
  return Object.keys(brand).filter((k) => known.has(k) && Array.isArray(brand[k]));
}

function detect(brands: readonly FeedBrand[], input: string): DatasetDefinition {
  const known = datasetsByRecordsKey();
  const keys = new Set(brands.flatMap((b) => recordKeysOf(b.value)));
  if (keys.size === 1) return known.get([...keys][0]!)!;
  if (keys.size > 1) {
    throw new ImportError(
      `${input} mixes ${[...keys].join(" and ")} records; a feed is one data set`,
    );
  }
  throw new ImportError(
    `cannot tell the data set of ${input}: its brands have no ${[...known.keys()].join(", ")} list. ` +
      `Service metrics feeds look alike, so name it: --dataset ${undetectable().join(" or --dataset ")}`,
  );
}
