/**
 * Step 2, check each file, through the cache: files whose result the cache holds are not checked
 * again; the rest go to the check pool, and what it finds valid is stored for the next build.
 */
import type { BuildCache } from "../core/cache.js";
import type { BuildContext } from "../core/context.js";
import { fromCacheEntry, fromTransferable, toCacheEntry } from "./codecs.js";
import type { CheckedFile } from "./one-file.js";
import { checkInPool } from "./pool.js";
import type { CheckJob } from "../read/check-jobs.js";
import type { CheckTiming } from "../core/timings.js";

export interface CheckOptions extends Pick<BuildContext, "ajv" | "cache" | "threads"> {
  /** Receives the parse and validation time of every file checked, summed across threads. */
  readonly timing?: CheckTiming;
  /** Each job's cache key (jobKeys), when the caller has them already. */
  readonly keys?: readonly (string | undefined)[];
}

/** Each job's cache key: its path, schema and text under the cache's fingerprint. */
export function jobKeys(
  jobs: readonly CheckJob[],
  cache: BuildCache | undefined,
): (string | undefined)[] {
  return jobs.map((job) => cache?.key(job.file, job.schema, job.text));
}

/** Checks every job; results come back in the order of `jobs`. */
export async function checkFiles(
  jobs: readonly CheckJob[],
  options: CheckOptions,
): Promise<CheckedFile[]> {
  const { cache } = options;
  const results = new Array<CheckedFile | undefined>(jobs.length);
  const keys = options.keys ?? jobKeys(jobs, cache);
  const misses: number[] = [];
  await Promise.all(
    jobs.map(async (_, i) => {
      const hit = keys[i] && (await cache!.get(keys[i], "check"));
      if (hit) results[i] = fromCacheEntry(hit.toString("utf8"));
      else misses.push(i);
    }),
  );
  const fresh = await checkInPool(
    misses.map((i) => jobs[i]!),
    options,
  );
  await Promise.all(
    misses.map(async (i, n) => {
      const data = fresh[n]!;
      results[i] = fromTransferable(data);
      // Only valid results are kept: messages for invalid files are cheap to make again, and
      // this way a change to how problems are worded can never be hidden by the cache.
      if (keys[i] && data.valid) await cache!.set(keys[i], "check", toCacheEntry(data));
    }),
  );
  return results as CheckedFile[];
}
