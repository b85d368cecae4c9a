/**
 * Steps 1 to 3 in one call: read the content, check each file (in parallel, through the cache),
 * check across files. The build runs it on all the content; the importer on the data sets it
 * wrote, so an imported file gets exactly the problems `npm run validate` reports, at its lines.
 */
import { join } from "node:path";
import type { SiteSettings } from "../read/site.js";
import type { BuildContext } from "../core/context.js";
import { DATASETS, type DatasetDefinition } from "../core/datasets.js";
import { atFileStart, type Diagnostic } from "../core/diagnostics.js";
import { displayPath } from "../core/paths.js";
import { timeAsync } from "../core/timings.js";
import { brandJobs, contentJobs, type FileJob } from "../read/check-jobs.js";
import { ContentTexts } from "../read/texts.js";
import { discoverContent, SITE_FILE, type ContentTree } from "../read/content.js";
import { checkBrands, withCheckedFiles, type CheckedUnit } from "./across-files.js";
import { checkFiles, jobKeys } from "./cached-checks.js";
import { checkSites } from "./sites.js";
import type { CheckedFile } from "./one-file.js";

export interface ContentCheckOptions extends Pick<
  BuildContext,
  "contentDir" | "cwd" | "ajv" | "cache" | "threads" | "timings" | "profile"
> {
  /**
   * Only these data sets' brand files (the importer's); by default every data set and the site
   * file, whose absence is then a problem too.
   */
  readonly datasets?: readonly DatasetDefinition[];
}

export interface CheckedContent {
  readonly tree: ContentTree;
  /** Every file checked, in the order checked. */
  readonly jobs: readonly FileJob[];
  /** Each job's cache key, in the order of `jobs`. */
  readonly keys: readonly (string | undefined)[];
  /** Each data set's brands with their checked files. */
  readonly units: ReadonlyMap<DatasetDefinition, CheckedUnit[]>;
  /** The site settings, when site.yaml is there and valid. */
  readonly settings: SiteSettings | undefined;
  /** Every problem found, unsorted. */
  readonly diagnostics: Diagnostic[];
}

/** Reads and checks the content: each file on its own, then the brands of each data set together. */
export async function checkContent(options: ContentCheckOptions): Promise<CheckedContent> {
  const { contentDir, cwd, cache, timings } = options;
  const datasets = options.datasets ?? DATASETS;
  const whole = options.datasets === undefined;

  // 1. read
  const tree = await timeAsync(timings, "read", () => discoverContent(contentDir, cwd));
  const listed = await timeAsync(timings, "read", async () => {
    // Only files changed since a build last read them are read (read/texts.ts).
    const texts = await ContentTexts.open(cache);
    const read = whole
      ? await contentJobs(tree, texts)
      : await brandJobs(
          datasets.flatMap((d) => tree.units.get(d.id) ?? []),
          texts,
        );
    await texts.save();
    return read;
  });
  // A file listed but not readable is a problem at it, and is not checked.
  const unreadable = listed.filter((job) => job.unreadable !== undefined);
  const jobs =
    unreadable.length > 0 ? listed.filter((job) => job.unreadable === undefined) : listed;

  // 2. check each file (in parallel, cached)
  const keys = jobKeys(jobs, cache);
  const checked = await timeAsync(timings, "check", () =>
    checkFiles(jobs, {
      ajv: options.ajv,
      cache,
      keys,
      // Kept between the builds of one process when the profile keeps a memory (the preview's).
      kept: options.profile?.memory?.part("checks", () => new Map<string, CheckedFile>()),
      threads: options.threads,
      timing: timings?.parts,
    }),
  );
  const byFile = new Map<string, CheckedFile>(checked.map((c) => [c.file, c]));
  const diagnostics = [
    ...tree.problems,
    ...unreadable.map((job) => atFileStart(job.file, "content", job.unreadable!)),
    ...checked.flatMap((file) => file.diagnostics),
  ];
  const siteResult = tree.siteFile && byFile.get(tree.siteFile.display);
  const settings = siteResult?.valid ? (siteResult.value as SiteSettings) : undefined;
  if (whole && !tree.siteFile)
    diagnostics.push(missingSite(displayPath(cwd, join(contentDir, SITE_FILE))));

  // 3. check across files
  const units = new Map<DatasetDefinition, CheckedUnit[]>();
  await timeAsync(timings, "crossCheck", () => {
    for (const dataset of datasets) {
      const datasetUnits = withCheckedFiles(tree.units.get(dataset.id) ?? [], byFile);
      diagnostics.push(...checkBrands(datasetUnits));
      units.set(dataset, datasetUnits);
    }
  });
  // Sites name brands of the whole content: the importer, which checks a few data sets, leaves
  // them to the build.
  if (whole && settings && tree.siteFile) {
    const sites = await timeAsync(timings, "crossCheck", () =>
      checkSites(tree.siteFile!, settings, units),
    );
    diagnostics.push(...sites);
  }
  return { tree, jobs, keys, units, settings, diagnostics };
}

function missingSite(file: string): Diagnostic {
  const message = `${SITE_FILE} is missing: it sets meta.License and meta.TermsOfUse (see docs/editing.md, "Content")`;
  return atFileStart(file, "content", message);
}
