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

/** Runs the import; resolves to the exit code (0 done, 1 refused or problems, 2 usage). */
export async function runImport(argv: string[], io: ImportIo): Promise<number> {
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
  const contentDir = values.content ? resolve(io.cwd, values.content) : CONTENT_DIR;

  const repair = values.repair === true;
  // Repairs are found for every feed, so an import without --repair can say what it would do.
  const repairs: FileRepair[] = [];
  const texts = new Map<string, string>();
  let ajv: Ajv | undefined;
  let writes: BrandWrite[];
  try {
    const wanted = values.dataset === undefined ? undefined : datasetById(values.dataset);
    const splitBy =
      values["split-by"] === undefined ? undefined : parseFieldPath(values["split-by"]);
    writes = [];
    const importedAt = dateToRfc3339(io.now());
    for (const input of positionals) {
      const loaded = await loadFeed(input, {
        cwd: io.cwd,
        dataset: wanted,
        timeoutSeconds,
        fetch: io.fetch,
      });
      const feed = readFeed(loaded.value, loaded.source, wanted);
      for (const brand of planImport(feed, loaded.source, splitBy)) {
        const clash = writes.find((w) => w.dataset === feed.dataset && w.slug === brand.slug);
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
          texts.set(shown, text);
          for (const r of found.repairs) repairs.push({ ...r, file: shown });
        }
        writes.push({ ...brand, dataset: feed.dataset, files });
      }
    }
    await refuseExisting(contentDir, io.cwd, writes, values.force === true);
  } catch (error) {
    if (error instanceof ImportError) {
      io.stderr(`import: ${error.message}`);
      return 1;
    }
    throw error;
  }

  const written = new Set<string>();
  for (const write of writes) {
    let paths: string[];
    try {
      paths = await writeBrand(contentDir, write);
    } catch (error) {
      io.stderr(`import: ${(error as Error).message}`);
      return 1;
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

  // The repairs, by kind, at their places in the files just written.
  const sources = new Map<string, YamlSource>();
  const sourceOf = (file: string) => {
    let source = sources.get(file);
    if (!source) sources.set(file, (source = parseYaml(file, texts.get(file) ?? "")));
    return source;
  };
  repairLines(repairs, repair, (file, pointer) => locate(sourceOf(file), pointer)).forEach((line) =>
    io.stdout(line),
  );
  if (!repair && repairs.length > 0) {
    io.stdout(
      `These repairs lose nothing and invent nothing (docs/editing.md, "Repairs"). To make them, run the import again with --repair (and --force to replace what this run wrote).`,
    );
  }

  const datasets = [...new Set<DatasetDefinition>(writes.map((w) => w.dataset))];
  const { problems, quality } = await checkWritten(datasets, written, {
    contentDir,
    cwd: io.cwd,
    cacheDir: chosenCache(values, io.cwd) ?? io.cacheDir ?? CACHE_DIR,
    today: io.now().toISOString().slice(0, 10),
  });
  const verbose = values.verbose === true;
  const howToSeeAll = "--verbose or --report FILE lists every one";
  if (values.report !== undefined) {
    const locators = new Map<string, ReturnType<typeof locator>>();
    const at = (file: string, pointer: string) => {
      let find = locators.get(file);
      if (!find) locators.set(file, (find = locator(sourceOf(file))));
      return find(pointer);
    };
    const told = repairs.map((r) => repairDiagnostic(r, repair, at(r.file, r.pointer)));
    await writeFile(
      resolve(io.cwd, values.report),
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
