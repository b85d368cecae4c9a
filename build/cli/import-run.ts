/**
 * `npm run import`, start to finish, with its surroundings passed in (working folder, content
 * folder, clock, fetch, output) so tests run it in-process: read every feed, tell its data set,
 * plan the files, refuse before writing if anything is wrong, write brand by brand, then check
 * what was written as `npm run validate` does.
 */
import { writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { underGitHubActions } from "./annotations.js";
import { CACHE_OPTIONS, chosenCache, parseCommandLine } from "./args.js";
import type { CommandIo } from "./io.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { CACHE_DIR, CONTENT_DIR, displayPath, SCHEMA_DIR } from "../core/paths.js";
import { datasetById, readFeed } from "../import/envelope.js";
import { ImportError } from "../import/errors.js";
import { dateToRfc3339 } from "../core/dates.js";
import { DEFAULT_FETCH_TIMEOUT_SECONDS, loadFeed } from "../import/feed.js";
import { parseFieldPath, planImport } from "../import/plan.js";
import { checkWritten } from "../import/validate.js";
import { qualitySummary } from "../quality/report.js";
import { refuseExisting, writeBrand, type BrandWrite } from "../import/write.js";
import { renderYaml, schemaModeline } from "../import/yaml-out.js";
import { plural } from "../core/format.js";
import { diagnosticLines, problemReport } from "./problem-report.js";
import { createAjv, readSchemas, validatorFor } from "../check/schemas.js";
import { locate, locator, parseYaml, type YamlSource } from "../read/yaml-source.js";
import { repairBrand } from "../import/repair.js";
import {
  importReportText,
  repairDiagnostic,
  repairLines,
  type FileRepair,
} from "../import/repair-report.js";
import type { Ajv } from "ajv";

export const USAGE = `usage: npm run import -- [--repair] [--dataset ID] [--force] [--split-by FIELD.PATH] <feed.json | http(s) URL>...

Writes each brand of a published feed (a response envelope, {"meta", "data": [{"Brand": [...]}]}
or "data": {"Brand": [...]}) as content: content/<data set>/<brand>.yaml, named from BrandName
(Brand objects with the same BrandName are one brand). Then checks what it wrote as
npm run validate does, and exits 1 if there are problems (fix them in place).

  --repair            make the repairs that lose nothing and invent nothing (three-letter language
                      codes, one value where a list belongs, a currency sign on an amount, a
                      number where text belongs and "true" or "12" where a boolean or number
                      does, spaces around values, empty optional values); without it they are
                      only listed
  --verbose           print every problem, not the first few of each kind
  --report FILE       write every repair and every problem, one a line, to FILE

  --dataset ID        the data set (a manifest id, e.g. atms); needed for service metrics feeds,
                      otherwise told from the feed's record key (Branch, ATM, PCA, ...)
  --split-by PATH     a field inside one record, e.g. Location.PostalAddress.TownName: a brand
                      folder with one file per value, records without it in _no-<field>.yaml
  --force             replace brands that already have content in that data set (only those)
  --content DIR       the content folder (default: content/)
  --timeout SECONDS   how long a feed URL may take (default: ${DEFAULT_FETCH_TIMEOUT_SECONDS})
  --cache DIR         the build cache folder to check with (default: .cache/build/)
  --no-cache          check without reading or writing the build cache`;

export interface ImportIo extends CommandIo {
  readonly now: () => Date;
  readonly fetch?: typeof fetch;
  /** Build cache folder or false; default: the project's (.cache/build/). */
  readonly cacheDir?: string | false;
}

/** What the command line asks for. */
interface ImportRequest {
  readonly feeds: readonly string[];
  readonly contentDir: string;
  readonly dataset: DatasetDefinition | undefined;
  readonly splitBy: readonly string[] | undefined;
  readonly timeoutSeconds: number;
  readonly repair: boolean;
  readonly force: boolean;
  readonly verbose: boolean;
  readonly report: string | undefined;
  readonly cacheDir: string | false;
}

/** The brands to write, and what reading them found: each file's repairs and text, by shown path. */
interface ImportPlan {
  readonly writes: BrandWrite[];
  /** Found for every feed, so an import without --repair can say what it would do. */
  readonly repairs: FileRepair[];
  readonly texts: Map<string, string>;
}

/** Runs the import; resolves to the exit code (0 done, 1 refused or problems, 2 usage). */
export async function runImport(argv: string[], io: ImportIo): Promise<number> {
  const request = parseRequest(argv, io);
  if (typeof request === "number") return request;
  let plan: ImportPlan;
  try {
    plan = await planFeeds(request, io);
    await refuseExisting(request.contentDir, io.cwd, plan.writes, request.force);
  } catch (error) {
    if (error instanceof ImportError) {
      io.stderr(`import: ${error.message}`);
      return 1;
    }
    throw error;
  }
  const written = await writeBrands(request.contentDir, plan.writes, io);
  if (!written) return 1;
  const sourceOf = yamlSources(plan.texts);
  tellRepairs(plan.repairs, request.repair, sourceOf, io);
  return checkAndReport(request, plan, written, sourceOf, io);
}

/** The request the command line makes, or the exit code when it makes none (help, usage). */
function parseRequest(argv: string[], io: ImportIo): ImportRequest | number {
  const parsed = parseCommandLine(
    argv,
    {
      dataset: { type: "string" },
      force: { type: "boolean" },
      "split-by": { type: "string" },
      content: { type: "string" },
      timeout: { type: "string" },
      ...CACHE_OPTIONS,
      repair: { type: "boolean" },
      verbose: { type: "boolean" },
      report: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    USAGE,
    io.stderr,
  );
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    io.stderr(positionals.length === 0 && !values.help ? `no feed given\n\n${USAGE}` : USAGE);
    return values.help ? 0 : 2;
  }
  const timeoutSeconds =
    values.timeout === undefined ? DEFAULT_FETCH_TIMEOUT_SECONDS : Number(values.timeout);
  if (!(timeoutSeconds > 0 && timeoutSeconds <= 3600)) {
    io.stderr(`--timeout takes a number of seconds from 0 to 3600\n\n${USAGE}`);
    return 2;
  }
  let dataset: DatasetDefinition | undefined;
  let splitBy: string[] | undefined;
  try {
    dataset = values.dataset === undefined ? undefined : datasetById(values.dataset);
    splitBy = values["split-by"] === undefined ? undefined : parseFieldPath(values["split-by"]);
  } catch (error) {
    if (error instanceof ImportError) {
      io.stderr(`import: ${error.message}`);
      return 1;
    }
    throw error;
  }
  return {
    feeds: positionals,
    contentDir: values.content ? resolve(io.cwd, values.content) : CONTENT_DIR,
    dataset,
    splitBy,
    timeoutSeconds,
    repair: values.repair === true,
    force: values.force === true,
    verbose: values.verbose === true,
    report: values.report,
    cacheDir: chosenCache(values, io.cwd) ?? io.cacheDir ?? CACHE_DIR,
  };
}

/**
 * Reads every feed, tells its data set and plans its brands' files, with each file's repairs
 * found and its YAML rendered (repaired with --repair). Throws an ImportError for a feed it
 * cannot import, or a brand two feeds of the run both hold.
 */
async function planFeeds(request: ImportRequest, io: ImportIo): Promise<ImportPlan> {
  const { contentDir, repair } = request;
  const plan: ImportPlan = { writes: [], repairs: [], texts: new Map() };
  let ajv: Ajv | undefined;
  const importedAt = dateToRfc3339(io.now());
  for (const input of request.feeds) {
    const loaded = await loadFeed(input, {
      cwd: io.cwd,
      dataset: request.dataset,
      timeoutSeconds: request.timeoutSeconds,
      fetch: io.fetch,
    });
    const feed = readFeed(loaded.value, loaded.source, request.dataset);
    for (const brand of planImport(feed, loaded.source, request.splitBy)) {
      const clash = plan.writes.find((w) => w.dataset === feed.dataset && w.slug === brand.slug);
      if (clash) {
        throw new ImportError(
          `${loaded.source}: brand ${JSON.stringify(brand.brandName)} is also in another feed of this run (as ${JSON.stringify(clash.brandName)}); import one at a time`,
        );
      }
      const files = new Map<string, string>();
      ajv ??= createAjv(readSchemas(SCHEMA_DIR));
      const validate = validatorFor(ajv, feed.dataset.brandSchema);
      for (const file of brand.files) {
        const path = join(contentDir, feed.dataset.contentDir, ...file.path.split("/"));
        const found = repairBrand(file.value, validate, feed.dataset.recordsKey);
        const text = renderYaml(
          repair ? found.value : file.value,
          modelineFor(path, contentDir, feed.dataset),
          [
            `Imported by npm run import from ${loaded.source} at ${importedAt}${repair && found.repairs.length > 0 ? `, with ${plural(found.repairs.length, "repair")} (--repair)` : ""}.`,
            ...(file.note ? [`${brand.brandName}: ${file.note}.`] : []),
          ],
        );
        files.set(file.path, text);
        const shown = displayPath(io.cwd, path);
        plan.texts.set(shown, text);
        for (const r of found.repairs) plan.repairs.push({ ...r, file: shown });
      }
      plan.writes.push({ ...brand, dataset: feed.dataset, files });
    }
  }
  return plan;
}

/** Writes brand by brand, saying what it wrote; the shown paths written, or undefined on a failure. */
async function writeBrands(
  contentDir: string,
  writes: readonly BrandWrite[],
  io: ImportIo,
): Promise<Set<string> | undefined> {
  const written = new Set<string>();
  for (const write of writes) {
    let paths: string[];
    try {
      paths = await writeBrand(contentDir, write);
    } catch (error) {
      io.stderr(`import: ${(error as Error).message}`);
      return undefined;
    }
    for (const path of paths) written.add(displayPath(io.cwd, path));
    const where = displayPath(io.cwd, join(contentDir, write.dataset.contentDir, write.slug));
    const records =
      write.dataset.recordsKey === null
        ? "the brand object"
        : plural(write.records, `${write.dataset.recordsKey} record`);
    io.stdout(
      write.folder
        ? `wrote ${where}/ (${write.files.size} files, ${records}) for ${JSON.stringify(write.brandName)}`
        : `wrote ${where}.yaml (${records}) for ${JSON.stringify(write.brandName)}`,
    );
  }
  return written;
}

/** Each written file's text parsed for positions, once, when first asked. */
function yamlSources(texts: ReadonlyMap<string, string>): (file: string) => YamlSource {
  const sources = new Map<string, YamlSource>();
  return (file) => {
    let source = sources.get(file);
    if (!source) sources.set(file, (source = parseYaml(file, texts.get(file) ?? "")));
    return source;
  };
}

/** The repairs, by kind, at their places in the files just written. */
function tellRepairs(
  repairs: readonly FileRepair[],
  repaired: boolean,
  sourceOf: (file: string) => YamlSource,
  io: ImportIo,
): void {
  repairLines(repairs, repaired, (file, pointer) => locate(sourceOf(file), pointer)).forEach(
    (line) => io.stdout(line),
  );
  if (!repaired && repairs.length > 0) {
    io.stdout(
      `These repairs lose nothing and invent nothing (docs/editing.md, "Repairs"). To make them, run the import again with --repair (and --force to replace what this run wrote).`,
    );
  }
}

/**
 * Checks what was written as `npm run validate` does, writes the --report file when asked, and
 * reports as validate does; resolves to the exit code.
 */
async function checkAndReport(
  request: ImportRequest,
  plan: ImportPlan,
  written: ReadonlySet<string>,
  sourceOf: (file: string) => YamlSource,
  io: ImportIo,
): Promise<number> {
  const datasets = [...new Set<DatasetDefinition>(plan.writes.map((w) => w.dataset))];
  const { problems, quality } = await checkWritten(datasets, written, {
    contentDir: request.contentDir,
    cwd: io.cwd,
    cacheDir: request.cacheDir,
    today: io.now().toISOString().slice(0, 10),
  });
  const { verbose } = request;
  const howToSeeAll = "--verbose or --report FILE lists every one";
  if (request.report !== undefined) {
    const locators = new Map<string, ReturnType<typeof locator>>();
    const at = (file: string, pointer: string) => {
      let find = locators.get(file);
      if (!find) locators.set(file, (find = locator(sourceOf(file))));
      return find(pointer);
    };
    const told = plan.repairs.map((r) =>
      repairDiagnostic(r, request.repair, at(r.file, r.pointer)),
    );
    await writeFile(
      resolve(io.cwd, request.report),
      importReportText(told, [...problems, ...quality.findings]),
    );
  }
  if (problems.length === 0) {
    io.stdout(`${written.size} imported file${written.size === 1 ? " is" : "s are"} valid.`);
    diagnosticLines(quality.findings, { verbose, howToSeeAll }).forEach((line) => io.stderr(line));
    qualitySummary(quality.counts).forEach((line) => io.stdout(line));
    return 0;
  }
  // The same report as npm run validate (cli/build.ts).
  const report = problemReport(problems, {
    annotate: underGitHubActions(io.env),
    fileNoun: "imported file",
    nextStep: "The files are written: fix them in place, then run npm run validate.",
    verbose,
    howToSeeAll,
  });
  report.stdout.forEach((line) => io.stdout(line));
  report.stderr.forEach((line) => io.stderr(line));
  return 1;
}

/**
 * The modeline of a file at `path`: the schema's path relative to the file's folder, with the
 * schemas beside the content folder as in the project (content/ and schemas/), which is where an
 * editor opening the repository finds them.
 */
function modelineFor(path: string, contentDir: string, dataset: DatasetDefinition): string {
  const schema = join(dirname(contentDir), basename(SCHEMA_DIR), dataset.brandSchema);
  return schemaModeline(relative(dirname(path), schema).split(sep).join("/"));
}
