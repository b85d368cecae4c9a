/**
 * The publication guard: the build refuses to publish a data set that shrinks by more than a set
 * share of its records (meta.TotalResults) against the last published one, or that becomes empty,
 * unless the run says explicitly that this is intended. Real publishers have served an ATM feed
 * cut from about 1,200 records to 62, and `data: []`; both would have been stopped here.
 *
 * The policy (names, default share) is defined once, here; the CLI, the workflows' documentation
 * and the tests use these constants.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { DATASETS } from "./datasets.js";
import type { Diagnostic } from "./diagnostics.js";
import { MANIFEST_FILE, type Manifest, type ManifestEntry } from "./manifest.js";

/** Command-line flag that publishes despite a shrink (`--allow-shrink`). */
export const ALLOW_SHRINK_FLAG = "allow-shrink";
/** Environment variable that does the same (`OPENDATA_ALLOW_SHRINK=1`). */
export const ALLOW_SHRINK_ENV = "OPENDATA_ALLOW_SHRINK";
/** Command-line flag for the largest share of records a data set may lose (`--max-shrink 0.2`). */
export const MAX_SHRINK_FLAG = "max-shrink";
/** Default largest share a data set may lose in one publication: 20%. */
export const DEFAULT_MAX_SHRINK = 0.2;
/** Command-line flag naming a manifest.json to compare with (`--baseline <file>`). */
export const BASELINE_FLAG = "baseline";
/** Command-line flag naming a git revision whose content is built and compared with. */
export const BASELINE_REF_FLAG = "baseline-ref";
/** The rule name guard problems carry. */
export const GUARD_RULE = "guard";

export interface GuardOptions {
  /** Largest share of records (0 to 1) a data set may lose; more is refused. */
  readonly maxShrink: number;
  /** The explicit override: publish anyway. */
  readonly allowShrink: boolean;
  /** What the previous manifest is, for messages ("dist/manifest.json", "main (1a2b3c4)"). */
  readonly baseline: string;
  /** The content folder as printed in messages; problems are reported at each data set's folder. */
  readonly contentDir?: string;
}

/** A data set that would lose more records than allowed, or all of them. */
export interface Shrink {
  readonly dataset: string;
  readonly title: string;
  readonly before: number;
  readonly after: number;
  /** Share of records lost, 0 to 1. */
  readonly share: number;
  readonly empty: boolean;
}

/**
 * Data sets of `next` that lose more than `maxShrink` of the records they have in `previous`, or
 * all of them. A data set that was empty or absent before is never a shrink.
 */
export function findShrinks(
  previous: Manifest | undefined,
  next: Manifest,
  maxShrink: number,
): Shrink[] {
  if (!previous) return [];
  const before = new Map<string, ManifestEntry>(previous.datasets.map((e) => [e.dataset, e]));
  const shrinks: Shrink[] = [];
  for (const entry of next.datasets) {
    const old = before.get(entry.dataset);
    if (!old || old.totalResults <= 0) continue;
    const lost = old.totalResults - entry.totalResults;
    const share = lost / old.totalResults;
    const empty = entry.totalResults === 0;
    if (empty || share > maxShrink) {
      shrinks.push({
        dataset: entry.dataset,
        title: titleOf(entry.dataset),
        before: old.totalResults,
        after: entry.totalResults,
        share,
        empty,
      });
    }
  }
  return shrinks;
}

/**
 * The guard as the build's last check: one problem per data set that would shrink too far or
 * become empty, none when the override is given. Pure: the caller supplies both manifests.
 */
export function guardPublication(
  previous: Manifest | undefined,
  next: Manifest,
  options: GuardOptions,
): Diagnostic[] {
  if (options.allowShrink) return [];
  const contentDir = options.contentDir ?? "content";
  return findShrinks(previous, next, options.maxShrink).map((shrink) => ({
    file: `${contentDir}/${folderOf(shrink.dataset)}`,
    line: 1,
    column: 1,
    pointer: "",
    rule: GUARD_RULE,
    message: `${describeShrink(shrink, options)}. ${OVERRIDE_HINT}`,
  }));
}

/** How to publish anyway, named in every refusal. */
export const OVERRIDE_HINT =
  `If this is intended, build again with --${ALLOW_SHRINK_FLAG} or ${ALLOW_SHRINK_ENV}=1 ` +
  `(the limit is set with --${MAX_SHRINK_FLAG}, default ${percent(DEFAULT_MAX_SHRINK)}).`;

/** One sentence: what would happen to the data set, against what. */
export function describeShrink(
  shrink: Shrink,
  options: Pick<GuardOptions, "maxShrink" | "baseline">,
): string {
  const { title, before, after } = shrink;
  return shrink.empty
    ? `${title} would be published empty: 0 records, where ${options.baseline} has ${before}`
    : `${title} would shrink from ${before} to ${after} records (${percent(shrink.share)} fewer), ` +
        `more than the ${percent(options.maxShrink)} allowed, against ${options.baseline}`;
}

