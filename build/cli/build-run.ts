/**
 * `npm run build` and `npm run validate`, with their surroundings passed in (working folder,
 * environment, output) so tests run them in-process; build.ts is the process around it. Prints every problem as `file:line:column: pointer:
 * message` on stderr and exits 1 when there are any; on success `build` prints the summary table.
 * Under GitHub Actions every problem is also printed as an `::error` annotation on stdout.
 * `build` runs the publication guard (guard/policy.ts) against the last published data (guard/
 * baseline.ts): with `--publish` a shrink fails the run; without, it is printed as a warning.
 */
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { CACHE_OPTIONS, chosenCache, parseCommandLine } from "./args.js";
import type { CommandIo } from "./io.js";
import { allowShrinkFromEnv, parseMaxShrink } from "../guard/settings.js";
import { underGitHubActions, annotation, diagnosticAnnotation } from "./annotations.js";
import { chooseBaseline, loadBaseline } from "../guard/baseline.js";
import {
  ALLOW_SHRINK_ENV,
  ALLOW_SHRINK_FLAG,
  BASELINE_FLAG,
  BASELINE_REF_FLAG,
  BASELINE_URL_FLAG,
  DEPLOYMENT_URL_ENV,
  MAX_SHRINK_FLAG,
  PUBLISH_FLAG,
} from "../guard/flags.js";
import {
  DEFAULT_MAX_SHRINK,
  GUARD_NAME,
  guardPublication,
  guardReport,
  GuardUsageError,
  type GuardOptions,
  type PublishedCounts,
} from "../guard/policy.js";
import { CONTENT_DIR, DIST_DIR } from "../core/paths.js";
import {
  runBuild,
  runValidate,
  type BuildResult,
  type StepTimings,
  type ValidateTimings,
} from "../pipeline.js";
import { qualityMarkdown, qualitySummary } from "../quality/report.js";
import { diagnosticLines, problemReport } from "./problem-report.js";
import { RevisionError } from "../revision.js";
import { summaryTable } from "./published-table.js";
import { cacheMissLine } from "./cache-note.js";
import { InternalError } from "../core/internal-error.js";

export const USAGE = `usage: node .out/build/cli/build.js <build|validate> [--content DIR] [--out DIR] [--${PUBLISH_FLAG}]
         [--${BASELINE_FLAG} FILE | --${BASELINE_REF_FLAG} REF | --${BASELINE_URL_FLAG} URL]
         [--${MAX_SHRINK_FLAG} SHARE] [--${ALLOW_SHRINK_FLAG}]

  build     validate content/ and write dist/ (data, precompressed variants, manifest.json)
  validate  the same checks, stopping before anything is encoded: compresses, indexes and
            writes nothing (the build cache keeps what a build then reuses)

publication guard (always on for build; on for validate when a baseline is given):
  finds a data set that loses more than SHARE of its records, or all of them, against the last
  published data: --${BASELINE_FLAG} FILE, --${BASELINE_REF_FLAG} REF (that git revision's content, built now)
  or --${BASELINE_URL_FLAG} URL (the data sets a deployment serves). Without one, a local build compares
  with the manifest.json in the output folder being replaced, and a publication with
  ${DEPLOYMENT_URL_ENV} if set, else with the last commit (HEAD).
  --${PUBLISH_FLAG}        this build is about to be published: refuse a shrink (otherwise only warn)
  --${MAX_SHRINK_FLAG} SHARE   0 to 1, or a percentage (default ${DEFAULT_MAX_SHRINK})
  --${ALLOW_SHRINK_FLAG}       publish anyway (or set ${ALLOW_SHRINK_ENV}=1)

speed:
  --cache DIR     build cache folder (default: .cache/build/; safe to delete)
  --no-cache      neither read nor write the build cache
  --threads N     worker threads for parsing and validation (default: the cores available)
  --timings       print the time spent in each step the command runs, by the step's name

data quality (warnings; site.yaml's QualityErrors makes rules errors):
  --quality FILE  also write the data-quality findings as a Markdown report to FILE

output:
  --verbose       print every problem and warning; otherwise a kind seen more than a handful of
                  times prints its first few and how many more there are`;

/**
 * Runs `build` or `validate`; resolves to the exit code (0 done, 1 problems, 2 usage or a fault of
 * the build's own). Content never makes it 2: its problems are Diagnostics, printed at their file
 * and line with exit 1. A fault of the build is said in one line naming what it was working on
 * (core/internal-error.ts), its stack only with --verbose; dist/ is left as it was.
 */
