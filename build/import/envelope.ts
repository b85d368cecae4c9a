/**
 * Reads a published response envelope ({meta, data: [{Brand: [...]}]}, as the build writes and
 * other publishers serve) and tells which data set it is. Pure: no files, no network.
 */
import { DATASETS, findDataset, type DatasetDefinition } from "../core/datasets.js";
import { isObject } from "../core/json-value.js";
import { ImportError } from "./errors.js";

/** A brand object of the feed, with its place in it for messages. */
export interface FeedBrand {
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
  if (!isObject(envelope) || !Array.isArray(envelope.data)) {
    throw new ImportError(
      `${input} is not a response envelope: expected a JSON object with a "data" list ({"meta": …, "data": [{"Brand": […]}]})`,
    );
  }
  const brands: FeedBrand[] = [];
  envelope.data.forEach((item: unknown, i) => {
    if (!isObject(item) || !Array.isArray(item.Brand)) {
      throw new ImportError(`${input} is not a response envelope: data/${i} has no "Brand" list`);
    }
    item.Brand.forEach((brand: unknown, j) => {
      const where = `data/${i}/Brand/${j}`;
      if (!isObject(brand)) throw new ImportError(`${input}: ${where} is not a brand object`);
      if (typeof brand.BrandName !== "string" || brand.BrandName.trim() === "") {
        throw new ImportError(
          `${input}: ${where} has no BrandName; every brand needs one, its file is named from it`,
        );
      }
      brands.push({ value: brand, where });
    });
  });
  if (brands.length === 0) throw new ImportError(`${input} has no brands: "data" holds none`);

  const dataset = wanted ?? detect(brands, input);
  const key = dataset.recordsKey;
  if (key === null) {
    const found = brands.flatMap((b) => recordKeysOf(b.value));
    if (found.length > 0) {
      throw new ImportError(
        `${input} holds ${found[0]} records, not ${dataset.id}; leave out --dataset or pass the data set of ${found[0]}`,
      );
    }
    return { dataset, brands, records: brands.length };
  }
  let records = 0;
  for (const brand of brands) {
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
  return { dataset, brands, records };
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
