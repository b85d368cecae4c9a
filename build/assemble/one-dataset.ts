/**
 * Step 5 for one data set, through the cache: its envelope assembled, checked and serialised to
 * the exact bytes served. A data set whose files, site settings and LastUpdated are exactly what an
 * earlier build saw takes those bytes from the cache: it is not assembled or serialised again, and
 * the values of its files are never parsed (cached check results parse them on first use). A
 * rebuild after one edit therefore assembles only the data set that was edited. `build` encodes
 * the bytes next (step 6); `validate` stops here, with the counts and the size.
 */
import { assembleDataset, type AssembleInput } from "./dataset.js";
import { dataDigest } from "../encode/data-digest.js";
import { serializeBody, type RecordBytes } from "../encode/body.js";
import { bodyData, DatasetBody, type BodyFacts, type BodySummary } from "../encode/dataset-body.js";
import { entityTag } from "../encode/variants.js";
import { framed, unframed, type BuildCache } from "../core/cache.js";
import type { Diagnostic } from "../core/diagnostics.js";
import { locatedRecords, RecordMarks, type LocatedRecord } from "./locations.js";
import type { LastUpdated } from "./last-updated.js";
import { timeSync, type PartTimings } from "../core/timings.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";

export interface DatasetStep {
  readonly cache: BuildCache | undefined;
  /** Each content file's cache key, by its display path (check/cached-checks.ts, jobKeys). */
  readonly fileKeys: ReadonlyMap<string, string | undefined>;
  /** Runs `work` under the assemble step's timer. */
  readonly timed: <T>(work: () => Promise<T>) => Promise<T>;
  /** Where serialising and hashing are timed. */
  readonly parts?: Pick<PartTimings, "serializeMs" | "hashMs">;
  /**
   * How the data set is dated: the LastUpdated to assemble it at first and, in git, how to settle
   * it by the body's Data digest (history/dating.ts, datasetDating). Given by the pipeline, since
   * history comes after assemble in the order of the folders.
   */
  readonly dating: (
    input: AssembleInput,
    cache: BuildCache | undefined,
  ) => Promise<{
    readonly updated: LastUpdated;
    readonly settle?: ((digest: string) => Promise<LastUpdated>) | undefined;
  }>;
}

export type AssembledDataset =
  | { readonly ok: true; readonly body: DatasetBody }
  | { readonly ok: false; readonly problems: Diagnostic[] };

// What is kept beside the body: the manifest's counts, the map's marks, the brands' names and the
// body's ETag.
interface CachedSummary extends BodySummary {
  readonly located: LocatedRecord[];
  readonly brandNames: string[];
  readonly etag: string;
}

/**
 * The data set's body, assembled and checked, or taken from the cache when nothing it depends on
 * moved: the one place that decides which. Either way the steps after get one DatasetBody.
 */
export async function assembleOrReuse(
  input: AssembleInput,
  step: DatasetStep,
): Promise<AssembledDataset> {
  return step.timed(async () => {
    const dating = await step.dating(input, step.cache);
    const made = await assembleAt(input, step, dating.updated);
    if (!made.ok || !dating.settle) return made;
    // Dated by the version its Data is (history/dating.ts): again only when that moves it.
    const updated = await dating.settle(dataDigest(bodyData(made.body)));
    // Only the seconds are published (and key the cache); how they were found is dating's own.
    if (updated.seconds === made.body.updated.seconds) return made;
    return assembleAt(input, step, updated);
  });
}

