/**
 * What kind of build this is, as one value the steps read instead of options passed down: how
 * hard to compress and whether the landing page is, whether to read the data sets' past versions
 * from git, and what to keep in memory between builds. build/profiles.ts holds the three the
 * commands run (publish, preview, validate); a test may make its own.
 */
import type { BuildMemory } from "./memory.js";

/** How hard the build compresses: brotli's quality for a body of `size` bytes, gzip's level. */
export interface Compression {
  /** Part of every cache key of what it made. */
  readonly name: "published" | "preview";
  brotliQuality(size: number): number;
  readonly gzipLevel: number;
}

export interface BuildProfile {
  /** For people: which of build/profiles.ts's this is, or a test's own name. */
  readonly name: string;
  /**
   * How the bodies, the change answers and the documents are compressed (step 6 and after;
   * validate stops before, and compresses nothing).
   */
  readonly compression: Compression;
  /**
   * Whether the landing page is compressed too: the live preview replaces the page on every save,
   * and compressing a page with thousands of map marks would cost it a second.
   */
  readonly compressPage: boolean;
  /**
   * Read the data sets' past versions from git for the changes endpoints (step 8); without, each
   * knows only the current version.
   */
  readonly history: boolean;
  /**
   * What is kept in memory between the builds of one process: the live preview's session's; none
   * (undefined) for a build on its own, which then keeps its memory for itself alone.
   */
  readonly memory: BuildMemory | undefined;
}
