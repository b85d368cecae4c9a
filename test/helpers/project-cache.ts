/**
 * The project's own build cache (.cache/build/) belongs to whoever works in the checkout: after
 * `npm test`, `npm run build` and `npm start` should find it as they left it, not stamped by a
 * fixture's files nor by code loaded as TypeScript (whose fingerprint differs from the compiled
 * CLIs', so the next build would say the build's code changed and check everything again). Every
 * test that builds gives it a folder of its own (`--cache DIR`, `cacheDir`); global-setup.ts
 * looks at the folder after the run and fails the run if a test wrote to it.
 *
 * What it looks for are a test's marks, not any change: an `npm start` running beside the tests
 * may rewrite the cache at every save, and that is no fault of theirs.
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join, relative, isAbsolute } from "node:path";
import { CACHE_DIR, PROJECT_ROOT } from "../../build/core/paths.js";
import { sha256 } from "../../build/core/cache.js";

// The files every build rewrites (build/core/cache.ts): the fingerprint of the code that made the
// entries, and the files it read with their sizes and times (build/read/texts.ts).
const FINGERPRINT = "fingerprint.json";
const TEXTS = "content-texts.json";

/** When each of the two files was last written, to tell whether the run wrote them. */
export async function cacheStamps(dir: string = CACHE_DIR): Promise<string> {
  const times = await Promise.all(
    [FINGERPRINT, TEXTS].map((name) =>
      stat(join(dir, name)).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    ),
  );
  return times.join(" ");
}

const inside = (folder: string, path: string) => {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What in the build cache in `dir` shows that a test wrote to it, one sentence each; empty when
 * nothing does. `scratch` is the run's scratch folder, where every fixture lives.
 */
export async function testMarks(scratch: string, dir: string = CACHE_DIR): Promise<string[]> {
  const marks: string[] = [];
  const texts = await readJson(join(dir, TEXTS));
  const read = Array.isArray(texts) ? texts.map((entry) => (entry as unknown[])[0]) : [];
  const fixtures = read.filter(
    (path): path is string =>
      typeof path === "string" && inside(scratch, path) && !inside(PROJECT_ROOT, path),
  );
  if (fixtures.length > 0) {
    marks.push(`${TEXTS} lists ${fixtures.length} files of the tests' fixtures (${fixtures[0]})`);
  }
  // A module's hash is of the text that ran: the compiled JavaScript for the CLIs, the TypeScript
  // source for code the tests load. More modules matching their source than their compiled form
  // means code running under vitest wrote it.
  const fingerprint = (await readJson(join(dir, FINGERPRINT))) as
    | { code?: Record<string, string> }
    | undefined;
  const code = Object.entries(fingerprint?.code ?? {});
  const matching = (path: (name: string) => string) =>
    code.filter(([name, hash]) => {
      const file = path(name);
      return existsSync(file) && sha256(readFileSync(file, "utf8")) === hash;
    }).length;
  const asSource = matching((name) => join(PROJECT_ROOT, name));
  const asCompiled = matching((name) => join(PROJECT_ROOT, ".out", name.replace(/\.ts$/, ".js")));
  if (asSource > asCompiled) {
    marks.push(`${FINGERPRINT} was written by code loaded as TypeScript, as the tests load it`);
  }
  return marks;
}
