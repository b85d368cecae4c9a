/**
 * The build, step by step, numbered as docs/architecture.md numbers them: 1 read the content,
 * 2 check each file (with quality's per-file rules), 3 check across files, 4 the quality rules
 * across files, 5 assemble each data set's body, 6 encode it, 7 index the near-me data sets, 8 the
 * changes since past versions from git history, 9 make the documents about the APIs, 10 write dist/
 * with its manifest. Problems from every step and every
 * file are collected, so one run reports them all; nothing is written unless there are none.
 *
 * From step 5 on, each data set is one value, its DatasetBody (encode/dataset-body.ts), which
 * assemble/one-dataset.ts makes, fresh or from the cache; steps 6 to 9 read only that. What kind
 * of build this is (publish, preview, validate: how to compress, whether to read history, what to
 * keep in memory) is one BuildProfile (core/profile.ts, profiles.ts), which the steps read.
 *
 * `runValidate` (`npm run validate`) runs steps 1 to 5 and the checks of step 10 that what it made
 * can answer, and stops: it compresses nothing, indexes nothing and makes no document, yet reports
 * every problem and warning the build would (docs/decisions.md#what-validate-checks).
 */
import { openCache, type BuildCache } from "./core/cache.js";
import type { BuildContext } from "./core/context.js";
import { GitMemo, readContentGit, type ContentGit } from "./core/git.js";
import { assembleOrReuse } from "./assemble/one-dataset.js";
import { DATASETS, type DatasetId } from "./core/datasets.js";
import { compareDiagnostics, type Diagnostic } from "./core/diagnostics.js";
import { makeDocuments } from "./documents/index.js";
import { createEncoder, type EncodeBytes } from "./encode/cached-encoder.js";
import type { DatasetBody } from "./encode/dataset-body.js";
import type { BuildProfile } from "./core/profile.js";
import { BuildMemory } from "./core/memory.js";
import { PUBLISH, VALIDATE } from "./profiles.js";
import { datasetResult, type DatasetResult } from "./encode/manifest-entry.js";
import {
  checkAssetLimits,
  PLATFORM_LIMITS,
  type AssetFile,
  type AssetLimits,
} from "./write/asset-limits.js";
import { assetFiles, outputFiles } from "./write/output-files.js";
import { join } from "node:path";
import { CACHE_DIR, CONTENT_DIR, DIST_DIR, displayPath, SCHEMA_DIR } from "./core/paths.js";
import type { AnySchemaObject } from "ajv";
import { createAjv, readSchemas } from "./check/schemas.js";
import { checkContent, type CheckedContent } from "./check/steps.js";
import { checkQuality, type QualityResult } from "./quality/pass.js";
import { emptyTimings, timeAsync, type StepTimings, type ValidateTimings } from "./core/timings.js";
import { writeAtomically, type OutputFile } from "./write/atomic.js";
import {
  datasetAsset,
  MANIFEST_FORMAT_VERSION,
  type Manifest,
  type ManifestEntry,
} from "../contract/manifest.js";
import { siteTable, type PublishedSite, type SiteSettings } from "./read/site.js";
import type { CheckedUnit } from "./check/across-files.js";
import { sitesOutput, type BuiltSite } from "./write/sites.js";
import { nearIndexes, type BuiltNearIndex } from "./near/index.js";
import {
  POSTCODE_CENTROIDS_FILE,
  readPostcodeCentroids,
  type PostcodePoint,
} from "./near/postcodes.js";
import { buildHistory, type HistoryResult, type SiteHistory } from "./history/index.js";
import { datasetDating } from "./history/dating.js";
import { within } from "./core/internal-error.js";

export type { DatasetResult } from "./encode/manifest-entry.js";
export type { StepTimings, ValidateTimings } from "./core/timings.js";

