/**
 * The build, step by step: read the content, check each file, check across files, assemble each
 * data set's envelope, encode it, and write dist/ with its manifest. Problems from every step and
 * every file are collected, so one run reports them all; nothing is written unless there are none.
 */
import { join, relative, sep } from "node:path";
import type { Ajv } from "ajv";
import { envelope, joinBrand, type Site } from "./assemble.js";
import { checkBrands, type CheckedUnit } from "./check-brands.js";
import { checkFile, type CheckedFile, type FileRules } from "./check-file.js";
import { discoverContent, readContent, SITE_FILE, type BrandUnit } from "./content.js";
import { DATASETS, type DatasetDefinition } from "./datasets.js";
import { compareDiagnostics, type Diagnostic } from "./diagnostics.js";
import { encodeBody, type EncodedBody } from "./encode.js";
import { lastUpdated, toRfc3339, type LastUpdatedSource } from "./last-updated.js";
import { MANIFEST_FILE, type Manifest, type ManifestEntry } from "./manifest.js";
import { describeSchemaError } from "./messages.js";
import { CONTENT_DIR, DIST_DIR } from "./paths.js";
import { createAjv, validatorFor } from "./schemas.js";
import { writeAtomically, type OutputFile } from "./write-dist.js";

export interface BuildOptions {
  readonly contentDir?: string;
  readonly outDir?: string;
  /** Folder that printed paths are relative to. */
  readonly cwd?: string;
  /** false: validate only, write nothing. */
  readonly write?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Last check before anything is written, given the manifest about to be published (for example
   * the publication guard against a shrinking data set). Problems it returns fail the build.
   */
  readonly beforeWrite?: (next: Manifest) => Diagnostic[] | Promise<Diagnostic[]>;
}

export interface DatasetResult {
  readonly dataset: DatasetDefinition;
  readonly entry: ManifestEntry;
  readonly lastUpdatedSource: LastUpdatedSource;
  readonly encoded: EncodedBody;
}

export interface BuildResult {
  readonly ok: boolean;
  /** Every problem found, sorted by file and position. */
  readonly diagnostics: readonly Diagnostic[];
  /** Per data set, in DATASETS order; empty when the content has problems. */
  readonly datasets: readonly DatasetResult[];
  readonly filesChecked: number;
  readonly manifest: Manifest | undefined;
}

export const SITE_SCHEMA = "site.schema.json";

export async function runBuild(options: BuildOptions = {}): Promise<BuildResult> {
  const contentDir = options.contentDir ?? CONTENT_DIR;
  const outDir = options.outDir ?? DIST_DIR;
  const cwd = options.cwd ?? process.cwd();
  const ajv = createAjv();

  // 1. read
  const tree = await discoverContent(contentDir, cwd);
  const diagnostics: Diagnostic[] = [...tree.problems];
  let filesChecked = 0;

  // 2. check each file
  const siteDisplay = relative(cwd, join(contentDir, SITE_FILE)).split(sep).join("/");
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
  } else {
    const checked = checkFile(
      tree.site.display,
      await readContent(tree.site),
      rulesFor(ajv, SITE_SCHEMA, null),
    );
    filesChecked++;
    diagnostics.push(...checked.diagnostics);
    if (checked.valid) site = checked.value as Site;
  }
  const checkedUnits = new Map<DatasetDefinition, CheckedUnit[]>();
  for (const dataset of DATASETS) {
    const rules = rulesFor(ajv, dataset.brandSchema, dataset);
    const units: CheckedUnit[] = [];
    for (const unit of tree.units.get(dataset.id) ?? []) {
      units.push({ unit, files: await checkUnit(unit, rules) });
      filesChecked += unit.files.length;
    }
    for (const { files } of units) for (const file of files) diagnostics.push(...file.diagnostics);
    // 3. check across files
    diagnostics.push(...checkBrands(units));
    checkedUnits.set(dataset, units);
  }
  if (diagnostics.length > 0 || !site) {
    return {
      ok: false,
      diagnostics: diagnostics.sort(compareDiagnostics),
      datasets: [],
      filesChecked,
      manifest: undefined,
    };
  }

  // 4. assemble and 5. encode
  const results: DatasetResult[] = [];
  for (const dataset of DATASETS) {
    const units = checkedUnits.get(dataset)!;
    const brands = units.map(({ files }) =>
      joinBrand(
        dataset,
        files.map((f) => f.value),
      ),
    );
    const updated = await lastUpdated(
      [join(contentDir, dataset.contentDir), join(contentDir, SITE_FILE)],
      units.flatMap(({ unit }) => unit.files.map((f) => f.path)),
      options.env,
    );
    const body = envelope(dataset, brands, site, toRfc3339(updated.seconds));
    const validate = validatorFor(ajv, dataset.envelopeSchema);
    if (!validate(body)) {
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
      continue;
    }
    const encoded = await encodeBody(body);
    results.push({
      dataset,
      encoded,
      lastUpdatedSource: updated.source,
      entry: manifestEntry(
        dataset,
        body.meta.TotalResults as number,
        brands.length,
        updated.seconds,
        encoded,
      ),
    });
  }
  if (diagnostics.length > 0) {
    return {
      ok: false,
      diagnostics: diagnostics.sort(compareDiagnostics),
      datasets: [],
      filesChecked,
      manifest: undefined,
    };
  }

  // 6. write, unless a last check objects
  const manifest: Manifest = { formatVersion: 1, datasets: results.map((r) => r.entry) };
  const objections = (await options.beforeWrite?.(manifest)) ?? [];
  if (objections.length > 0) {
    return {
      ok: false,
      diagnostics: [...objections].sort(compareDiagnostics),
      datasets: results,
      filesChecked,
      manifest,
    };
  }
  if (options.write !== false) await writeAtomically(outDir, outputFiles(results, manifest));
  return { ok: true, diagnostics: [], datasets: results, filesChecked, manifest };
}

function rulesFor(ajv: Ajv, schema: string, dataset: DatasetDefinition | null): FileRules {
  return {
    validate: validatorFor(ajv, schema),
    recordsKey: dataset?.recordsKey ?? null,
    identity: dataset?.identity ?? [],
  };
}

async function checkUnit(unit: BrandUnit, rules: FileRules): Promise<CheckedFile[]> {
  const checked: CheckedFile[] = [];
  for (const file of unit.files)
    checked.push(checkFile(file.display, await readContent(file), rules));
  return checked;
}

/** Where a variant's file lives under dist/: the URL path plus an extension per coding. */
const EXTENSIONS = { identity: ".json", br: ".json.br", gzip: ".json.gz" } as const;

function manifestEntry(
  dataset: DatasetDefinition,
  totalResults: number,
  brands: number,
  seconds: number,
  encoded: EncodedBody,
): ManifestEntry {
  const variant = (coding: keyof typeof EXTENSIONS) => ({
    asset: dataset.path + EXTENSIONS[coding],
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
    variants: { identity: variant("identity"), br: variant("br"), gzip: variant("gzip") },
  };
}

function outputFiles(results: readonly DatasetResult[], manifest: Manifest): OutputFile[] {
  const files: OutputFile[] = [
    { path: MANIFEST_FILE, bytes: `${JSON.stringify(manifest, null, 2)}\n` },
  ];
  for (const { entry, encoded } of results) {
    for (const coding of ["identity", "br", "gzip"] as const) {
      files.push({ path: entry.variants[coding]!.asset.slice(1), bytes: encoded[coding].bytes });
    }
  }
  return files;
}
