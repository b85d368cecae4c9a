/**
 * How long the build's steps take, for `--timings` and the benchmarks. Measured around the steps
 * by whoever runs them (the pipeline, the check pool's threads, the encoder), so no step's own
 * function takes a stopwatch.
 */

/**
 * Milliseconds within three steps, summed over every file or body: parsing and validation (summed
 * across worker threads, so on several cores their sum exceeds the `check` step), serialising (in
 * `assemble`), hashing and compressing (in `encode`).
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
export type EncodeTiming = Pick<PartTimings, "hashMs" | "compressMs">;

/**
 * Milliseconds spent in each step (wall time), one key per step of pipeline.ts in its order, and
 * within three of them the parts.
 */
export interface StepTimings {
  /** 1: find the content files and read them. */
  read: number;
  /** 2: parse and validate each file, with quality's per-file rules. */
  check: number;
  /** 3: duplicates across files. */
  crossCheck: number;
  /** 4: the data-quality pass across files (quality/pass.ts). */
  quality: number;
  /** 5: join, wrap and check each data set's envelope, and serialise it (or take it from the cache). */
  assemble: number;
  /** 6: hash each body and compress its variants; step 7 runs meanwhile (pipeline.ts). */
  encode: number;
  /** 7: index the near-me data sets, while step 6 compresses. */
  near: number;
  /** 8: the changes since past versions, from git history (history/). */
  history: number;
  /** 9: the landing page, /openapi.json and the publication feed. */
  documents: number;
  /** 10: check the platform's limits and the last check, then write the output folder. */
  write: number;
  parts: PartTimings;
}

/** What `validate` runs: steps 1 to 5 and the checks of step 10, nothing that makes output. */
export type ValidateTimings = Pick<
  StepTimings,
  "read" | "check" | "crossCheck" | "quality" | "assemble"
> & {
  /** The platform's limits on what is known without making the output, and the last check. */
  limits: number;
  parts: Pick<PartTimings, "parseMs" | "validateMs" | "serializeMs">;
};

export function emptyTimings(): StepTimings {
  return {
    read: 0,
    check: 0,
    crossCheck: 0,
    quality: 0,
    assemble: 0,
    encode: 0,
    near: 0,
    history: 0,
    documents: 0,
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