/** What the build and validate both take: where the content is, and how to check it. */
export interface CheckOptions {
  readonly contentDir?: string;
  /** Folder that printed paths are relative to. */
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Cache folder, or false for none. Default: .cache/build in the project. */
  readonly cacheDir?: string | false;
  /** Worker threads for parsing and validation; default: the cores available. */
  readonly threads?: number;
  /** The static-asset limits checked; the platform's unless a test lowers them. */
  readonly limits?: AssetLimits;
  /** The clock the data-quality pass dates "has passed" by; the system's by default. */
  readonly now?: () => Date;
  /**
   * What kind of build (core/profile.ts): how to compress, whether to read history, what to keep
   * in memory between builds. build/profiles.ts's PUBLISH for a build, VALIDATE for validate.
   */
  readonly profile?: BuildProfile;
}

export interface ValidateOptions extends CheckOptions {
  /**
   * Last check, given what each data set would publish (for example the publication guard).
   * Problems it returns fail the run.
   */
  readonly lastCheck?: (next: PublishedCountsOf) => Diagnostic[];
}

export interface BuildOptions extends CheckOptions {
  readonly outDir?: string;
  /** false: make everything in memory (result.files) and write nothing. */
  readonly write?: boolean;
  /**
   * Last check before anything is written, given the manifest about to be published (for example
   * the publication guard against a shrinking data set). Problems it returns fail the build.
   */
  readonly beforeWrite?: (next: Manifest) => Diagnostic[] | Promise<Diagnostic[]>;
}

/** What a run reports whether or not it succeeded. */
interface RunReport {
  readonly filesChecked: number;
  readonly timings: StepTimings;
  /** The data-quality pass's findings (empty when the content has errors), and their counts. */
  readonly quality: Pick<QualityResult, "warnings" | "counts">;
  /**
   * Why this run could reuse nothing from the cache (it is empty, the build's code or the
   * schemas changed), in words; undefined when it could, or when there is no cache.
   */
  readonly cacheMiss: string | undefined;
}

/** A run that found problems: nothing was written. */
interface Failed extends RunReport {
  readonly ok: false;
  /** Every problem found, sorted by file and position; never empty. */
  readonly diagnostics: readonly Diagnostic[];
}

/** A build of content without problems. */
export interface Built extends RunReport {
  readonly ok: true;
  readonly diagnostics: readonly [];
  /** Per data set, in DATASETS order (each site's in turn, with site.yaml's Sites). */
  readonly datasets: readonly DatasetResult[];
  /** With site.yaml's Sites: each site, its host and its data sets; undefined without. */
  readonly sites?: readonly {
    readonly name: string;
    readonly host: string;
    readonly datasets: readonly DatasetResult[];
  }[];
  readonly manifest: Manifest;
  /** What was written, or would have been with `write: false`. */
  readonly files: readonly OutputFile[];
  /** The one line to print when the changes endpoints could not read all history (no git). */
  readonly historyNote?: string | undefined;
  /**
   * What the history did beyond taking from the cache and the build's memory: data sets whose
   * answers it made, past files it parsed, past bodies it made again (history/index.ts).
   */
  readonly historyWork?: HistoryResult["work"];
}

export type BuildResult = Built | Failed;

/** What the publication guard needs of a data set: its record count. A manifest entry is one. */
type DatasetCounts = Pick<ManifestEntry, "dataset" | "totalResults">;

/** What the guard needs of a publication: its data sets' counts, each site's with Sites. */
export interface PublishedCountsOf {
  readonly datasets: readonly DatasetCounts[];
  readonly sites?: readonly { readonly name: string; readonly manifest: PublishedCountsOf }[];
}

/** Content without problems, as validate found it. */
interface Validated extends RunReport {
  readonly ok: true;
  readonly diagnostics: readonly [];
  /** Per data set, in DATASETS order, its record count and the body it would publish. */
  readonly datasets: readonly ValidatedBody[];
  /** The counts the publication guard compares: each site's with Sites (PublishedCountsOf). */
  readonly published: PublishedCountsOf;
}

/** A data set's body as validate made it: what a build would serve as its identity variant. */
interface ValidatedBody extends DatasetCounts {
  readonly dataset: DatasetId;
  readonly identity: Buffer;
}

/** Validate's result, timed by the steps it runs. */
export type ValidateResult = (Omit<Validated, "timings"> | Omit<Failed, "timings">) & {
  readonly timings: ValidateTimings;
};