async function assembleAt(
  input: AssembleInput,
  step: DatasetStep,
  updated: LastUpdated,
): Promise<AssembledDataset> {
  const key = datasetKey(input, updated, step);
  const hit = key ? await readCached(step.cache!, key) : undefined;
  if (hit) {
    const { located, brandNames, etag, ...summary } = hit.summary;
    const facts: BodyFacts = {
      dataset: input.dataset,
      bytes: hit.body,
      tag: etag,
      updated,
      summary,
      located,
      brandNames,
    };
    const bodies = input.memory?.part("bodies", () => new SessionBodies());
    return {
      ok: true,
      body:
        bodies?.remember(DatasetBody.stored(facts, bodies.get(etag))) ?? DatasetBody.stored(facts),
    };
  }
  const assembled = assembleDataset(input, updated);
  if (!assembled.ok) return assembled;
  const located = locatedRecords(
    input.dataset,
    assembled.body,
    input.memory?.part("record-marks", () => new RecordMarks()),
  );
  const brandNames = assembled.body.data.flatMap(({ Brand }) =>
    Brand.map((b) => String(b.BrandName)),
  );
  const serialized = timeSync(step.parts, "serializeMs", () =>
    serializeBody(
      assembled.body,
      input.dataset.recordsKey,
      input.memory?.part("record-bytes", (): RecordBytes => new WeakMap()),
    ),
  );
  const bytes = serialized.bytes;
  const summary: BodySummary = {
    totalResults: assembled.body.meta.TotalResults as number,
    brands: assembled.brands,
  };
  const tag = timeSync(step.parts, "hashMs", () => entityTag(bytes));
  if (key) {
    const cached: CachedSummary = { ...summary, located, brandNames, etag: tag };
    await step.cache!.set(key, DATASET_KIND, framed(JSON.stringify(cached), bytes));
  }
  const facts = { dataset: input.dataset, bytes, tag, updated, summary, located, brandNames };
  const body = DatasetBody.made(facts, assembled.body, serialized.slices);
  input.memory?.part("bodies", () => new SessionBodies()).remember(body);
  return { ok: true, body };
}

/**
 * The bodies a session's builds made or took from the cache, by ETag, the most recent few: a
 * rebuild's unchanged data sets come from the cache as bytes, and what later steps work out of
 * those bytes (the value, the records' ranges and hashes) is then worked out once per session,
 * not once per save (encode/dataset-body.ts, `like`).
 */
class SessionBodies {
  // Two builds' worth with Sites: a site's eight data sets, for a group of four sites.
  static readonly KEPT = 64;
  readonly #bodies = new Map<string, DatasetBody>();

  get(tag: string): DatasetBody | undefined {
    return this.#bodies.get(tag);
  }

  /** Keeps `body` as the newest; the oldest goes beyond KEPT. */
  remember(body: DatasetBody): DatasetBody {
    this.#bodies.delete(body.tag);
    this.#bodies.set(body.tag, body);
    for (const tag of this.#bodies.keys()) {
      if (this.#bodies.size <= SessionBodies.KEPT) break;
      this.#bodies.delete(tag);
    }
    return body;
  }
}

const DATASET_KIND = CACHE_KINDS.dataset;

// Everything the published body depends on: the data set, its LastUpdated, the site settings
// (meta.License, meta.TermsOfUse) and each of its files' keys in join order (each of which holds
// the file's path, text, schemas and the checking code). None when a file has no key (no cache).
function datasetKey(
  input: AssembleInput,
  updated: LastUpdated,
  step: DatasetStep,
): string | undefined {
  if (!step.cache) return undefined;
  const files = input.units.flatMap(({ files }) => files.map((f) => step.fileKeys.get(f.file)));
  if (files.some((k) => k === undefined)) return undefined;
  const settingsJson = JSON.stringify(input.settings);
  const parts = [input.dataset.id, String(updated.seconds), settingsJson, ...(files as string[])];
  return step.cache.key(DATASET_KIND, ...parts);
}

async function readCached(
  cache: BuildCache,
  key: string,
): Promise<{ body: Buffer; summary: CachedSummary } | undefined> {
  const entry = await cache.get(key, DATASET_KIND);
  const [summary, body] = (entry && unframed(entry, 2)) ?? [];
  if (!body || !summary) return undefined;
  return { body, summary: JSON.parse(summary.toString("utf8")) as CachedSummary };
}