export async function runBuildCommand(argv: string[], io: CommandIo): Promise<number> {
  try {
    return await runRequested(argv, io);
  } catch (error) {
    io.stderr(internalErrorLine(error));
    if (argv.includes("--verbose") && error instanceof Error) {
      const cause = error instanceof InternalError ? error.cause : error;
      io.stderr(cause instanceof Error && cause.stack ? cause.stack : String(cause));
    }
    return 2;
  }
}

/** The one line a fault of the build's own is told in. */
export function internalErrorLine(error: unknown): string {
  const message =
    error instanceof InternalError ? error.message : `internal error: ${firstLine(error)}`;
  return `build failed: ${message} (not a problem of the content; --verbose prints its stack). dist/ is unchanged.`;
}

const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split("\n", 1)[0]!;

async function runRequested(argv: string[], io: CommandIo): Promise<number> {
  const request = parseRequest(argv, io);
  if (typeof request === "number") return request;
  const { command, values, threads } = request;
  const contentDir = values.content ? resolve(io.cwd, values.content) : undefined;
  const outDir = values.out ? resolve(io.cwd, values.out) : undefined;
  const cacheDir = chosenCache(values, io.cwd);
  // The guard: settings first, so a bad setting stops the run before any work.
  const guard = await guardFor(request, io, { contentDir, outDir, cacheDir });
  if (typeof guard === "number") return guard;

  // What the guard compared with, once it has seen the counts (the build's manifest is one).
  let published: PublishedCounts | undefined;
  const lastCheck = guard
    ? (next: PublishedCounts) => {
        published = next;
        // Only a publication is refused; a local build publishes nothing, so it warns below.
        if (!guard.options.publish) return [];
        return guardPublication(guard.previous, next, guard.options);
      }
    : undefined;
  const options = {
    contentDir,
    cwd: io.cwd,
    env: io.env,
    cacheDir,
    threads,
  };
  // validate stops after the checks: nothing is encoded, indexed or written.
  const result =
    command === "build"
      ? await runBuild({ ...options, outDir, beforeWrite: lastCheck })
      : await runValidate({ ...options, lastCheck });
  const annotate = underGitHubActions(io.env);
  // One line on why a build was slow: it could use nothing the cache holds.
  const cacheMiss = values["no-cache"] ? "--no-cache was given" : result.cacheMiss;
  if (cacheMiss) io.stderr(cacheMissLine(cacheMiss, command));
  // One line when the changes endpoints could not read the data sets' history (no git).
  if (result.ok && "historyNote" in result && result.historyNote) io.stderr(result.historyNote);
  if (values.timings) for (const line of timingLines(result.timings)) io.stderr(line);
  if (!result.ok) {
    const report = problemReport(result.diagnostics, {
      annotate,
      fileNoun: "file",
      nextStep: command === "build" ? "Nothing was published: dist/ is unchanged." : "",
      verbose: values.verbose === true,
    });
    for (const line of report.stdout) io.stdout(line);
    for (const line of report.stderr) io.stderr(line);
    return 1;
  }
  const report = values.quality;
  await reportQuality(io, result.quality, annotate, report, values.verbose === true);
  if ("manifest" in result) {
    if (result.sites === undefined) io.stdout(summaryTable(result.datasets));
    // With site.yaml's Sites, a table per site, under its name and host.
    for (const site of result.sites ?? []) {
      io.stdout(`Site ${site.name} (https://${site.host}/):\n${summaryTable(site.datasets)}\n`);
    }
    io.stdout(`\n${result.filesChecked} content files checked; dist/ written.`);
  } else {
    io.stdout(`${result.filesChecked} content files are valid.`);
  }
  if (guard && published) reportGuard(io, guard, published, annotate);
  return 0;
}

