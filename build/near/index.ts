/**
 * Step 6, after encode: the index of each data set the extension endpoints filter (branches and
 * ATMs by place, branches by sort code, products by segment), from the bytes encode produced, so
 * the Worker answers them by selecting byte ranges of the published body with no parsing per
 * request (docs/architecture.md). Its manifest entries and files are added to what write writes.
 */
import type { AnySchemaObject } from "ajv";
import {
  NEAR_FORMAT_VERSION,
  NEAR_STANDARD_PREFIX,
  nearIndexAsset,
  type NearEntry,
  type NearFilter,
  type NearIndex,
} from "../../contract/near.js";
import type { Envelope } from "../assemble/envelope.js";
import { atFileStart, type Diagnostic } from "../core/diagnostics.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { entityTag } from "../encode/variants.js";
import type { DatasetResult } from "../encode/manifest-entry.js";
import { recordFacts, type RecordFacts } from "./facts.js";
import { postcodeTable, type PostcodePoint, type PostcodeTable } from "./postcodes.js";
import { bodySlices } from "./slices.js";

/** One index as written: its manifest entry and its bytes. */
export interface BuiltNearIndex {
  readonly entry: NearEntry;
  readonly bytes: Buffer;
}

/** The filters a data set answers: places for branches and ATMs, segments for products. */
export function nearFilters(dataset: DatasetDefinition, segments: readonly string[]): NearFilter[] {
  if (!dataset.path.startsWith(NEAR_STANDARD_PREFIX)) return [];
  if (dataset.recordsKey === "ATM") return ["country", "geo-location", "postcode"];
  if (dataset.recordsKey === "Branch") return ["country", "geo-location", "postcode", "sortcode"];
  return segments.length > 0 ? ["segment"] : [];
}

/** The segment codes the data set's brand schema allows on a record, in the schema's order. */
export function schemaSegments(
  dataset: DatasetDefinition,
  schemas: ReadonlyMap<string, AnySchemaObject>,
): string[] {
  if (dataset.recordsKey === null) return [];
  const record = schemas.get(dataset.brandSchema)?.definitions?.[dataset.recordsKey];
  const segment = record?.properties?.Segment;
  const codes: unknown = segment?.items?.enum ?? segment?.enum;
  return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === "string") : [];
}

const push = (map: Record<string, number[]>, key: string, record: number) =>
  (map[key] ??= []).push(record);

/** The index of one data set, from its published bytes and the shared postcode table. */
export function nearIndex(
  result: DatasetResult,
  body: Envelope,
  facts: readonly RecordFacts[],
  postcodes: PostcodeTable,
): NearIndex {
  const { dataset, entry } = result;
  const identity = entry.variants.identity;
  const slices = bodySlices(result.encoded.identity.bytes, body, dataset.recordsKey!);
  const country: Record<string, number[]> = {};
  const town: Record<string, number[]> = {};
  const sortcode: Record<string, number[]> = {};
  const segment: Record<string, number[]> = {};
  const located: [number, number, number][] = [];
  facts.forEach((f, r) => {
    if (f.latitude !== undefined && f.longitude !== undefined) {
      located.push([f.latitude, f.longitude, r]);
    }
    if (f.country) push(country, f.country, r);
    if (f.country && f.town) push(town, `${f.country}/${f.town}`, r);
    for (const code of new Set(f.sortcodes)) push(sortcode, code, r);
    for (const code of new Set(f.segments)) push(segment, code, r);
  });
  // By latitude, so the Worker finds a radius's band of latitudes by binary search.
  located.sort((a, b) => a[0] - b[0] || a[2] - b[2]);
  return {
    formatVersion: NEAR_FORMAT_VERSION,
    dataset: dataset.id,
    body: { asset: identity.asset, etag: identity.etag, length: identity.length },
    head: slices.head,
    metaTail: slices.metaTail,
    brands: slices.brands.flat(),
    records: slices.records.flatMap(({ brand, range }) => [brand, ...range]),
    located: located.flat(),
    country,
    town,
    sortcode,
    segment,
    postcodes: dataset.recordsKey === "ATM" || dataset.recordsKey === "Branch" ? postcodes : EMPTY,
  };
}

const EMPTY: PostcodeTable = { unit: {}, sector: {}, district: {} };

/**
 * Every data set's index. The postcode table is shared: a postcode placed by an ATM places it
 * for a branch search too. A body the slices cannot rebuild is a build error at its data set.
 */
export function nearIndexes(
  results: readonly DatasetResult[],
  schemas: ReadonlyMap<string, AnySchemaObject>,
  centroids: readonly PostcodePoint[],
): { indexes: BuiltNearIndex[]; problems: Diagnostic[] } {
  const wanted = results
    .map((result) => {
      const segments = schemaSegments(result.dataset, schemas);
      return { result, segments, filters: nearFilters(result.dataset, segments) };
    })
    .filter(({ filters }) => filters.length > 0)
    .map((w) => {
      const body = JSON.parse(w.result.encoded.identity.bytes.toString("utf8")) as Envelope;
      const key = w.result.dataset.recordsKey!;
      const facts = body.data.flatMap(({ Brand }) =>
        Brand.flatMap((brand) => ((brand[key] ?? []) as unknown[]).map(recordFacts)),
      );
      return { ...w, body, facts };
    });
  const own: PostcodePoint[] = wanted.flatMap(({ facts }) =>
    facts.flatMap((f) =>
      f.postcode && f.latitude !== undefined && f.longitude !== undefined
        ? [{ unit: f.postcode, latitude: f.latitude, longitude: f.longitude }]
        : [],
    ),
  );
  const postcodes = postcodeTable(own, centroids);
  const indexes: BuiltNearIndex[] = [];
  const problems: Diagnostic[] = [];
  for (const { result, body, facts, segments, filters } of wanted) {
    let index: NearIndex;
    try {
      index = nearIndex(result, body, facts, postcodes);
    } catch (error) {
      const message = `cannot index ${result.dataset.path} for the extension endpoints: ${(error as Error).message}`;
      problems.push(atFileStart(result.dataset.contentDir, "near-index", message));
      continue;
    }
    const bytes = Buffer.from(JSON.stringify(index), "utf8");
    const asset = nearIndexAsset(result.dataset.id);
    indexes.push({
      entry: {
        dataset: result.dataset.id,
        filters,
        segments: filters.includes("segment") ? segments : [],
        index: { asset, etag: entityTag(bytes), length: bytes.length },
      },
      bytes,
    });
  }
  return { indexes, problems };
}
