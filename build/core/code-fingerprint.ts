/**
 * The code a cached result depends on, read from the modules themselves: an entry module and
 * every module it imports at run time, transitively. Compiled JavaScript keeps only run-time
 * imports (type-only ones are erased), so the set is exactly the code that can change a result,
 * and a moved or new module is covered without a list to keep up to date.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { fileURLToPath } from "node:url";

// Relative specifiers of static imports and re-exports, each statement starting a line (as the
// formatter writes them, and as tsc emits them), so a specifier quoted in a comment is not one.
const RELATIVE_IMPORT = /^(?:import|export)\b[^;]*?["'](\.{1,2}\/[^"']+)["'];?$/gm;

/**
 * `[path, text]` of `entry` and every module it reaches through relative imports, sorted by path.
 * Under TypeScript sources (vitest), a specifier ending in .js resolves to the .ts file beside it.
 */
export function moduleClosure(entry: URL): [path: string, text: string][] {
  const seen = new Map<string, string>();
  const visit = (url: URL) => {
    const path = fileURLToPath(url);
    if (seen.has(path)) return;
    const text = readFileSync(path, "utf8");
    seen.set(path, text);
    const ownExtension = extname(path);
    for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) {
      const target = new URL(specifier!, url);
      if (ownExtension === ".ts" && target.pathname.endsWith(".js")) {
        target.pathname = target.pathname.replace(/\.js$/, ".ts");
      }
      if (/\.[cm]?[jt]s$/.test(target.pathname)) visit(target);
    }
  };
  visit(entry);
  return [...seen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

// Per process, not per build (core/memory.ts): the code running cannot change while it runs.
const closureHashes = new Map<string, string>();

/**
 * The SHA-256 of the code `entries` run, their modules and every module they import: what a
 * result kept across upgrades of the build (the history's facts of past files) is keyed by, so
 * a change to that code, and only to it, makes it again. Read once per process.
 */
export function codeHash(entries: readonly URL[]): string {
  const name = entries.map((url) => url.href).join("\n");
  let found = closureHashes.get(name);
  if (found === undefined) {
    const modules = new Map(entries.flatMap((entry) => moduleClosure(entry)));
    const sum = createHash("sha256");
    for (const [path, text] of [...modules].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      sum.update(basename(path)).update("\0").update(text).update("\0");
    }
    found = sum.digest("hex");
    closureHashes.set(name, found);
  }
  return found;
}
