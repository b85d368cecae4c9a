/**
 * The build, step by step, numbered as docs/architecture.md numbers them: 1 read the content,
 * 2 check each file (with quality's per-file rules), 3 check across files, 4 the quality rules
 * across files, 5 assemble and 6 encode each data set, 7 index the near-me data sets, 8 the
 * changes since past versions from git history, 9 make the documents about the APIs, 10 write
 * dist/ with its manifest. Problems from every step and every
 * file are collected, so one run reports them all; nothing is written unless there are none.
 */
import type { DatasetResult } from "./encode/manifest-entry.js";
import { openCache } from "./core/cache.js";
import type { BuildContext } from "./core/context.js";
import { assembleOrReuse } from "./one-dataset.js";
import { DATASETS } from "./core/datasets.js";
import { compareDiagnostics, type Diagnostic } from "./core/diagnostics.js";
import { makeDocuments } from "./documents/index.js";
import { createEncoder } from "./encode/cached-encoder.js";
import type { LocatedRecord } from "./assemble/locations.js";
import { checkAssetLimits, PLATFORM_LIMITS, type AssetLimits } from "./write/asset-limits.js";
import { assetFiles, outputFiles } from "./write/output-files.js";
import { join } from "node:path";
import { CACHE_DIR, CONTENT_DIR, DIST_DIR, displayPath, SCHEMA_DIR } from "./core/paths.js";
import type { AnySchemaObject } from "ajv";
import { createAjv, readSchemas } from "./check/schemas.js";
import { checkContent } from "./check/steps.js";
import { checkQuality, type QualityResult } from "./quality/pass.js";
import { emptyTimings, timeAsync, type StepTimings } from "./core/timings.js";
import { writeAtomically, type OutputFile } from "./write/atomic.js";
import { MANIFEST_FORMAT_VERSION, type Manifest } from "../contract/manifest.js";
import { nearIndexes } from "./near/index.js";
import { POSTCODE_CENTROIDS_FILE, readPostcodeCentroids } from "./near/postcodes.js";
import { buildHistory } from "./history/index.js";

export type { DatasetResult } from "./encode/manifest-entry.js";
export type { StepTimings } from "./core/timings.js";

export interface BuildOptions {
  readonly contentDir?: string;
  readonly outDir?: string;
  /** Folder that printed paths are relative to. */
  readonly cwd?: string;
  /** false: validate only, write nothing. */
  readonly write?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /** Cache folder, or false for none. Default: .cache/build in the project. */
  readonly cacheDir?: string | false;
  /** Worker threads for parsing and validation; default: the cores available. */
  readonly threads?: number;
  /**
   * Last check before anything is written, given the manifest about to be published (for example
   * the publication guard against a shrinking data set). Problems it returns fail the build.
   */
  readonly beforeWrite?: (next: Manifest) => Diagnostic[] | Promise<Diagnostic[]>;
  /** The static-asset limits checked before writing; the platform's unless a test lowers them. */
  readonly limits?: AssetLimits;
  /** For the live preview (build/preview/): the landing page is left uncompressed. */
  readonly preview?: boolean;
  /** The clock the data-quality pass dates "has passed" by; the system's by default. */
  readonly now?: () => Date;
  /**
   * Read the data sets' past versions from git for the changes endpoints (build/history/); by
   * default when the build writes or previews. Without, each knows only the current version.
   */
  readonly history?: boolean;
}

export interface BuildResult {
  readonly ok: boolean;
  /** Every problem found, sorted by file and position. */
  readonly diagnostics: readonly Diagnostic[];
  /** Per data set, in DATASETS order; empty when the content has problems. */
  readonly datasets: readonly DatasetResult[];
  readonly filesChecked: number;
  readonly manifest: Manifest | undefined;
  readonly timings: StepTimings;
  /** The data-quality pass's findings (empty when the content has errors), and their counts. */
  readonly quality: Pick<QualityResult, "warnings" | "counts">;
  /**
   * Why this build could reuse nothing from the cache (it is empty, the build's code or the
   * schemas changed), in words; undefined when it could, or when there is no cache.
   */
  readonly cacheMiss: string | undefined;
  /** What was written, or would have been with `write: false`; empty when the build failed. */
  readonly files: readonly OutputFile[];
  /** The one line to print when the changes endpoints could not read all history (no git). */
  readonly historyNote?: string | undefined;
}

