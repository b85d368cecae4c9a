/**
 * The baseline of the publication guard: what "last published" is, read from one of
 *
 * - a manifest file (`--baseline <manifest.json>`);
 * - a git revision's content, built now without writing (`--baseline-ref <rev>`);
 * - the live deployment (`--baseline-url <url>`, or OPENDATA_DEPLOYMENT_URL on a publication):
 *   each data set's path fetched, and its meta.TotalResults read (the Worker does not serve the
 *   manifest, and the data sets themselves are what consumers see);
 * - the manifest.json in the output folder the build is about to replace (a local build).
 *
 * Which one each command uses is chosen by chooseBaseline, a pure function; loadBaseline reads it.
 */
import { sourcePlace } from "../core/diagnostics.js";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DATASETS } from "../core/datasets.js";
import { buildRevision, type RevisionCache } from "../revision.js";
import {
  BASELINE_FLAG,
  BASELINE_REF_FLAG,
  BASELINE_URL_FLAG,
  DEPLOYMENT_URL_ENV,
} from "./flags.js";
import { GuardUsageError, type PublishedCounts } from "./policy.js";
import { MANIFEST_FILE, type Manifest, type ManifestEntry } from "../../contract/manifest.js";
import { displayPath } from "../core/paths.js";

/** Each request to the deployment gives up after this long (a publication then stops). */
const BASELINE_FETCH_TIMEOUT_MS = 10_000;
/** The revision a publication compares with when neither a URL nor a revision is given. */
const DEFAULT_PUBLISH_REF = "HEAD";

/** Where the baseline comes from. */
type BaselineSource =
  | { readonly kind: "file"; readonly file: string }
  | { readonly kind: "ref"; readonly ref: string }
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "output" };

/** What the command line and the environment say about the baseline. */
export interface BaselineChoice {
  readonly file?: string;
  readonly ref?: string;
  readonly url?: string;
  /** The build is about to be published (`--publish`). */
  readonly publish: boolean;
  /** OPENDATA_DEPLOYMENT_URL, if set. */
  readonly deploymentUrl?: string;
}

/**
 * The one baseline a run compares with. At most one of `--baseline`, `--baseline-ref` and
 * `--baseline-url` may be given, and it wins. Otherwise a publication compares with the live
 * deployment when OPENDATA_DEPLOYMENT_URL is set, else with the content of the last commit
 * (HEAD: edits not yet committed are the change being published); a local build compares with
 * the output folder it replaces.
 */
export function chooseBaseline(choice: BaselineChoice): BaselineSource {
  const given = [
    choice.file !== undefined && `--${BASELINE_FLAG}`,
    choice.ref !== undefined && `--${BASELINE_REF_FLAG}`,
    choice.url !== undefined && `--${BASELINE_URL_FLAG}`,
  ].filter(Boolean);
  if (given.length > 1) throw new GuardUsageError(`give only one of ${given.join(", ")}`);
  if (choice.file !== undefined) return { kind: "file", file: choice.file };
  if (choice.ref !== undefined) return { kind: "ref", ref: choice.ref };
  if (choice.url !== undefined) return { kind: "url", url: choice.url };
  if (!choice.publish) return { kind: "output" };
  const url = choice.deploymentUrl?.trim();
  if (url) return { kind: "url", url };
  return { kind: "ref", ref: DEFAULT_PUBLISH_REF };
}

interface BaselineRequest {
  readonly source: BaselineSource;
  /** Output folder whose manifest.json is the baseline of a local build. */
  readonly outDir: string;
  readonly contentDir: string;
  /** Folder printed paths are relative to. */
  readonly cwd: string;
  /** The build cache the ref baseline's build uses (the command's own: --cache, --no-cache). */
  readonly cacheDir?: RevisionCache;
  /** For the URL baseline; tests pass a loopback server's URL, never anything else. */
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
}

/** The last published record counts, and how messages name where they came from. */
export interface Baseline {
  /** Undefined when nothing was published before: the guard then has nothing to compare. */
  readonly manifest: PublishedCounts | undefined;
  /** For messages: "dist/manifest.json", "the content of main (1a2b3c4)". */
  readonly name: string;
}

/** Reads the baseline `request.source` names. Problems are GuardUsageErrors, in plain words. */
export async function loadBaseline(request: BaselineRequest): Promise<Baseline> {
  const display = (path: string) => displayPath(request.cwd, path);
  const { source } = request;
  switch (source.kind) {
    case "file":
      return {
        manifest: await readManifest(source.file, display(source.file)),
        name: display(source.file),
      };
    case "ref": {
      const built = await buildRevision(
        request.contentDir,
        source.ref,
        request.cwd,
        request.cacheDir,
      );
      const name = `the content of ${built.label}`;
      if (!built.hasContent) return { manifest: undefined, name };
      if (!built.counts) {
        const first = built.problems[0];
        throw new GuardUsageError(
          `cannot compare with ${name}: it does not build (${built.problems.length} problem(s)` +
            (first ? `, first at ${sourcePlace(first)}: ${first.message}` : "") +
            `); pass --${BASELINE_FLAG} <manifest.json> instead`,
        );
      }
      return { manifest: built.counts, name };
    }
    case "url":
      return fetchPublished(source.url, request.fetch ?? fetch, request.timeoutMs);
    case "output": {
      const file = join(request.outDir, MANIFEST_FILE);
      if (!existsSync(file)) return { manifest: undefined, name: `${display(file)} (none yet)` };
      return { manifest: await readManifest(file, display(file)), name: display(file) };
    }
  }
}

/**
 * Each data set's record count as the deployment at `base` serves it: one GET per data set, one
 * at a time, each bounded by `timeoutMs`. A data set the deployment answers 404 for is not
 * published yet (nothing to compare); any other failure stops, since a publication must not go
 * ahead unguarded because the deployment was unreachable.
 */
export async function fetchPublished(
  base: string,
  fetchImpl: typeof fetch,
  timeoutMs = BASELINE_FETCH_TIMEOUT_MS,
): Promise<Baseline> {
  let origin: URL;
  try {
    origin = new URL(base);
  } catch {
    origin = new URL("invalid:");
  }
  if (origin.protocol !== "https:" && origin.protocol !== "http:") {
    throw new GuardUsageError(
      `${DEPLOYMENT_URL_ENV} (or --${BASELINE_URL_FLAG}) must be the deployment's http(s) address, such as https://opendata.example.com, not "${base}"`,
    );
  }
  const name = `the live data sets at ${origin.origin}`;
  const datasets: Pick<ManifestEntry, "dataset" | "totalResults">[] = [];
  for (const dataset of DATASETS) {
    const url = new URL(dataset.path, origin);
    const fail = (why: string) =>
      new GuardUsageError(
        `cannot read ${url.href} to compare with what is published: ${why}. Check ${DEPLOYMENT_URL_ENV}, or compare with a commit instead (--${BASELINE_REF_FLAG} <commit>)`,
      );
    let response: Response;
    try {
      response = await fetchImpl(url, {
        headers: { Accept: "application/json" },
        redirect: "follow",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw fail((error as Error).message);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw fail(`it answered ${response.status}`);
    }
    let total: unknown;
    try {
      total = ((await response.json()) as { meta?: { TotalResults?: unknown } }).meta?.TotalResults;
    } catch (error) {
      throw fail(`its body is not JSON (${(error as Error).message})`);
    }
    if (!Number.isInteger(total) || (total as number) < 0) {
      throw fail("its body has no meta.TotalResults");
    }
    datasets.push({ dataset: dataset.id, totalResults: total as number });
  }
  return { manifest: datasets.length > 0 ? { datasets } : undefined, name };
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
