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
import { atFileStart, type Diagnostic } from "../core/diagnostics.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { entityTag } from "../encode/variants.js";
import { manifestVariants } from "../encode/manifest-entry.js";
import type { DatasetBody } from "../encode/dataset-body.js";
import { datasetAsset } from "../../contract/manifest.js";
import type { BuildCache } from "../core/cache.js";
import type { BuildMemory } from "../core/memory.js";
import { isOnEarth } from "../core/place.js";
import { recordFacts, type RecordFacts } from "../core/record-facts.js";
import { postcodeTable, type PostcodePoint, type PostcodeTable } from "./postcodes.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";

/** One index as written: its manifest entry and its bytes. */
export interface BuiltNearIndex {
  readonly entry: NearEntry;
  readonly bytes: Buffer;
}

/** The filters a data set answers: places for branches and ATMs, segments for products. */
function nearFilters(dataset: DatasetDefinition, segments: readonly string[]): NearFilter[] {
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
function schemaSegments(
  dataset: DatasetDefinition,
  schemas: ReadonlyMap<string, AnySchemaObject>,
): string[] {
  if (dataset.recordsKey === null) return [];
  const brandSchema: SegmentSchema | undefined = schemas.get(dataset.brandSchema);
  const segment = brandSchema?.definitions?.[dataset.recordsKey]?.properties?.Segment;
  const codes = segment?.items?.enum ?? segment?.enum;
  return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === "string") : [];
}

/**
 * Each record's facts, by the record, as a build's memory keeps them (core/memory.ts,
 * "record-facts"), as encode/body.ts keeps its bytes: a process that builds again with the same
 * memory (the live preview's) reads only the records it has not read before.
 */
export type KeptRecordFacts = WeakMap<
  object,
  { readonly key: string; readonly facts: RecordFacts }
>;

function factsOf(record: unknown, key: string, facts: KeptRecordFacts | undefined): RecordFacts {
  if (typeof record !== "object" || record === null || !facts) return recordFacts(record, key);
  const known = facts.get(record);
  if (known?.key === key) return known.facts;
  const read = recordFacts(record, key);
  facts.set(record, { key, facts: read });
  return read;
}

const push = (map: Record<string, number[]>, key: string, record: number) =>
  (map[key] ??= []).push(record);

/** One data set's index before the shared postcode table, and its records' postcode points. */
export interface IndexPart {
  readonly index: Omit<NearIndex, "postcodes">;
  readonly own: readonly PostcodePoint[];
}

/**
 * The part of one data set's index that depends on its published bytes alone: from the body's
 * value and byte ranges (step 5's DatasetBody, which holds them or finds them once), so the index
 * needs only the identity bytes and is made while they are compressed.
 */
