/**
 * The live preview (`npm start`'s code path) on a scratch copy of the Worker (its sources,
 * wrangler.toml and a dist/ of its own) over a copy of the sample content, on loopback and a free
 * port, so the project's dist/ is left alone; its build cache starts as a copy of the run's.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT, WORKER_SOURCE_FOLDERS } from "../../build/core/paths.js";
import { startPreview, type RunningPreview } from "../../build/preview/serve.js";
import type { Rebuilt } from "../../build/preview/session.js";
import { FIXTURE_EPOCH, sampleFixture, type Fixture } from "./fixtures.js";
import { warmCache } from "./sample-build.js";

export interface ScratchPreview {
  readonly preview: RunningPreview;
  readonly content: Fixture;
  /** Every rebuild after the first, in order. */
  readonly rebuilds: Rebuilt[];
  /** Every line the preview printed. */
  readonly logged: string[];
  dispose(): Promise<void>;
}

/** Starts the preview; `quietMs` as npm start's unless given. */
export async function startScratchPreview(quietMs?: number): Promise<ScratchPreview> {
  const content = await sampleFixture();
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-preview-"));
  for (const folder of WORKER_SOURCE_FOLDERS) {
    await cp(join(PROJECT_ROOT, folder), join(root, folder), { recursive: true });
  }
  for (const file of ["wrangler.toml", "tsconfig.base.json"]) {
    await cp(join(PROJECT_ROOT, file), join(root, file));
  }
  const rebuilds: Rebuilt[] = [];
  const logged: string[] = [];
  const preview = await startPreview({
    root,
    contentDir: content.content,
    outDir: join(root, "dist"),
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
    rebuilds,
    logged,
    async dispose() {
      await preview.close();
      await content.cleanup();
      await rm(root, { recursive: true, force: true });
    },
  };
}
