/**
 * The build, step by step: read the content, check each file, check across files, assemble each
 * data set's envelope, encode it, and write dist/ with its manifest. Problems from every step and
 * every file are collected, so one run reports them all; nothing is written unless there are none.
 */
import { join, relative, sep } from "node:path";
import { envelope, joinBrand, type Site } from "./assemble.js";
import { BuildCache, cacheFingerprint } from "./cache.js";
import { checkBrands, type CheckedUnit } from "./check-brands.js";
import type { CheckedFile, CheckTiming } from "./check-file.js";
import { checkFiles, type CheckJob } from "./check-pool.js";
import { discoverContent, readContent, SITE_FILE } from "./content.js";
import { DATASETS, openBankingAliases, type DatasetDefinition } from "./datasets.js";
import { compareDiagnostics, type Diagnostic } from "./diagnostics.js";
import { buildDocuments, type DocumentResult } from "./documents.js";
import { encodeBody, type EncodedBody, type EncodeTiming } from "./encode.js";
import { locatedRecords, type LocatedRecord } from "./landing/locations.js";
import { lastUpdated, toRfc3339, type LastUpdatedSource } from "./last-updated.js";
import { checkAssetLimits, PLATFORM_LIMITS, type AssetFile, type AssetLimits } from "./limits.js";
import {
  datasetAsset,
  MANIFEST_FILE,
  MANIFEST_FORMAT_VERSION,
  STORED_CODINGS,
  variantAsset,
  type ContentCoding,
  type Manifest,
  type ManifestEntry,
} from "../worker/manifest.js";
import { describeSchemaError } from "./messages.js";
import { CACHE_DIR, CONTENT_DIR, DIST_DIR, SCHEMA_DIR } from "./paths.js";
import { createAjv, envelopeShellValidator, readSchemas } from "./schemas.js";
import { writeAtomically, type OutputFile } from "./write-dist.js";

export const SITE_SCHEMA = "site.schema.json";

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
}

export interface DatasetResult {
  readonly dataset: DatasetDefinition;
  readonly entry: ManifestEntry;
  readonly lastUpdatedSource: LastUpdatedSource;
  readonly encoded: EncodedBody;
}

/**
 * Milliseconds spent in each step (wall time), for `--timings` and the benchmarks, and within two
 * of them the parts: parsing and validation (time summed across worker threads, so on several
 * cores their sum exceeds `check`), serialising, hashing and compressing.
 */
export interface StepTimings {
  read: number;
  check: number;
  crossCheck: number;
  assemble: number;
  encode: number;
  write: number;
  parts: CheckTiming & EncodeTiming;
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
}

