/**
 * The publication guard: the build refuses to publish a data set that shrinks by more than a set
 * share of its records (meta.TotalResults) against the last published one, or that becomes empty,
 * unless the run says explicitly that this is intended. Real publishers have served an ATM feed
 * cut from about 1,200 records to 62, and `data: []`; both would have been stopped here.
 *
 * It refuses only a publication (`--publish`: `npm run deploy` and the Deploy workflow); a local
 * build (`npm run build`, `npm start`) reports the same shrink as a warning and goes on, since it
 * publishes nothing. What it compares with is read by baseline.ts; this module is the policy.
 *
 * The policy (names, default share) is defined once, here; the CLI, the workflows' documentation
 * and the tests use these constants.
 */
import { DATASETS } from "./datasets.js";
import { atFileStart, type Diagnostic } from "./diagnostics.js";
import type { ManifestEntry } from "../worker/manifest.js";

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
/** Command-line flag naming the deployment whose live data sets are compared with. */
export const BASELINE_URL_FLAG = "baseline-url";
/** Environment variable with the deployment's URL, the baseline of a publication when set. */
export const DEPLOYMENT_URL_ENV = "OPENDATA_DEPLOYMENT_URL";
/** Command-line flag saying the build is about to be published: a shrink is refused, not warned. */
export const PUBLISH_FLAG = "publish";
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

/** What the guard needs of a publication: each data set's record count. A Manifest is one. */
export interface PublishedCounts {
  readonly datasets: ReadonlyArray<Pick<ManifestEntry, "dataset" | "totalResults">>;
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
  previous: PublishedCounts | undefined,
  next: PublishedCounts,
  maxShrink: number,
): Shrink[] {
  if (!previous) return [];
  const before = new Map(previous.datasets.map((e) => [e.dataset, e]));
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
  previous: PublishedCounts | undefined,
  next: PublishedCounts,
  options: GuardOptions,
): Diagnostic[] {
  if (options.allowShrink) return [];
  const contentDir = options.contentDir ?? "content";
  return findShrinks(previous, next, options.maxShrink).map((shrink) =>
    atFileStart(
      `${contentDir}/${folderOf(shrink.dataset)}`,
      GUARD_RULE,
      `${describeShrink(shrink, options)}. ${OVERRIDE_HINT}`,
    ),
  );
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

function titleOf(id: string): string {
  return DATASETS.find((d) => d.id === id)?.title ?? id;
}

function folderOf(id: string): string {
  return DATASETS.find((d) => d.id === id)?.contentDir ?? id;
}

function percent(share: number): string {
  return `${Number((share * 100).toFixed(1))}%`;
}
