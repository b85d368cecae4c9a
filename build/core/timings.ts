/**
 * How long the build's steps take, for `--timings` and the benchmarks. Measured around the steps
 * by whoever runs them (the pipeline, the check pool's threads, the encoder), so no step's own
 * function takes a stopwatch.
 */

/**
 * Milliseconds within two steps, summed over every file or body: parsing and validation (summed
 * across worker threads, so on several cores their sum exceeds the `check` step), serialising,
 * hashing and compressing.
 */
export interface PartTimings {
  parseMs: number;
  validateMs: number;
  serializeMs: number;
  hashMs: number;
  compressMs: number;
}

/** The parts of checking a file. */
export type CheckTiming = Pick<PartTimings, "parseMs" | "validateMs">;
/** The parts of encoding a body. */
export type EncodeTiming = Pick<PartTimings, "serializeMs" | "hashMs" | "compressMs">;

/** Milliseconds spent in each step (wall time), and within two of them the parts. */
export interface StepTimings {
  read: number;
  check: number;
  crossCheck: number;
  /** The data-quality pass (quality/pass.ts). */
  quality: number;
  assemble: number;
  encode: number;
  write: number;
  parts: PartTimings;
}

export function emptyTimings(): StepTimings {
  return {
    read: 0,
    check: 0,
    crossCheck: 0,
    quality: 0,
    assemble: 0,
    encode: 0,
    write: 0,
    parts: { parseMs: 0, validateMs: 0, serializeMs: 0, hashMs: 0, compressMs: 0 },
  };
}

/** Runs `work` and adds its time to `into[key]` (when there is an `into`). */
export function timeSync<K extends string, T>(
  into: Record<K, number> | undefined,
  key: K,
  work: () => T,
): T {
  const start = performance.now();
  try {
    return work();
  } finally {
    if (into) into[key] += performance.now() - start;
  }
}

/** Runs `work` and adds the time until it settles to `into[key]` (when there is an `into`). */
export async function timeAsync<K extends string, T>(
  into: Record<K, number> | undefined,
  key: K,
  work: () => Promise<T> | T,
): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    if (into) into[key] += performance.now() - start;
  }
}