export async function runBuild(options: BuildOptions = {}): Promise<BuildResult> {
  const contentDir = options.contentDir ?? CONTENT_DIR;
  const outDir = options.outDir ?? DIST_DIR;
  const cwd = options.cwd ?? process.cwd();
  const timings: StepTimings = {
    read: 0,
    check: 0,
    crossCheck: 0,
    assemble: 0,
    encode: 0,
    write: 0,
    parts: { parseMs: 0, validateMs: 0, serializeMs: 0, hashMs: 0, compressMs: 0 },
  };
  type Step = Exclude<keyof StepTimings, "parts">;
  const timed = async <T>(step: Step, work: () => Promise<T> | T): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      timings[step] += performance.now() - start;
    }
  };
  const schemas = readSchemas(SCHEMA_DIR);
  const ajv = createAjv(schemas);
  const cache =
    options.cacheDir === false
      ? undefined
      : new BuildCache(
          options.cacheDir ?? CACHE_DIR,
          cacheFingerprint([...schemas.values()].map((s) => JSON.stringify(s))),
        );
  const failed = (diagnostics: Diagnostic[], datasets: DatasetResult[] = []): BuildResult => ({
    ok: false,
    diagnostics: diagnostics.sort(compareDiagnostics),
    datasets,
    filesChecked: jobs.length,
    manifest: undefined,
    timings,
  });

  // 1. read
  const tree = await timed("read", () => discoverContent(contentDir, cwd));
  const diagnostics: Diagnostic[] = [...tree.problems];
  const siteDisplay = relative(cwd, join(contentDir, SITE_FILE)).split(sep).join("/");
  const units = DATASETS.flatMap((dataset) => tree.units.get(dataset.id) ?? []);
  const jobs: CheckJob[] = await timed("read", async () => {
    const brandJobs = units.flatMap((unit) =>
      unit.files.map(async (file) => ({
        file: file.display,
        text: await readContent(file),
        schema: unit.dataset.brandSchema,
        recordsKey: unit.dataset.recordsKey,
        identity: unit.dataset.identity,
      })),
    );
    const siteJob = tree.site
      ? [
          {
            file: tree.site.display,
            text: await readContent(tree.site),
            schema: SITE_SCHEMA,
            recordsKey: null,
            identity: [],
          },
        ]
      : [];
    return [...siteJob, ...(await Promise.all(brandJobs))];
  });

  // 2. check each file (in parallel, cached)
  const checked = await timed("check", () =>
    checkFiles(jobs, { ajv, cache, threads: options.threads, timing: timings.parts }),
  );
  for (const file of checked) diagnostics.push(...file.diagnostics);
  let site: Site | undefined;
  if (!tree.site) {
    diagnostics.push({
      file: siteDisplay,
      line: 1,
      column: 1,
      pointer: "",
      rule: "content",
      message: `${SITE_FILE} is missing: it sets meta.License and meta.TermsOfUse (see README, "Content")`,
    });
  } else if (checked[0]!.valid) {
    site = checked[0]!.value as Site;
  }

  // 3. check across files
  const byFile = new Map<string, CheckedFile>(checked.map((c) => [c.file, c]));
  const checkedUnits = new Map<DatasetDefinition, CheckedUnit[]>();
  await timed("crossCheck", () => {
    for (const dataset of DATASETS) {
      const datasetUnits = (tree.units.get(dataset.id) ?? []).map((unit) => ({
        unit,
        files: unit.files.map((f) => byFile.get(f.display)!),
      }));
      diagnostics.push(...checkBrands(datasetUnits));
      checkedUnits.set(dataset, datasetUnits);
    }
  });
  if (diagnostics.length > 0 || !site) return failed(diagnostics);

  // 4. assemble and 5. encode
  const results: DatasetResult[] = [];
  const located: LocatedRecord[] = [];
  for (const dataset of DATASETS) {
    const datasetUnits = checkedUnits.get(dataset)!;
    const updated = await timed("assemble", () =>
      lastUpdated(
        [join(contentDir, dataset.contentDir), join(contentDir, SITE_FILE)],
        datasetUnits.flatMap(({ unit }) => unit.files.map((f) => f.path)),
        options.env,
      ),
    );
    const body = await timed("assemble", () => {
      const brands = datasetUnits.map(({ files }) =>
        joinBrand(
          dataset,
          files.map((f) => f.value),
        ),
      );
      const assembled = envelope(dataset, brands, site!, toRfc3339(updated.seconds));
      const validate = envelopeShellValidator(ajv, schemas.get(dataset.envelopeSchema)!);
      if (!validate(assembled)) {
        for (const error of validate.errors ?? []) {
          const problem = describeSchemaError(error);
          diagnostics.push({
            file: relative(cwd, join(contentDir, dataset.contentDir)).split(sep).join("/"),
            line: 1,
            column: 1,
            pointer: problem.pointer,
            rule: problem.rule,
            message: `the assembled ${dataset.path} response ${problem.message}`,
          });
        }
        return undefined;
      }
      located.push(...locatedRecords(dataset, assembled));
      return { assembled, brands: brands.length };
    });
    if (!body) continue;
    const encoded = await timed("encode", () => encodeBody(body.assembled, cache, timings.parts));
    const entry = manifestEntry(
      dataset,
      body.assembled.meta.TotalResults as number,
      body.brands,
      updated.seconds,
      encoded,
      site!.OpenBankingPaths === true,
    );
    results.push({ dataset, encoded, lastUpdatedSource: updated.source, entry });
  }
  if (diagnostics.length > 0) return failed(diagnostics);
  // The documents about the APIs (landing page, /openapi.json), from what was just assembled.
  const documents = await timed("encode", () =>
    buildDocuments({
      datasets: results,
      located,
      schemas,
      site: site!,
      cache,
      timing: timings.parts,
    }),
  );

  // 6. check the platform's limits, then write, unless a last check objects
  const manifest: Manifest = {
    formatVersion: MANIFEST_FORMAT_VERSION,
    datasets: results.map((r) => r.entry),
    documents: documents.map((d) => d.entry),
  };
  const files = outputFiles([...results, ...documents], manifest);
  const display = (path: string) => relative(cwd, path).split(sep).join("/") || ".";
  const overLimits = checkAssetLimits(
    assetFiles(files, results),
    { contentDir: display(contentDir), outDir: display(outDir) },
    options.limits ?? PLATFORM_LIMITS,
  );
  if (overLimits.length > 0) return failed(overLimits, results);
  const objections = (await options.beforeWrite?.(manifest)) ?? [];
  if (objections.length > 0) return failed(objections, results);
  if (options.write !== false) {
    await timed("write", async () => {
      await writeAtomically(outDir, files);
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
  };
}

function manifestEntry(
  dataset: DatasetDefinition,
  totalResults: number,
  brands: number,
  seconds: number,
  encoded: EncodedBody,
  openBankingPaths: boolean,
): ManifestEntry {
  const variant = (coding: ContentCoding) => ({
    asset: variantAsset(datasetAsset(dataset.path), coding),
    etag: encoded[coding].etag,
    length: encoded[coding].bytes.length,
  });
  return {
    dataset: dataset.id,
    path: dataset.path,
    mediaType: dataset.mediaType,
    lastUpdated: toRfc3339(seconds),
    lastModified: new Date(seconds * 1000).toUTCString(),
    lastModifiedMs: seconds * 1000,
    totalResults,
    brands,
    aliases: openBankingPaths ? openBankingAliases(dataset) : [],
    variants: { identity: variant("identity"), br: variant("br"), gzip: variant("gzip") },
  };
}

// Each output file's size, and the data set and coding it is a variant of, for the limits.
function assetFiles(files: readonly OutputFile[], results: readonly DatasetResult[]): AssetFile[] {
  const variants = new Map<string, AssetFile["variant"]>();
  for (const { dataset, entry } of results) {
    for (const coding of ["identity", "br", "gzip"] as const) {
      variants.set(entry.variants[coding]!.asset.slice(1), { dataset, coding });
    }
  }
  return files.map((f) => ({
    path: f.path,
    bytes: typeof f.bytes === "string" ? Buffer.byteLength(f.bytes) : f.bytes.length,
    variant: variants.get(f.path),
  }));
}

function outputFiles(
  results: readonly (DatasetResult | DocumentResult)[],
  manifest: Manifest,
): OutputFile[] {
  const files: OutputFile[] = [
    { path: MANIFEST_FILE, bytes: `${JSON.stringify(manifest, null, 2)}\n` },
  ];
  for (const { entry, encoded } of results) {
    for (const coding of STORED_CODINGS) {
      files.push({ path: entry.variants[coding]!.asset.slice(1), bytes: encoded[coding].bytes });
    }
  }
  return files;
}