/** Steps 1 to 10: checks the content and, when it has no problem, writes (or makes) the output. */
export async function runBuild(options: BuildOptions = {}): Promise<BuildResult> {
  const profile = options.profile ?? PUBLISH;
  const run = await checkAndAssemble(options, profile);
  if (!run.ok) return run.failure;
  const encode = createEncoder(run.cache, run.timings.parts, profile);
  // A fault of the build's own says which site's steps it was in (core/internal-error.ts).
  const inSite = <T>(part: SiteBodies, work: () => Promise<T>) =>
    part.site ? within(`site ${part.site.name}`, work) : work();
  // 6. encode each data set's body and 7. index the near-me data sets, every site's at once.
  const made = await encodeAndIndex(run, inSite, encode);
  if (!made.ok) return run.failed(made.problems);
  const encoded = made.sites;
  // 8. the changes endpoints' answers since each kept past version, and the publications: every
  // site's from one reading of git, so a brand's past files are parsed once for all its sites.
  const limits = options.limits ?? PLATFORM_LIMITS;
  const history = await timeAsync(run.timings, "history", () =>
    within("step 8 (history)", () =>
      buildHistory({
        contentDir: run.contentDir,
        git: run.git,
        profile,
        memory: run.memory,
        sites: encoded.map(({ part, results }) => ({
          name: part.site?.name,
          settings: part.settings,
          datasets: results,
          brands: part.site?.brands,
        })),
        cache: run.cache,
        maxFileBytes: limits.maxFileBytes,
      }),
    ),
  );
  // 9. the documents about the APIs, and each site's manifest and files, every site's at once:
  // one site's documents are made while another's are compressed.
  const built = await timeAsync(run.timings, "documents", () =>
    Promise.all(
      encoded.map((site, i) =>
        inSite(site.part, () => publishSite(run, site, history.sites[i]!, encode)),
      ),
    ),
  );
  // 10. check the platform's limits, then write, unless a last check objects
  const only = built.length === 1 && run.sites[0]!.site === undefined ? built[0] : undefined;
  const output = only
    ? { manifest: only.manifest, files: only.files, assets: only.assets }
    : sitesOutput(built);
  const results = built.flatMap((b) => b.results);
  const objections = await checkAndWrite(run, options, output);
  if (objections.length > 0) return run.failed(objections);
  return {
    ...run.report(),
    ok: true,
    diagnostics: [],
    datasets: results,
    ...(only
      ? {}
      : { sites: built.map(({ name, host, results }) => ({ name, host, datasets: results })) }),
    manifest: output.manifest,
    files: output.files,
    historyNote: history.note,
    historyWork: history.work,
  };
}

/** A site's bodies as steps 6 and 7 made them. */
interface EncodedSite {
  readonly part: SiteBodies;
  readonly results: DatasetResult[];
  readonly near: BuiltNearIndex[];
}

/** One site as steps 6 to 9 made it, with the files step 10 writes for it. */
interface SitePublication extends BuiltSite {
  readonly results: readonly DatasetResult[];
}

/** Step 9 for one site (the whole content without Sites), and its manifest and files. */
async function publishSite(
  run: AssembledRun,
  { part, results, near }: EncodedSite,
  history: SiteHistory,
  encode: EncodeBytes,
): Promise<SitePublication> {
  const settings = part.settings;
  // 9. the documents about the APIs (landing page, /openapi.json), from what was just made.
  const documents = await within("step 9 (documents)", () =>
    makeDocuments({
      datasets: results,
      schemas: run.schemas,
      settings,
      cache: run.cache,
      encode,
      near: near.map((n) => n.entry),
      nearIndexes: near,
      changes: history.changes,
      changeAnswers: history.answers,
      publications: history.publications,
      profile: run.profile,
      memory: run.memory,
      host: part.site?.host,
    }),
  );
  const manifest: Manifest = {
    formatVersion: MANIFEST_FORMAT_VERSION,
    // Said only when site.yaml says it: a manifest without it is served with the specs' default.
    ...(settings.CacheMaxAgeSeconds === undefined
      ? {}
      : { cacheMaxAge: settings.CacheMaxAgeSeconds }),
    datasets: results.map((r) => r.entry),
    documents: documents.map((d) => d.entry),
    near: near.map((n) => n.entry),
    changes: history.changes,
  };
  const files = outputFiles([...results, ...documents, ...history.answers], manifest);
  for (const { entry, bytes } of near) files.push({ path: entry.index.asset.slice(1), bytes });
  return {
    name: part.site?.name ?? "",
    host: part.site?.host ?? "",
    manifest,
    files,
    assets: assetFiles(files, results),
    results,
  };
}