const OPTIONS = {
  content: { type: "string" },
  out: { type: "string" },
  [BASELINE_FLAG]: { type: "string" },
  [BASELINE_REF_FLAG]: { type: "string" },
  [BASELINE_URL_FLAG]: { type: "string" },
  [PUBLISH_FLAG]: { type: "boolean" },
  [MAX_SHRINK_FLAG]: { type: "string" },
  [ALLOW_SHRINK_FLAG]: { type: "boolean" },
  ...CACHE_OPTIONS,
  threads: { type: "string" },
  timings: { type: "boolean" },
  quality: { type: "string" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** What the command line asks for, or the exit code when it asks for nothing to run. */
function parseRequest(argv: string[], io: CommandIo) {
  const parsed = parseCommandLine(argv, OPTIONS, USAGE, io.stderr);
  if (!parsed) return 2;
  const { positionals, values } = parsed;
  const command = positionals[0];
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  const badThreads = threads !== undefined && !(Number.isInteger(threads) && threads >= 1);
  if (values.help || !isCommand(command) || positionals.length > 1 || badThreads) {
    io.stderr(badThreads ? `--threads takes a whole number of 1 or more\n\n${USAGE}` : USAGE);
    return values.help ? 0 : 2;
  }
  return { command, values, threads };
}

const isCommand = (word: string | undefined): word is "build" | "validate" =>
  word === "build" || word === "validate";

/**
 * The publication guard this run applies, with the baseline it compares with: for a build, a
 * publication or a baseline asked for; undefined for a validate that asks for none; 2 (the exit
 * code) for a setting it cannot take.
 */
async function guardFor(
  { command, values }: Exclude<ReturnType<typeof parseRequest>, number>,
  io: CommandIo,
  dirs: { contentDir?: string; outDir?: string; cacheDir: string | false | undefined },
): Promise<Guard | undefined | 2> {
  const baselineFile = values[BASELINE_FLAG];
  const baselineRef = values[BASELINE_REF_FLAG];
  const baselineUrl = values[BASELINE_URL_FLAG];
  const publish = values[PUBLISH_FLAG] === true;
  const asked =
    baselineFile !== undefined || baselineRef !== undefined || baselineUrl !== undefined;
  if (command !== "build" && !publish && !asked) return undefined;
  try {
    const maxShrink = parseMaxShrink(values[MAX_SHRINK_FLAG]);
    const allowShrink = values[ALLOW_SHRINK_FLAG] === true || allowShrinkFromEnv(io.env);
    const source = chooseBaseline({
      file: baselineFile === undefined ? undefined : resolve(io.cwd, baselineFile),
      ref: baselineRef,
      url: baselineUrl,
      publish,
      deploymentUrl: io.env[DEPLOYMENT_URL_ENV],
    });
    const baseline = await loadBaseline({
      source,
      outDir: dirs.outDir ?? DIST_DIR,
      contentDir: dirs.contentDir ?? CONTENT_DIR,
      cwd: io.cwd,
      cacheDir: dirs.cacheDir,
    });
    return {
      previous: baseline.manifest,
      options: { maxShrink, allowShrink, baseline: baseline.name, publish },
    };
  } catch (error) {
    if (error instanceof GuardUsageError || error instanceof RevisionError) {
      io.stderr(`${GUARD_NAME}: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

/** The data-quality warnings (annotated under Actions), their summary, and the report if asked. */
async function reportQuality(
  io: CommandIo,
  quality: BuildResult["quality"],
  annotate: boolean,
  reportFile: string | undefined,
  verbose: boolean,
): Promise<void> {
  if (annotate) for (const d of quality.warnings) io.stdout(diagnosticAnnotation(d));
  for (const line of diagnosticLines(quality.warnings, { verbose })) io.stderr(line);
  for (const line of qualitySummary(quality.counts)) io.stdout(line);
  if (reportFile !== undefined) {
    await writeFile(resolve(io.cwd, reportFile), qualityMarkdown(quality.counts, quality.warnings));
  }
}

interface Guard {
  /** What is published now; undefined when nothing was. */
  readonly previous: PublishedCounts | undefined;
  /** `publish` (`--publish`): a shrink fails the run; otherwise it is a warning. */
  readonly options: GuardOptions & { readonly publish: boolean };
}

/** After a run the guard let through: what it compared with, or each shrink it let through. */
function reportGuard(io: CommandIo, guard: Guard, next: PublishedCounts, annotate: boolean): void {
  const report = guardReport(guard.previous, next, guard.options);
  for (const message of report.warnings) {
    io.stderr(`${GUARD_NAME}: ${message}`);
    if (annotate) io.stdout(annotation("warning", message, { title: GUARD_NAME }));
  }
  if (report.summary) io.stdout(report.summary);
}

/**
 * `--timings`: the time of each step the run made, in the pipeline's order and under its names
 * (core/timings.ts), then the parts summed across threads.
 */
function timingLines(timings: StepTimings | ValidateTimings): string[] {
  const { parts, ...steps } = timings;
  const show = (entries: [string, number][]) =>
    entries.map(([name, ms]) => `${name.replace(/Ms$/, "")} ${Math.round(ms)} ms`).join(", ");
  // encode and near run at once (pipeline.ts), so the two overlap: say so where both are shown.
  const overlap = "encode" in steps && "near" in steps ? " (encode and near at once)" : "";
  return [
    `timings: ${show(Object.entries(steps))}${overlap}`,
    // A copy: its type is an object literal's, whose values Object.entries knows are numbers.
    `  parts (time in each, summed across threads): ${show(Object.entries({ ...parts }))}`,
  ];
}