/** Reads OPENDATA_ALLOW_SHRINK: 1/true/yes is on; unset, empty, 0/false/no is off. */
export function allowShrinkFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env[ALLOW_SHRINK_ENV] ?? "").trim().toLowerCase();
  if (["1", "true", "yes"].includes(value)) return true;
  if (["", "0", "false", "no"].includes(value)) return false;
  throw new GuardUsageError(
    `${ALLOW_SHRINK_ENV} must be 1 (publish despite a shrink) or 0, not "${env[ALLOW_SHRINK_ENV]}"`,
  );
}

/** Parses `--max-shrink`: a share such as 0.2, or a percentage such as 20%. */
export function parseMaxShrink(text: string): number {
  const trimmed = text.trim();
  const match = /^(\d+(?:\.\d+)?|\.\d+)(%?)$/.exec(trimmed);
  const value = match ? Number(match[1]) / (match[2] ? 100 : 1) : Number.NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new GuardUsageError(
      `--${MAX_SHRINK_FLAG} must be a share from 0 to 1 (such as ${DEFAULT_MAX_SHRINK}) or a percentage (such as ${percent(DEFAULT_MAX_SHRINK)}), not "${text}"`,
    );
  }
  return value;
}

/** A guard setting that cannot be used; the CLI prints the message and exits 2. */
export class GuardUsageError extends Error {}

// ---- the baseline: what "last published" is ------------------------------------------------

export interface BaselineRequest {
  /** `--baseline <manifest.json>`. */
  readonly manifestFile?: string;
  /** `--baseline-ref <git ref>`: built from that revision's content. */
  readonly ref?: string;
  /** Output folder whose manifest.json is the default baseline. */
  readonly outDir: string;
  readonly contentDir: string;
  /** Folder printed paths are relative to. */
  readonly cwd: string;
}

export interface Baseline {
  /** Undefined when nothing was published before: the guard then has nothing to compare. */
  readonly manifest: Manifest | undefined;
  /** For messages: "dist/manifest.json", "the content of main (1a2b3c4)". */
  readonly name: string;
}

/** Builds one revision's content without writing; injected so tests and the CLI share it. */
export type RevisionBuilder = (
  contentDir: string,
  ref: string,
  cwd: string,
) => Promise<{
  label: string;
  hasContent: boolean;
  manifest: Manifest | undefined;
  problems: readonly Diagnostic[];
}>;

/**
 * Finds the last published manifest: `--baseline <file>`, else `--baseline-ref <ref>` (that
 * revision's content, built now), else the manifest.json in the output folder the build is about
 * to replace (none on a first build: nothing to compare).
 */
export async function loadBaseline(
  request: BaselineRequest,
  buildRevision: RevisionBuilder,
): Promise<Baseline> {
  const display = (path: string) => relative(request.cwd, path).split(sep).join("/") || ".";
  if (request.manifestFile !== undefined && request.ref !== undefined) {
    throw new GuardUsageError(`give --${BASELINE_FLAG} or --${BASELINE_REF_FLAG}, not both`);
  }
  if (request.manifestFile !== undefined) {
    return {
      manifest: await readManifest(request.manifestFile, display(request.manifestFile)),
      name: display(request.manifestFile),
    };
  }
  if (request.ref !== undefined) {
    const built = await buildRevision(request.contentDir, request.ref, request.cwd);
    const name = `the content of ${built.label}`;
    if (!built.hasContent) return { manifest: undefined, name };
    if (!built.manifest) {
      const first = built.problems[0];
      throw new GuardUsageError(
        `cannot compare with ${name}: it does not build (${built.problems.length} problem(s)` +
          (first
            ? `, first at ${first.file}:${first.line}:${first.column}: ${first.message}`
            : "") +
          `); pass --${BASELINE_FLAG} <manifest.json> instead`,
      );
    }
    return { manifest: built.manifest, name };
  }
  const file = join(request.outDir, MANIFEST_FILE);
  if (!existsSync(file)) return { manifest: undefined, name: `${display(file)} (none yet)` };
  return { manifest: await readManifest(file, display(file)), name: display(file) };
}

async function readManifest(path: string, name: string): Promise<Manifest> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new GuardUsageError(
      `cannot read the baseline manifest ${name}: ${(error as Error).message}`,
    );
  }
  const datasets = (parsed as { datasets?: unknown } | null)?.datasets;
  const valid =
    Array.isArray(datasets) &&
    datasets.every(
      (e) =>
        typeof (e as ManifestEntry)?.dataset === "string" &&
        Number.isInteger((e as ManifestEntry)?.totalResults),
    );
  if (!valid) {
    throw new GuardUsageError(
      `the baseline ${name} is not a build manifest (it needs a "datasets" list whose entries have "dataset" and "totalResults")`,
    );
  }
  return parsed as Manifest;
}

function titleOf(id: string): string {
  return DATASETS.find((d) => d.id === id)?.title ?? id;
}

function folderOf(id: string): string {
  return DATASETS.find((d) => d.id === id)?.contentDir ?? id;
}

function percent(share: number): string {
  return `${Number((share * 100).toFixed(1))}%`;
}
