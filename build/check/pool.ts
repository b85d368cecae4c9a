/**
 * Checks many files, in parallel across the machine's cores when there is enough to do: parsing
 * (about 40 MB/s of CPU with js-yaml, read/yaml-fast.ts), validation and the data-quality facts
 * take about 50 to 90 ms of CPU per MB of YAML together (core/thread-pool.ts runs the threads).
 * Knows nothing of the cache: cached-checks.ts sends it only what the cache does not hold.
 */
import { availableParallelism } from "node:os";
import { withinSync } from "../core/internal-error.js";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Ajv } from "ajv";
import { toTransferable, type TransferableCheck } from "./codecs.js";
import { checkParsed, type CheckedFile } from "./one-file.js";
import type { CheckJob } from "../read/check-jobs.js";
import { PROJECT_ROOT } from "../core/paths.js";
import type { BuildContext } from "../core/context.js";
import { validatorFor } from "./schemas.js";
import { runOnThreads } from "../core/thread-pool.js";
import { timeSync, type CheckTiming } from "../core/timings.js";
import { parseYaml } from "../read/yaml-source.js";

// Young-generation size for worker threads. Parsing allocates many short-lived objects; with V8's
// default young generation the collector ran for a third of a rebuild, measured here. The CLI runs
// with the same setting (`--max-semi-space-size` in package.json's scripts).
const YOUNG_GENERATION_MB = 192;

// Below this much YAML to check, starting threads costs more than it saves: each thread starts
// and loads the validators its files need (precompiled.ts; compiling them instead, when the schemas
// changed since the last compile, is up to 1.3 s of CPU per thread) and the results cross back as
// JSON (about 5 ms per MB), against half of 50 to 90 ms per MB saved.
const PARALLEL_THRESHOLD_BYTES = 4_000_000;

/** What a check thread replies for one job. */
export interface CheckReply {
  readonly result: TransferableCheck;
  readonly timing: CheckTiming;
}

export interface PoolOptions extends Pick<BuildContext, "ajv" | "threads"> {
  /** Receives the parse and validation time of every file checked, summed across threads. */
  readonly timing?: CheckTiming;
}

/**
 * A checked file as the pool gives it back: its value as JSON text (what the cache stores, and
 * what crosses from a thread) and, when it was checked on this thread, the file itself, whose
 * value need not be parsed back from that text (bench/results/2026-11-27-typescript-7-and-the-previews-save.md,
 * "Then the check").
 */
export type PooledCheck = TransferableCheck & { readonly checked?: CheckedFile };

// Checks one job, adding its parse and validation time to `timing`.
// A fault of the check's own (never the content's: that is a Diagnostic) names the file it was
// checking (core/internal-error.ts), on a thread as on this one.
function checkJob(job: CheckJob, ajv: Ajv, timing: CheckTiming | undefined): CheckedFile {
  return withinSync(`step 2 (check) of ${job.file}`, () => {
    const rules = {
      validate: validatorFor(ajv, job.schema),
      recordsKey: job.recordsKey,
      identity: job.identity,
    };
    const source = timeSync(timing, "parseMs", () => parseYaml(job.file, job.text));
    return timeSync(timing, "validateMs", () => checkParsed(source, rules));
  });
}

/** Checks one job, adding its parse and validation time to `timing`: what a thread replies. */
export function runCheckJob(
  job: CheckJob,
  ajv: Ajv,
  timing: CheckTiming | undefined,
): TransferableCheck {
  return toTransferable(checkJob(job, ajv, timing));
}

/** Checks every job; results come back in the order of `jobs`. */
export async function checkInPool(
  jobs: readonly CheckJob[],
  options: PoolOptions,
): Promise<PooledCheck[]> {
  const order = jobs.map((_, i) => i);
  order.sort((a, b) => jobs[b]!.text.length - jobs[a]!.text.length); // largest first: shortest tail
  const bytes = jobs.reduce((sum, job) => sum + job.text.length, 0);
  const threads = Math.min(options.threads ?? availableParallelism(), jobs.length);
  if (threads > 1 && bytes >= PARALLEL_THRESHOLD_BYTES) {
    return checkInThreads(jobs, order, threads, options.timing);
  }
  return jobs.map((job) => {
    const checked = checkJob(job, options.ajv, options.timing);
    return { ...toTransferable(checked), checked };
  });
}

// The worker thread's script. Compiled, it sits beside this file; when this module runs as
// TypeScript source (under vitest) the compiled copy in .out/ is used, which `npm test` builds first.
const THREAD_URL = import.meta.url.endsWith(".ts")
  ? pathToFileURL(join(PROJECT_ROOT, ".out", "build", "check", "thread.js"))
  : new URL("./thread.js", import.meta.url);

// Runs the jobs largest first on `threads` worker threads, adding their time to `timing`.
async function checkInThreads(
  jobs: readonly CheckJob[],
  order: readonly number[],
  threads: number,
  timing: CheckTiming | undefined,
): Promise<TransferableCheck[]> {
  const replies = await runOnThreads<CheckJob, CheckReply>(
    order.map((i) => jobs[i]!),
    {
      script: THREAD_URL,
      threads,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    },
  );
  const results = new Array<TransferableCheck>(jobs.length);
  replies.forEach((reply, n) => {
    results[order[n]!] = reply.result;
    if (timing) {
      timing.parseMs += reply.timing.parseMs;
      timing.validateMs += reply.timing.validateMs;
    }
  });
  return results;
}