export function indexPart(body: DatasetBody, kept?: KeptRecordFacts): IndexPart {
  const { dataset } = body;
  const key = dataset.recordsKey!;
  const facts = body
    .value()
    .data.flatMap(({ Brand }) =>
      Brand.flatMap((brand) => ((brand[key] ?? []) as unknown[]).map((r) => factsOf(r, key, kept))),
    );
  const slices = body.slices();
  if (!slices) throw new Error(`the body is not one list of brands with their ${key} lists`);
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
  const identity = manifestVariants(datasetAsset(dataset.path), {
    identity: { bytes: body.bytes, etag: body.tag },
  }).identity;
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

/**
 * Where the pipeline keeps parts between builds (the cache, and the build's memory for records'
 * facts), and how problems name a data set's folder.
 */
export interface NearOptions {
  readonly cache?: BuildCache | undefined;
  readonly memory?: BuildMemory | undefined;
  readonly shownFolder?: (dataset: DatasetDefinition) => string;
}

/**
 * Every data set's index. Each part comes from the cache when the same body was indexed by the
 * same code before (keyed by the body's ETag), as the JSON text it is written with: a rebuild
 * indexes only the bodies that changed, and parses of the others only their records' postcode
 * points. The postcode table is shared: a postcode placed by an ATM places it for a branch search
 * too; it is serialised once and written after each part's text. A body the slices cannot
 * rebuild is a build error at its data set.
 */
export async function nearIndexes(
  bodies: readonly DatasetBody[],
  schemas: ReadonlyMap<string, AnySchemaObject>,
  centroids: readonly PostcodePoint[],
  options: NearOptions = {},
): Promise<{ indexes: BuiltNearIndex[]; problems: Diagnostic[] }> {
  const problems: Diagnostic[] = [];
  const parts: (CachedPart & { body: DatasetBody; segments: string[]; filters: NearFilter[] })[] =
    [];
  for (const body of bodies) {
    const segments = schemaSegments(body.dataset, schemas);
    const filters = nearFilters(body.dataset, segments);
    if (filters.length === 0) continue;
    try {
      parts.push({ body, segments, filters, ...(await cachedPart(body, options)) });
    } catch (error) {
      const folder = options.shownFolder?.(body.dataset) ?? body.dataset.contentDir;
      const message = `cannot index ${body.dataset.path} for the extension endpoints: ${(error as Error).message}`;
      problems.push(atFileStart(folder, "near-index", message));
    }
  }
  const postcodes = postcodeTable(
    parts.flatMap(({ own }) => own),
    centroids,
  );
  const tables = {
    places: Buffer.from(JSON.stringify(postcodes), "utf8"),
    none: Buffer.from(JSON.stringify(EMPTY), "utf8"),
  };
  const indexes: BuiltNearIndex[] = [];
  for (const { body, index, segments, filters } of parts) {
    const table = filters.includes("postcode") ? tables.places : tables.none;
    // {...index, postcodes}: the part's text with the table as its last field.
    const bytes = Buffer.concat([index.subarray(0, -1), POSTCODES_FIELD, table, CLOSE]);
    indexes.push({
      entry: {
        dataset: body.dataset.id,
        filters,
        segments: filters.includes("segment") ? segments : [],
        index: {
          asset: nearIndexAsset(body.dataset.id),
          etag: entityTag(bytes),
          length: bytes.length,
        },
      },
      bytes,
    });
  }
  return { indexes, problems };
}

/** One data set's part, as JSON text without the postcode table, and its records' postcode points. */
interface CachedPart {
  readonly index: Buffer;
  readonly own: readonly PostcodePoint[];
}

/**
 * The body's part, from the cache when the same body was indexed by the same code before: a part
 * made now is used as made; of one read back, only its points are parsed. Throws when the body
 * cannot be indexed.
 */
async function cachedPart(body: DatasetBody, options: NearOptions): Promise<CachedPart> {
  const { cache } = options;
  const make = () => {
    const facts = options.memory?.part("record-facts", (): KeptRecordFacts => new WeakMap());
    const part = indexPart(body, facts);
    return {
      index: Buffer.from(JSON.stringify(part.index), "utf8"),
      own: part.own,
      ownText: Buffer.from(JSON.stringify(part.own), "utf8"),
    };
  };
  const key = cache?.key("near-index", body.dataset.id, body.tag);
  if (!key) return make();
  const [hit, hitOwn] = await Promise.all([cache!.get(key, INDEX_KIND), cache!.get(key, OWN_KIND)]);
  if (hit && hitOwn)
    return { index: hit, own: JSON.parse(hitOwn.toString("utf8")) as PostcodePoint[] };
  const made = make();
  await cache!.set(key, INDEX_KIND, made.index);
  await cache!.set(key, OWN_KIND, made.ownText);
  return made;
}

const INDEX_KIND = CACHE_KINDS.nearIndex;
const OWN_KIND = CACHE_KINDS.nearOwn;
const POSTCODES_FIELD = Buffer.from(',"postcodes":', "utf8");
const CLOSE = Buffer.from("}", "utf8");
