/**
 * Where things are. Resolved from this module's own location by walking up to package.json, so the
 * same answer comes whether it runs compiled (.out/build/) or as source under vitest (build/).
 */
import { existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A path as printed for editors: relative to the working folder and `/`-separated on every
 * system, so messages and tests read the same on Windows; the working folder itself is ".".
 */
export function displayPath(cwd: string, path: string): string {
  return relative(cwd, path).split(sep).join("/") || ".";
}

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The project's root folder (the one holding package.json). */
export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
/** JSON Schemas shared by the build, the tests and editors. */
export const SCHEMA_DIR = join(PROJECT_ROOT, "schemas");
/** Default content folder. */
export const CONTENT_DIR = join(PROJECT_ROOT, "content");
/** Build cache (parsed and validated files, compressed variants); safe to delete. */
export const CACHE_DIR = join(PROJECT_ROOT, ".cache", "build");
/** Default output folder: the Worker's static assets. */
export const DIST_DIR = join(PROJECT_ROOT, "dist");
/**
 * The folders the Worker is bundled from: its own modules and the build–Worker contract they
 * import. A scratch copy of the Worker (tests, benchmarks) copies both, in the same layout.
 */
export const WORKER_SOURCE_FOLDERS = ["worker", "contract"] as const;
