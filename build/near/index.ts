/**
 * Step 7, after encode: the index of each data set the extension endpoints filter (branches and
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
import { normaliseName } from "../../contract/place.js";
import type { Envelope } from "../assemble/envelope.js";
import { atFileStart, type Diagnostic } from "../core/diagnostics.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { entityTag } from "../encode/variants.js";
import type { DatasetResult } from "../encode/manifest-entry.js";
import type { BuildCache } from "../core/cache.js";
import { isOnEarth } from "../core/place.js";
import { recordFacts } from "../core/record-facts.js";
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

/** Where a brand schema lists a record's segment codes (a list's items, or one value). */
interface SegmentSchema {
  [keyword: string]: unknown;
  definitions?: Record<
    string,
    { properties?: { Segment?: { items?: { enum?: unknown }; enum?: unknown } } }
  >;
}

/** The segment codes the data set's brand schema allows on a record, in the schema's order. */
export function schemaSegments(
  dataset: DatasetDefinition,
  schemas: ReadonlyMap<string, AnySchemaObject>,
): string[] {
  if (dataset.recordsKey === null) return [];
  const brandSchema: SegmentSchema | undefined = schemas.get(dataset.brandSchema);
  const segment = brandSchema?.definitions?.[dataset.recordsKey]?.properties?.Segment;
  const codes = segment?.items?.enum ?? segment?.enum;
  return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === "string") : [];
}

const push = (map: Record<string, number[]>, key: string, record: number) =>
  (map[key] ??= []).push(record);

/** One data set's index before the shared postcode table, and its records' postcode points. */
export interface IndexPart {
  readonly index: Omit<NearIndex, "postcodes">;
  readonly own: readonly PostcodePoint[];
}

/** The part of one data set's index that depends on its published bytes alone. */
export function indexPart(result: DatasetResult): IndexPart {
  const { dataset, entry } = result;
  const key = dataset.recordsKey!;
  const bytes = result.encoded.identity.bytes;
  const body = JSON.parse(bytes.toString("utf8")) as Envelope;
  const facts = body.data.flatMap(({ Brand }) =>
    Brand.flatMap((brand) => ((brand[key] ?? []) as unknown[]).map((r) => recordFacts(r, key))),
  );
  const slices = bodySlices(bytes, body, key);
  const country: Record<string, number[]> = {};
  const town: Record<string, number[]> = {};
  const sortcode: Record<string, number[]> = {};
  const segment: Record<string, number[]> = {};
  const located: [number, number, number][] = [];
  const own: PostcodePoint[] = [];
  facts.forEach((f, r) => {
    // Coordinates out of range are no position rather than a position somewhere wrong.
    const at = f.coordinates && isOnEarth(f.coordinates) ? f.coordinates : undefined;
    if (at) {
      located.push([at.latitude, at.longitude, r]);
      const unit = f.postcodeRead?.keys.unit;
      if (unit) own.push({ unit, latitude: at.latitude, longitude: at.longitude });
    }
    // Only a code the Worker can be asked for (an assigned ISO 3166-1 code, aliases read).
    if (f.countryCode) push(country, f.countryCode, r);
    const name = f.town === undefined ? "" : normaliseName(f.town);
    if (f.countryCode && name) push(town, `${f.countryCode}/${name}`, r);
    for (const code of new Set(f.sortcodes)) push(sortcode, code, r);
    for (const code of new Set(f.segments)) push(segment, code, r);
  });
  // By latitude, so the Worker finds a radius's band of latitudes by binary search.
  located.sort((a, b) => a[0] - b[0] || a[2] - b[2]);
  const identity = entry.variants.identity;
  return {
    index: {
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
    },
    own,
  };
}

const EMPTY: PostcodeTable = { unit: {}, sector: {}, district: {} };

/** Where the pipeline keeps parts between builds, and how problems name a data set's folder. */
export interface NearOptions {
  readonly cache?: BuildCache | undefined;
  readonly shownFolder?: (dataset: DatasetDefinition) => string;
}

/**
 * Every data set's index. Each part comes from the cache when the same body was indexed by the
 * same code before (keyed by the body's ETag), so a rebuild parses only the bodies that changed.
 * The postcode table is shared: a postcode placed by an ATM places it for a branch search too. A
 * body the slices cannot rebuild is a build error at its data set.
 */
export async function nearIndexes(
  results: readonly DatasetResult[],
  schemas: ReadonlyMap<string, AnySchemaObject>,
  centroids: readonly PostcodePoint[],
  options: NearOptions = {},
): Promise<{ indexes: BuiltNearIndex[]; problems: Diagnostic[] }> {
  const { cache } = options;
  const problems: Diagnostic[] = [];
  const parts: {
    result: DatasetResult;
    part: IndexPart;
    segments: string[];
    filters: NearFilter[];
  }[] = [];
  for (const result of results) {
    const segments = schemaSegments(result.dataset, schemas);
    const filters = nearFilters(result.dataset, segments);
    if (filters.length === 0) continue;
    // A part made now is used as made; only one read back from the cache is parsed.
    let made: IndexPart | undefined;
    const make = () => Buffer.from(JSON.stringify((made = indexPart(result))), "utf8");
    const key = cache?.key("near-index", result.dataset.id, result.entry.variants.identity.etag);
    try {
      const bytes = key ? await cache!.through(key, "near", make) : make();
      parts.push({
        result,
        part: made ?? (JSON.parse(bytes.toString("utf8")) as IndexPart),
        segments,
        filters,
      });
    } catch (error) {
      const folder = options.shownFolder?.(result.dataset) ?? result.dataset.contentDir;
      const message = `cannot index ${result.dataset.path} for the extension endpoints: ${(error as Error).message}`;
      problems.push(atFileStart(folder, "near-index", message));
    }
  }
  const postcodes = postcodeTable(
    parts.flatMap(({ part }) => part.own),
    centroids,
  );
  const indexes: BuiltNearIndex[] = [];
  for (const { result, part, segments, filters } of parts) {
    const places = filters.includes("postcode");
    const index: NearIndex = { ...part.index, postcodes: places ? postcodes : EMPTY };
    const bytes = Buffer.from(JSON.stringify(index), "utf8");
    indexes.push({
      entry: {
        dataset: result.dataset.id,
        filters,
        segments: filters.includes("segment") ? segments : [],
        index: {
          asset: nearIndexAsset(result.dataset.id),
          etag: entityTag(bytes),
          length: bytes.length,
        },
      },
      bytes,
    });
  }
  return { indexes, problems };
}
