/**
 * Step 2, check each file, through the cache: files whose result the cache holds are not checked
 * again; the rest go to the check pool, and what it finds valid is stored for the next build.
 */
import type { BuildCache } from "../core/cache.js";
import type { BuildContext } from "../core/context.js";
import { fromCacheEntry, fromTransferable, toCacheEntry } from "./codecs.js";
import type { CheckedFile } from "./one-file.js";
import { checkInPool } from "./pool.js";
import { withText, type CheckJob, type FileJob } from "../read/check-jobs.js";
import { textHash } from "../read/texts.js";
import type { CheckTiming } from "../core/timings.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";

/** How checkFiles works: the build's validators, cache and threads; what it reports and keeps. */
export interface CheckFilesOptions extends Pick<BuildContext, "ajv" | "cache" | "threads"> {
  /** Receives the parse and validation time of every file checked, summed across threads. */
  readonly timing?: CheckTiming;
  /** Each job's cache key (jobKeys), when the caller has them already. */
  readonly keys?: readonly (string | undefined)[];
  /**
   * Results kept in memory by key between the builds of one process (the live preview's
   * session): found there before the cache is read, and left holding this run's valid results.
   */
  readonly kept?: Map<string, CheckedFile> | undefined;
}

/** Each job's cache key: its path, schema and text's hash under the cache's fingerprint. */
export function jobKeys(
  jobs: readonly (CheckJob | FileJob)[],
  cache: BuildCache | undefined,
): (string | undefined)[] {
  if (!cache) return jobs.map(() => undefined);
  return jobs.map((job) =>
    cache.key(job.file, job.schema, "hash" in job ? job.hash : textHash(job.text)),
  );
}

/** Checks every job; results come back in the order of `jobs`. */
export async function checkFiles(
  jobs: readonly (CheckJob | FileJob)[],
  options: CheckFilesOptions,
): Promise<CheckedFile[]> {
  const { cache } = options;
  const results = new Array<CheckedFile | undefined>(jobs.length);
  const keys = options.keys ?? jobKeys(jobs, cache);
  const misses: number[] = [];
  const { kept } = options;
  await Promise.all(
    jobs.map(async (_, i) => {
      const key = keys[i];
      const held = key && kept?.get(key);
      if (held) {
        results[i] = held;
        cache!.keep(key, CACHE_KINDS.check);
        return;
      }
      const hit = key && (await cache!.get(key, CACHE_KINDS.check));
      if (hit) results[i] = fromCacheEntry(hit);
      else misses.push(i);
    }),
  );
  // Only a file checked is read, if this build has not read it already.
  const toCheck = await Promise.all(
    misses.map(async (i): Promise<CheckJob> => {
      const job = jobs[i]!;
      return "hash" in job ? withText(job) : job;
    }),
  );
  const fresh = await checkInPool(toCheck, options);
  await Promise.all(
    misses.map(async (i, n) => {
      const { checked, ...data } = fresh[n]!;
      results[i] = checked ?? fromTransferable(data);
      // Only valid results are kept: messages for invalid files are cheap to make again, and
      // this way a change to how problems are worded can never be hidden by the cache.
      if (keys[i] && data.valid) await cache!.set(keys[i], CACHE_KINDS.check, toCacheEntry(data));
    }),
  );
  if (kept) {
    kept.clear();
    results.forEach((result, i) => {
      if (keys[i] && result?.valid) kept.set(keys[i], result);
    });
  }
  return results as CheckedFile[];
}