export async function runBuild(options: BuildOptions = {}): Promise<BuildResult> {
  const contentDir = options.contentDir ?? CONTENT_DIR;
  const outDir = options.outDir ?? DIST_DIR;
  const cwd = options.cwd ?? process.cwd();
  const timings = emptyTimings();
  const timed = <T>(step: Exclude<keyof StepTimings, "parts">, work: () => Promise<T> | T) =>
    timeAsync(timings, step, work);
  const schemas = readSchemas(SCHEMA_DIR);
  const ajv = ajvFor(schemas);
  const cache = openCache(options.cacheDir ?? CACHE_DIR, schemas);
  const encoder = createEncoder(cache, timings.parts);
  const cacheMiss = await cache?.missReason();
  // What a failed build reports, as far as it got: declared before the first step that can fail,
  // so a return added above any step finds them set.
  let quality: BuildResult["quality"] = { warnings: [], counts: [] };
  let filesChecked = 0;
  const failed = (diagnostics: Diagnostic[], datasets: DatasetResult[] = []): BuildResult => ({
    ok: false,
    diagnostics: diagnostics.sort(compareDiagnostics),
    datasets,
    filesChecked,
    manifest: undefined,
    timings,
    quality,
    cacheMiss,
    files: [],
  });

  const context: BuildContext = {
    contentDir,
    cwd,
    env: options.env,
    schemas,
    ajv,
    cache,
    threads: options.threads,
    timings,
  };

  // 1. read, 2. check each file (in parallel, cached; quality's per-file part too), 3. check across files
  const checked = await checkContent(context);
  const { jobs, keys, units, site, diagnostics } = checked;
  filesChecked = jobs.length;
  if (diagnostics.length > 0 || !site) return failed(diagnostics);

  // 4. the quality rules across files: warnings, or errors where site.yaml says so.
  const today = (options.now?.() ?? new Date()).toISOString().slice(0, 10);
  const found = await timed("quality", () =>
    checkQuality({ units, today, asErrors: site.QualityErrors }),
  );
  quality = { warnings: found.warnings.sort(compareDiagnostics), counts: found.counts };
  if (found.errors.length > 0) return failed(found.errors);

  // 5. assemble and 6. encode, each data set (unchanged ones from the cache)
  const results: DatasetResult[] = [];
  const located: LocatedRecord[] = [];
  const brandNames = new Set<string>();
  const fileKeys = new Map(jobs.map((job, i) => [job.file, keys[i]]));
  const step = { cache, encoder, fileKeys, timed };
  for (const dataset of DATASETS) {
    const built = await assembleOrReuse(
      { ...context, dataset, units: units.get(dataset)!, site },
      step,
    );
    if (!built.ok) {
      diagnostics.push(...built.problems);
      continue;
    }
    located.push(...built.located);
    for (const name of built.brandNames) brandNames.add(name);
    results.push(built.result);
  }
  if (diagnostics.length > 0) return failed(diagnostics);
  // 7. the extension endpoints' indexes, from the encoded bodies
  const centroids = await readPostcodeCentroids(
    contentDir,
    displayPath(cwd, join(contentDir, POSTCODE_CENTROIDS_FILE)),
  );
  if (centroids.problems.length > 0) return failed(centroids.problems);
  const near = await timed("encode", () =>
    nearIndexes(results, schemas, centroids.points, {
      cache,
      shownFolder: (dataset) => displayPath(cwd, join(contentDir, dataset.contentDir)),
    }),
  );
  if (near.problems.length > 0) return failed(near.problems, results);
  // 8. the changes endpoints' answers since each kept past version, and the publications
  const limits = options.limits ?? PLATFORM_LIMITS;
  const history = await timed("encode", () =>
    buildHistory({
      contentDir,
      site,
      datasets: results,
      cache,
      maxFileBytes: limits.maxFileBytes,
      fromGit: options.history ?? (options.write !== false || options.preview === true),
    }),
  );
  // 9. the documents about the APIs (landing page, /openapi.json), from what was just assembled.
  const documents = await timed("encode", () =>
    makeDocuments({
      datasets: results,
      located,
      brandNames: [...brandNames],
      schemas,
      site,
      cache,
      encode: encoder.bytes,
      near: near.indexes.map((n) => n.entry),
      changes: history.changes,
      publications: history.publications,
      pageUncompressed: options.preview,
    }),
  );

  // 10. check the platform's limits, then write, unless a last check objects
  const manifest: Manifest = {
    formatVersion: MANIFEST_FORMAT_VERSION,
    datasets: results.map((r) => r.entry),
    documents: documents.map((d) => d.entry),
    near: near.indexes.map((n) => n.entry),
    changes: history.changes,
  };
  const files = outputFiles([...results, ...documents, ...history.answers], manifest);
  for (const { entry, bytes } of near.indexes)
    files.push({ path: entry.index.asset.slice(1), bytes });
  const overLimits = checkAssetLimits(
    assetFiles(files, results),
    { contentDir: displayPath(cwd, contentDir), outDir: displayPath(cwd, outDir) },
    limits,
  );
  if (overLimits.length > 0) return failed(overLimits, results);
  const objections = (await options.beforeWrite?.(manifest)) ?? [];
  if (objections.length > 0) return failed(objections, results);
  await cache?.remember();
  if (options.write !== false) {
    await timed("write", async () => {
      await writeAtomically(outDir, files, { linkUnchanged: true });
      await cache?.prune();
    });
  }
  return {
    ok: true,
    diagnostics: [],
    datasets: results,
    filesChecked: jobs.length,
    manifest,
    timings,
    quality,
    cacheMiss,
    files,
    historyNote: history.note,
  };
}

// The last ajv instance and the schemas' text it holds: a process that builds again (the live
// preview) reuses its compiled validators while the schemas are unchanged; compiling them is most
// of what a rebuild after one edit would otherwise cost.
let lastAjv: { readonly key: string; readonly ajv: ReturnType<typeof createAjv> } | undefined;
function ajvFor(schemas: Map<string, AnySchemaObject>): ReturnType<typeof createAjv> {
  const key = JSON.stringify([...schemas]);
  if (lastAjv?.key !== key) lastAjv = { key, ajv: createAjv(schemas) };
  return lastAjv.ajv;
}
