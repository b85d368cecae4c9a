/**
 * Step 2 at scale: checks many files, in parallel across the machine's cores when there is enough
 * to do, and skips files whose result the cache already holds. YAML parsing is the slowest part
 * of a build (about 2 MB/s on one core), so it is what the cores are given.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Ajv } from "ajv";
import type { BuildCache } from "./cache.js";
import { checkFile, type CheckedFile, type CheckTiming } from "./check-file.js";
import { PROJECT_ROOT } from "./paths.js";
import { validatorFor } from "./schemas.js";

/**
 * Young-generation size for worker threads. Parsing allocates many short-lived objects; with V8's
 * default young generation the collector ran for a third of a rebuild, measured here. The CLI runs
 * with the same setting (`--max-semi-space-size` in package.json's scripts).
 */
export const YOUNG_GENERATION_MB = 192;

/** Below this much YAML to check, starting threads costs more than it saves. */
export const PARALLEL_THRESHOLD_BYTES = 1_000_000;

export interface CheckJob {
  /** Path as printed in messages. */
  readonly file: string;
  readonly text: string;
  /** Schema file the document must satisfy. */
  readonly schema: string;
  readonly recordsKey: string | null;
  readonly identity: readonly string[];
}

/** What a worker thread is sent. */
export interface CheckRequest extends CheckJob {
  readonly id: number;
}

/** A CheckedFile with its value as JSON text: what threads and the cache exchange. */
export type TransferableCheck = Omit<CheckedFile, "value"> & { readonly json: string | undefined };

export function toTransferable(checked: CheckedFile): TransferableCheck {
  const { value, ...rest } = checked;
  return { ...rest, json: value === undefined ? undefined : JSON.stringify(value) };
}

function fromTransferable(data: TransferableCheck): CheckedFile {
  const { json, ...rest } = data;
  return { ...rest, value: json === undefined ? undefined : JSON.parse(json) };
}

/**
 * A cache entry: the small part (problems, positions) as one line of JSON, then the value's JSON
 * as it is, so reading an entry parses the value once rather than as a string inside JSON.
 */
function toCacheEntry(data: TransferableCheck): string {
  const { json, ...rest } = data;
  return `${JSON.stringify(rest)}\n${json ?? ""}`;
}

function fromCacheEntry(entry: string): CheckedFile {
  const split = entry.indexOf("\n");
  const rest = JSON.parse(entry.slice(0, split)) as Omit<CheckedFile, "value">;
  return { ...rest, value: JSON.parse(entry.slice(split + 1)) };
}

export interface PoolOptions {
  readonly ajv: Ajv;
  readonly cache: BuildCache | undefined;
  /** Worker threads to use at most; defaults to the cores available. */
  readonly threads?: number;
  /** Receives the parse and validation time of every file checked, summed across threads. */
  readonly timing?: CheckTiming;
}

/** Checks every job; results come back in the order of `jobs`. */
export async function checkFiles(
  jobs: readonly CheckJob[],
  options: PoolOptions,
): Promise<CheckedFile[]> {
  const results: (CheckedFile | undefined)[] = new Array(jobs.length);
  const keys = jobs.map((job) => options.cache?.key(job.file, job.schema, job.text));
  const misses: number[] = [];
  await Promise.all(
    jobs.map(async (_, i) => {
      const hit = keys[i] && (await options.cache!.get(keys[i], "check"));
      if (hit) results[i] = fromCacheEntry(hit.toString("utf8"));
      else misses.push(i);
    }),
  );
  misses.sort((a, b) => jobs[b]!.text.length - jobs[a]!.text.length); // largest first: shortest tail

  const missBytes = misses.reduce((sum, i) => sum + jobs[i]!.text.length, 0);
  const threads = Math.min(options.threads ?? availableParallelism(), misses.length);
  const fresh =
    threads > 1 && missBytes >= PARALLEL_THRESHOLD_BYTES
      ? await checkInThreads(jobs, misses, threads, options.timing)
      : misses.map((i) => {
          const job = jobs[i]!;
          const validate = validatorFor(options.ajv, job.schema);
          return toTransferable(
            checkFile(job.file, job.text, { ...job, validate }, options.timing),
          );
        });

  await Promise.all(
    misses.map(async (i, n) => {
      const data = fresh[n]!;
      results[i] = fromTransferable(data);
      // Only valid results are kept: messages for invalid files are cheap to make again, and
      // this way a change to how problems are worded can never be hidden by the cache.
      if (keys[i] && data.valid) await options.cache!.set(keys[i], "check", toCacheEntry(data));
    }),
  );
  return results as CheckedFile[];
}

/**
 * The worker thread's script. Compiled, it sits beside this file; when this module runs as
 * TypeScript source (under vitest) the compiled copy in .out/ is used, which `npm test` builds first.
 */
const WORKER_URL = import.meta.url.endsWith(".ts")
  ? pathToFileURL(join(PROJECT_ROOT, ".out", "build", "check-worker.js"))
  : new URL("./check-worker.js", import.meta.url);

/** Runs the jobs at `order` on `threads` worker threads, handing the next job to whichever is free. */
function checkInThreads(
  jobs: readonly CheckJob[],
  order: readonly number[],
  threads: number,
  timing: CheckTiming | undefined,
): Promise<TransferableCheck[]> {
  const results: TransferableCheck[] = new Array(order.length);
  let next = 0;
  let done = 0;
  return new Promise((resolve, reject) => {
    const workers = Array.from(
      { length: threads },
      () =>
        new Worker(WORKER_URL, {
          resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
        }),
    );
    const finish = (error?: unknown) => {
      for (const worker of workers) void worker.terminate();
      if (error) reject(error);
      else resolve(results);
    };
    const feed = (worker: Worker) => {
      if (next >= order.length) return;
      const n = next++;
      const request: CheckRequest = { ...jobs[order[n]!]!, id: n };
      worker.postMessage(request);
    };
    for (const worker of workers) {
      worker.on(
        "message",
        (reply: { id: number; result: TransferableCheck; timing: CheckTiming }) => {
          results[reply.id] = reply.result;
          if (timing) {
            timing.parseMs += reply.timing.parseMs;
            timing.validateMs += reply.timing.validateMs;
          }
          if (++done === order.length) finish();
          else feed(worker);
        },
      );
      worker.on("error", finish);
      feed(worker);
    }
  });
}
