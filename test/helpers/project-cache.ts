/**
 * The project's own build cache (.cache/build/) belongs to whoever works in the checkout: after
 * `npm test`, `npm run build` and `npm start` should find it as they left it, not pruned to a
 * test fixture's content nor stamped by code loaded as TypeScript (whose fingerprint differs from
 * the compiled CLIs', so the next build would say the build's code changed and check everything
 * again). Every test that builds gives it a folder of its own (`--cache DIR`, `cacheDir`);
 * global-setup.ts compares the folder before and after the run and fails the run if it changed.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { CACHE_DIR } from "../../build/core/paths.js";

/** Each entry of the folder by name: its size and modification time; empty when there is none. */
export async function cacheListing(dir: string = CACHE_DIR): Promise<Map<string, string>> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const listing = new Map<string, string>();
  for (const name of names) {
    const info = await stat(join(dir, name)).catch(() => undefined);
    if (info) listing.set(name, `${info.size} ${info.mtimeMs}`);
  }
  return listing;
}

/** The names added, removed or rewritten between two listings, sorted. */
export function cacheChanges(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): string[] {
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((name) => before.get(name) !== after.get(name))
    .sort();
}
