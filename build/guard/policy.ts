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
 * The policy (rule, default share, messages) is defined once, here. The flags and environment
 * variables that set it are named in flags.ts and read in settings.ts.
 */
import { ALLOW_SHRINK_ENV, ALLOW_SHRINK_FLAG, MAX_SHRINK_FLAG } from "./flags.js";
import { findDataset } from "../core/datasets.js";
import { atFileStart, type Diagnostic } from "../core/diagnostics.js";
import { percent } from "../core/format.js";
import type { ManifestEntry } from "../../contract/manifest.js";

/** Default largest share a data set may lose in one publication: 20%. */
export const DEFAULT_MAX_SHRINK = 0.2;
/** The rule name guard problems carry. */
export const GUARD_RULE = "guard";
/** What the guard's messages and annotations are titled. */
export const GUARD_NAME = "publication guard";

/** The guard's settings for one run. */
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
  /**
   * With site.yaml's Sites, each site's counts by its Name (a Manifest's `sites` are these):
   * each site's data sets are compared with the same site's before.
   */
  readonly sites?: ReadonlyArray<{ readonly name: string; readonly manifest: PublishedCounts }>;
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
  // Each site against the same site before (a site new since then is never a shrink).
  for (const site of next.sites ?? []) {
    const before = previous.sites?.find((s) => s.name === site.name)?.manifest;
    for (const shrink of findShrinks(before, site.manifest, maxShrink)) {
      shrinks.push({ ...shrink, title: `${shrink.title} of the site ${site.name}` });
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

/** What the guard says after a run it let through. */
interface GuardReport {
  /** One per shrink it let through, saying why: the override, or a run that publishes nothing. */
  readonly warnings: readonly string[];
  /** What it compared with, when it let no shrink through. */
  readonly summary: string | undefined;
}

/**
 * After a run the guard let through: any shrink it let through, because the override asked or
 * because the run publishes nothing (`publish` false: a warning); else what it compared with.
 */
export function guardReport(
  previous: PublishedCounts | undefined,
  next: PublishedCounts,
  options: GuardOptions & { readonly publish: boolean },
): GuardReport {
  const allowed = findShrinks(previous, next, options.maxShrink);
  const warnings = allowed.map((shrink) => {
    const described = describeShrink(shrink, options);
    return options.publish || options.allowShrink
      ? `${described}; published anyway, as the override asked`
      : `warning: ${described}; built anyway, since this build publishes nothing. ` +
          `Publishing it (\`npm run deploy\`, the Deploy workflow) would be refused unless ` +
          `told it is intended: ${ALLOW_SHRINK_ENV}=1 npm run deploy, or the workflow's ` +
          `"allow_shrink".`;
  });
  if (allowed.length > 0) return { warnings, summary: undefined };
  const summary = previous
    ? `Publication guard: compared with ${options.baseline}; no data set lost more than ${percent(options.maxShrink)} of its records.`
    : `Publication guard: nothing to compare with (${options.baseline}).`;
  return { warnings, summary };
}

/** How to publish anyway, named in every refusal. */
const OVERRIDE_HINT =
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

/**
 * A guard setting, or a baseline, that cannot be used (settings.ts, baseline.ts); the CLI
 * prints the message and exits 2.
 */
export class GuardUsageError extends Error {}

function titleOf(id: string): string {
  return findDataset(id)?.title ?? id;
}

function folderOf(id: string): string {
  return findDataset(id)?.contentDir ?? id;
}