/** A run through step 5 that nothing failed, which steps 6 to 10 go on from. */
type AssembledRun = Extract<CheckedAndAssembled, { ok: true }>;

/**
 * Steps 6 and 7 for every site: every body encoded at once (compression runs on libuv's threads,
 * so a cold build keeps the cores busy, and a group's sites compress side by side) while this
 * thread makes each site's near-me indexes, from the identity bytes alone.
 */
async function encodeAndIndex(
  run: AssembledRun,
  inSite: <T>(part: SiteBodies, work: () => Promise<T>) => Promise<T>,
  encode: EncodeBytes,
): Promise<{ ok: true; sites: EncodedSite[] } | { ok: false; problems: Diagnostic[] }> {
  const { cwd, contentDir, timings } = run;
  const [encodings, nears] = await Promise.all([
    timeAsync(timings, "encode", () =>
      Promise.all(
        run.sites.map((part) =>
          inSite(part, () =>
            Promise.all(
              part.bodies.map((body) =>
                within(`step 6 (encode) of ${body.dataset.path}`, () =>
                  encode(body.bytes, body.tag),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
    timeAsync(timings, "near", async () => {
      const indexes: Awaited<ReturnType<typeof nearIndexes>>[] = [];
      for (const part of run.sites) {
        const index = () =>
          nearIndexes(part.bodies, run.schemas, run.centroids, {
            cache: run.cache,
            memory: run.memory,
            shownFolder: (dataset) => displayPath(cwd, join(contentDir, dataset.contentDir)),
          });
        indexes.push(await inSite(part, () => within("step 7 (near)", index)));
      }
      return indexes;
    }),
  ]);
  // The first site whose indexes could not be made, as when the sites ran one after another.
  const failing = nears.find((near) => near.problems.length > 0);
  if (failing) return { ok: false, problems: failing.problems };
  const sites = run.sites.map((part, i) => ({
    part,
    results: part.bodies.map((body, j) => datasetResult(body, part.settings, encodings[i]![j]!)),
    near: nears[i]!.indexes,
  }));
  return { ok: true, sites };
}

/**
 * Step 10: the platform's limits on the files, then the last check (`beforeWrite`); when neither
 * objects, the cache notes what it used and the files are written (unless `write: false`).
 * Resolves to the objections, empty when it wrote.
 */
async function checkAndWrite(
  run: AssembledRun,
  options: BuildOptions,
  output: {
    readonly manifest: Manifest;
    readonly files: readonly OutputFile[];
    readonly assets: readonly AssetFile[];
  },
): Promise<Diagnostic[]> {
  const { cwd, contentDir, cache, timings } = run;
  const outDir = options.outDir ?? DIST_DIR;
  const objections = await timeAsync(timings, "write", async () => {
    const overLimits = checkAssetLimits(
      output.assets,
      { contentDir: displayPath(cwd, contentDir), outDir: displayPath(cwd, outDir) },
      options.limits ?? PLATFORM_LIMITS,
    );
    if (overLimits.length > 0) return overLimits;
    return (await options.beforeWrite?.(output.manifest)) ?? [];
  });
  if (objections.length > 0) return objections;
  await cache?.remember();
  cache?.keepOnlyUsed();
  if (options.write !== false) {
    await timeAsync(timings, "write", () =>
      within(`step 10 (write) of ${displayPath(cwd, outDir)}`, async () => {
        await writeAtomically(outDir, output.files, { linkUnchanged: true });
        await cache?.prune();
      }),
    );
  }
  return [];
}

/**
 * `npm run validate`: steps 1 to 5 and the platform's limits on each body, then `guard` on the
 * counts; nothing is encoded, indexed or written (the cache keeps what a build would reuse: each
 * file's check and each data set's body). Reports every problem the build would, but those of the
 * build's own later work (docs/decisions.md#what-validate-checks).
 */
export async function runValidate(options: ValidateOptions = {}): Promise<ValidateResult> {
  const run = await checkAndAssemble(options, options.profile ?? VALIDATE);
  const result = run.ok ? await checkBodies(run, options) : run.failure;
  const t = result.timings;
  const timings: ValidateTimings = {
    read: t.read,
    check: t.check,
    crossCheck: t.crossCheck,
    quality: t.quality,
    assemble: t.assemble,
    limits: t.write,
    parts: {
      parseMs: t.parts.parseMs,
      validateMs: t.parts.validateMs,
      serializeMs: t.parts.serializeMs,
    },
  };
  return { ...result, timings };
}

// Of step 10's checks, those the bodies answer: each body's size against the limit per file, then
// the last check. What only the later steps make (the compressed variants, each smaller than its
// body; the indexes; the documents; the number of files, fixed by the table of data sets) is the
// build's to check (docs/decisions.md#what-validate-checks).
async function checkBodies(
  run: Extract<CheckedAndAssembled, { ok: true }>,
  options: ValidateOptions,
): Promise<Validated | Failed> {
  const datasets = run.bodies.map(({ dataset, summary, bytes }) => ({
    dataset: dataset.id,
    totalResults: summary.totalResults,
    identity: bytes,
  }));
  const counts = (bodies: readonly DatasetBody[]) =>
    bodies.map(({ dataset, summary }) => ({
      dataset: dataset.id,
      totalResults: summary.totalResults,
    }));
  // With Sites, each site's counts under its Name, as the build's manifest gives them.
  const published: PublishedCountsOf =
    run.sites[0]?.site === undefined
      ? { datasets: counts(run.bodies) }
      : {
          datasets: [],
          sites: run.sites.map((part) => ({
            name: part.site!.name,
            manifest: { datasets: counts(part.bodies) },
          })),
        };
  const objections = await timeAsync(run.timings, "write", () => {
    const bodies: AssetFile[] = run.bodies.map(({ dataset, bytes }) => ({
      path: datasetAsset(dataset.path).slice(1),
      bytes: bytes.length,
      variant: { dataset, coding: "identity" },
    }));
    const limits = options.limits ?? PLATFORM_LIMITS;
    const overLimits = checkAssetLimits(
      bodies,
      { contentDir: displayPath(run.cwd, run.contentDir), outDir: "" },
      { maxFileBytes: limits.maxFileBytes, maxFiles: Number.POSITIVE_INFINITY },
    );
    if (overLimits.length > 0) return overLimits;
    return options.lastCheck?.(published) ?? [];
  });
  if (objections.length > 0) return run.failed(objections);
  await run.cache?.remember();
  return { ...run.report(), ok: true, diagnostics: [], datasets, published };
}

interface Shared {
  readonly contentDir: string;
  /** What kind of build this is (core/profile.ts). */
  readonly profile: BuildProfile;
  /** What git says of the content folder, read once for the run (core/git.ts). */
  readonly git: Promise<ContentGit>;
  readonly cwd: string;
  readonly schemas: Map<string, AnySchemaObject>;
  readonly cache: BuildCache | undefined;
  /** This build's memory (core/memory.ts): the profile's, or its own. */
  readonly memory: BuildMemory;
  readonly timings: StepTimings;
  /** The failure as far as the run got, with these problems. */
  readonly failed: (diagnostics: Diagnostic[]) => Failed;
  /** What a run reports so far. */
  readonly report: () => RunReport;
}

type CheckedAndAssembled =
  | (Shared & { readonly ok: false; readonly failure: Failed })
  | (Shared & {
      readonly ok: true;
      readonly settings: SiteSettings;
      /** Step 5's output: each site's bodies (one site, every brand, without Sites). */
      readonly sites: readonly SiteBodies[];
      /** Every site's bodies, each site's in DATASETS order. */
      readonly bodies: readonly DatasetBody[];
      /** The optional postcode-centroid file's points (for step 7). */
      readonly centroids: readonly PostcodePoint[];
    });

/**
 * Step 5 for each site of site.yaml's Sites, over its brands, or once over every brand without
 * Sites; each problem found is added to `problems`.
 */
async function assembleSites(
  context: BuildContext,
  checked: Parameters<typeof assembleAll>[1],
  settings: SiteSettings,
  fileKeys: Parameters<typeof assembleAll>[3],
  problems: Diagnostic[],
): Promise<SiteBodies[]> {
  const table = siteTable(settings);
  const parts: { site: PublishedSite | undefined; settings: SiteSettings }[] = table
    ? table.map((published) => ({ site: published, settings: published.settings }))
    : [{ site: undefined, settings }];
  const sites: SiteBodies[] = [];
  for (const part of parts) {
    const assembled = await assembleAll(context, checked, part, fileKeys);
    problems.push(...assembled.problems);
    sites.push({ ...part, bodies: assembled.bodies });
  }
  return sites;
}

/** Steps 1 to 5, which the build and validate share: everything up to each data set's bytes. */
async function checkAndAssemble(
  options: CheckOptions,
  profile: BuildProfile,
): Promise<CheckedAndAssembled> {
  const contentDir = options.contentDir ?? CONTENT_DIR;
  const cwd = options.cwd ?? process.cwd();
  const timings = emptyTimings();
  const schemas = readSchemas(SCHEMA_DIR);
  const cache = openCache(options.cacheDir ?? CACHE_DIR, schemas, profile.memory);
  const cacheMiss = await cache?.missReason();
  // What a failed run reports, as far as it got: declared before the first step that can fail,
  // so a return added above any step finds them set.
  let quality: RunReport["quality"] = { warnings: [], counts: [] };
  let filesChecked = 0;
  const report = () => ({ filesChecked, timings, quality, cacheMiss });
  const failed = (diagnostics: Diagnostic[]): Failed => ({
    ...report(),
    ok: false,
    diagnostics: diagnostics.sort(compareDiagnostics),
  });
  // This build's memory: the profile's, kept between builds (the preview's), or its own.
  const memory = profile.memory ?? new BuildMemory();
  // Read from the start, beside the checks: LastUpdated (step 5) and the history (step 8) ask.
  const git = readContentGit(
    contentDir,
    memory.part("git", () => new GitMemo()),
  );
  const shared: Shared = {
    ...{ contentDir, profile, git, cwd, schemas, cache, memory, timings, failed, report },
  };
  const stop = (diagnostics: Diagnostic[]) => ({
    ...shared,
    ok: false as const,
    failure: failed(diagnostics),
  });
  const context: BuildContext = {
    ...{ contentDir, cwd, env: options.env, schemas, ajv: ajvFor(schemas), cache },
    ...{ threads: options.threads, timings, git, profile, memory },
  };

  // 1. read, 2. check each file (in parallel, cached; quality's per-file part too), 3. check across files
  const checked = await within(
    `steps 1 to 3 (read and check) of ${displayPath(cwd, contentDir)}`,
    () => checkContent(context),
  );
  const { jobs, keys, units, settings, diagnostics } = checked;
  filesChecked = jobs.length;
  if (diagnostics.length > 0 || !settings) return stop(diagnostics);

  // 4. the quality rules across files: warnings, or errors where site.yaml says so.
  const today = (options.now?.() ?? new Date()).toISOString().slice(0, 10);
  const found = await timeAsync(timings, "quality", () =>
    within("step 4 (quality)", () =>
      checkQuality({ units, today, asErrors: settings.QualityErrors }),
    ),
  );
  quality = { warnings: found.warnings.sort(compareDiagnostics), counts: found.counts };
  if (found.errors.length > 0) return stop(found.errors);

  // 5. assemble each data set (unchanged ones from the cache), checking its envelope: for each
  // site of site.yaml's Sites from its brands alone, or once from every brand without Sites. A
  // brand's files were checked once above, however many sites publish it.
  const fileKeys = new Map(jobs.map((job, i) => [job.file, keys[i]]));
  const sites = await assembleSites(context, checked, settings, fileKeys, diagnostics);
  // The optional centroid file is content too: its problems are the editor's, whatever the step
  // that reads its points (7).
  const centroids = await readPostcodeCentroids(
    contentDir,
    displayPath(cwd, join(contentDir, POSTCODE_CENTROIDS_FILE)),
  );
  diagnostics.push(...centroids.problems);
  if (diagnostics.length > 0) return stop(diagnostics);
  const bodies = sites.flatMap((part) => part.bodies);
  return { ...shared, ok: true, settings, sites, bodies, centroids: centroids.points };
}

/** One site's bodies, from step 5, and what its documents and envelopes are made with. */
interface SiteBodies {
  /** The site of site.yaml's Sites; undefined without Sites (every brand, every host). */
  readonly site: PublishedSite | undefined;
  readonly settings: SiteSettings;
  /** Each data set's body, in DATASETS order, holding only the site's brands. */
  readonly bodies: readonly DatasetBody[];
}

/**
 * Step 5 for every data set, in DATASETS order, from the brands of one site (every brand
 * without Sites): its body, or the problems of its envelope.
 */
async function assembleAll(
  context: BuildContext,
  { units }: Pick<CheckedContent, "units">,
  { site, settings }: { site: PublishedSite | undefined; settings: SiteSettings },
  fileKeys: ReadonlyMap<string, string | undefined>,
): Promise<{ bodies: DatasetBody[]; problems: Diagnostic[] }> {
  const { cache, timings } = context;
  const step = {
    cache,
    fileKeys,
    parts: timings!.parts,
    timed: <T>(work: () => Promise<T>) => timeAsync(timings, "assemble", work),
    dating: datasetDating,
  };
  const bodies: DatasetBody[] = [];
  const problems: Diagnostic[] = [];
  for (const dataset of DATASETS) {
    const brands = site?.brands;
    const all = units.get(dataset)!;
    const own = brands ? all.filter((unit) => brands.has(brandNameOf(unit) ?? "")) : all;
    const input = { ...context, dataset, units: own, settings, brands };
    const folder = displayPath(context.cwd, join(context.contentDir, dataset.contentDir));
    const built = await within(`step 5 (assemble) of ${dataset.path} from ${folder}`, () =>
      assembleOrReuse(input, step),
    );
    if (built.ok) bodies.push(built.body);
    else problems.push(...built.problems);
  }
  return { bodies, problems };
}

// The last few ajv instances, by the schemas' text they hold: a process that builds again (the
// live preview) reuses its compiled validators while the schemas are unchanged; compiling them is
// most of what a rebuild after one edit would otherwise cost. A few, not one: a process that
// builds content against two schema sets in turn (a test run does) compiles each once. Kept per
// process, not by a build's memory (core/memory.ts): an instance depends only on the schema files'
// text, which is its key, never on content or a build.
const KEPT_AJV_INSTANCES = 3;
const keptAjv = new Map<string, ReturnType<typeof createAjv>>();
function ajvFor(schemas: Map<string, AnySchemaObject>): ReturnType<typeof createAjv> {
  const key = JSON.stringify([...schemas]);
  const ajv = keptAjv.get(key) ?? createAjv(schemas);
  // Most recently used last; the first is the one to let go.
  keptAjv.delete(key);
  keptAjv.set(key, ajv);
  if (keptAjv.size > KEPT_AJV_INSTANCES) keptAjv.delete(keptAjv.keys().next().value!);
  return ajv;
}

/** A checked brand's BrandName, as its first file naming one gives it. */
function brandNameOf({ files }: CheckedUnit): string | undefined {
  return files.find((f) => f.brandName)?.brandName?.value;
}
