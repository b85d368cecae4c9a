/**
 * What a build keeps in memory, named in one place with the module that owns each part. Every
 * build has one: a build of its own makes a new one, so two builds in one process (the tests',
 * a command that builds twice) share nothing by accident; the live preview's session holds one
 * for all its rebuilds (BuildProfile.memory), which is what makes a rebuild after one edit pay
 * only for that edit. Nothing else in build/ keeps per-build state at module level; what does
 * depend only on the process (the code running, compiled validators of the schema files) says
 * so where it is kept.
 */

/** Each part a memory holds, and the module that owns it (and alone reads or writes it). */
export type MemoryPart =
  /** Valid check results by cache key (check/cached-checks.ts). */
  | "checks"
  /** Cache entries read or written, held in memory and written behind (core/cache.ts). */
  | "cache-entries"
  /** Where the content is in git and when commits were made, by HEAD (core/git.ts). */
  | "git"
  /** The content blobs' object hashes, by path and file identity (history/git.ts). */
  | "object-hashes"
  /** What the history read of git objects: trees' files, files' facts, by hash (history/store.ts). */
  | "history-objects"
  /** The most recent data sets' bodies, by ETag, for what is worked out of their bytes (assemble/one-dataset.ts). */
  | "bodies"
  /** Each record's exact bytes, by the record's value (encode/body.ts). */
  | "record-bytes"
  /** Each record's map mark and place, by the record's value (assemble/locations.ts). */
  | "record-marks"
  /** Each record's facts for the near-me index, by the record's value (near/index.ts). */
  | "record-facts"
  /** The last builds' documents of each site, by their inputs (documents/index.ts). */
  | "documents"
  /** Each map mark's JSON text, by the mark (documents/landing/page.ts). */
  | "mark-texts";

/** The parts of one build's memory, or of a live preview session's. */
export class BuildMemory {
  readonly #parts = new Map<MemoryPart, unknown>();

  /**
   * The part named `name`, made by `make` when first asked. Only its owner asks, always with the
   * same `make`, so the part's type is the one `make` gives.
   */
  part<T>(name: MemoryPart, make: () => T): T {
    if (!this.#parts.has(name)) this.#parts.set(name, make());
    return this.#parts.get(name) as T;
  }
}
