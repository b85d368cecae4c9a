/**
 * The live preview (`npm start`'s code path) on a scratch copy of the Worker (its sources,
 * wrangler.toml and a dist/ of its own) over a copy of the sample content, on loopback and a free
 * port, so the project's dist/ is left alone; its build cache starts as a copy of the run's.
 */
import { cp, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONTENT_DIR, PROJECT_ROOT, WORKER_SOURCE_FOLDERS } from "../../build/core/paths.js";
import { copyWorkerSources } from "./worker.js";
import { startPreview, type RunningPreview } from "../../build/preview/serve.js";
import type { Rebuilt } from "../../build/preview/session.js";
import { FIXTURE_EPOCH, sampleFixture, type Fixture } from "./fixtures.js";
import { warmCache } from "./sample-build.js";

export interface ScratchPreview {
  readonly preview: RunningPreview;
  readonly content: Fixture;
  /** The output folder the preview writes each good build to (the scratch copy's dist/). */
  readonly outDir: string;
  /** Every rebuild after the first, in order. */
  readonly rebuilds: Rebuilt[];
  /** Every line the preview printed. */
  readonly logged: string[];
  dispose(): Promise<void>;
}

/** Starts the preview; `quietMs` as npm start's unless given; `files` laid over the sample. */
export async function startScratchPreview(
  quietMs?: number,
  files: Record<string, string> = {},
): Promise<ScratchPreview> {
  const content = await sampleFixture(files);
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-preview-"));
  await copyWorkerSources(root);
  const outDir = join(root, "dist");
  const rebuilds: Rebuilt[] = [];
  const logged: string[] = [];
  const preview = await startPreview({
    root,
    contentDir: content.content,
    outDir,
    cwd: content.root,
    env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
    // A copy of the run's cache, as after an earlier build: the first build takes the sample's
    // bodies from it instead of compressing each again.
    cacheDir: await warmCache(),
    port: 0,
    persist: false,
    quietMs,
    log: (line) => logged.push(line),
    onRebuilt: (rebuilt) => rebuilds.push(rebuilt),
  });
  return {
    preview,
    content,
    outDir,
    rebuilds,
    logged,
    async dispose() {
      await preview.close();
      await content.cleanup();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * A scratch copy of the project that `npm start` runs in as it would in a checkout: package.json,
 * the launchers, the compiled build (.out/build, up to date: global-setup.ts compiles), the Worker's
 * sources, wrangler.toml, the schemas, the stylesheet, node_modules linked, and a copy of the
 * sample content with `files` laid over it. No dist/, no cache, no KV state: a fresh checkout's.
 * Its compile stamp is written last, so scripts/compile.mjs finds the compiled build current.
 */
export async function scratchProject(files: Record<string, string> = {}): Promise<{
  readonly root: string;
  /** Its content folder. */
  readonly content: string;
  cleanup(): Promise<void>;
}> {
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-start-"));
  const copy = (path: string) =>
    cp(join(PROJECT_ROOT, path), join(root, path), { recursive: true });
  for (const path of [
    "package.json",
    "scripts",
    "wrangler.toml",
    "tsconfig.base.json",
    "schemas",
    ...WORKER_SOURCE_FOLDERS,
    // The build compiled, with the contract modules it imports.
    join(".out", "build"),
    join(".out", "contract"),
    join("build", "documents", "landing", "style.css"),
  ]) {
    await copy(path);
  }
  // Compiled after every source it copied (folders copied take the time of the copy).
  await writeFile(join(root, ".out", ".compiled-build"), `${new Date().toISOString()}\n`);
  await symlink(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"), "dir");
  const content = join(root, "content");
  await cp(CONTENT_DIR, content, { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(content, path), text);
  return { root, content, cleanup: () => rm(root, { recursive: true, force: true }) };
}
