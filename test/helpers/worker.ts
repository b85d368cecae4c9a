/**
 * The real Worker over loopback for end-to-end and browser tests: the build's dist/ served by
 * workerd through wrangler's unstable_startWorker, inspector off, in-memory KV, on 127.0.0.1 and
 * a free port, behind the local stack's front line as npm start serves it
 * (build/preview/front-line.ts).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Manifest } from "../../contract/manifest.js";
import type { Vars } from "../../contract/vars.js";
import { DIST_DIR, PROJECT_ROOT, WORKER_SOURCE_FOLDERS } from "../../build/core/paths.js";
import { startFrontLine } from "../../build/preview/front-line.js";
import { loadWrangler } from "../../build/preview/serve.js";

// The same settings as scripts/wrangler.mjs: no metrics, no fetch of the cf object.
process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
process.env.WRANGLER_HIDE_BANNER ??= "true";
// And, as scripts/dev.mjs, no local explorer: a tenth of a second less per Worker started.
process.env.X_LOCAL_EXPLORER ??= "false";

export interface RunningWorker {
  readonly base: URL;
  readonly manifest: Manifest;
  dispose(): Promise<void>;
}

/**
 * Builds the project's dist/ (`npm run build`) unless `npm test` has just built it: a vitest
 * started another way may find no dist/, one older than the content, or the live preview's (npm
 * start writes each good build there too, compressed at the preview's settings and without the
 * landing page's variants). Run once per run, before any test (global-setup.ts), so no two test
 * files build it at once.
 */
export async function ensureDist(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // npm names the script it runs in npm_lifecycle_event, and its children inherit it.
  const justBuilt =
    env.npm_lifecycle_event === "test" && existsSync(join(DIST_DIR, "manifest.json"));
  if (!justBuilt) await promisify(execFile)("npm", ["run", "-s", "build"], { cwd: PROJECT_ROOT });
}

/**
 * Starts the Worker on the project's dist/ (global-setup.ts builds it when missing); `vars`
 * replace wrangler.toml's [vars] of the same names (contract/vars.ts), as an operator's would.
 */
export async function startWorker(vars: Vars = {}): Promise<RunningWorker> {
  const manifest = JSON.parse(readFileSync(join(DIST_DIR, "manifest.json"), "utf8")) as Manifest;
  const worker = await startWorkerAt(join(PROJECT_ROOT, "wrangler.toml"), vars);
  return { ...worker, manifest };
}

/**
 * A scratch copy of what wrangler bundles the Worker from, in the project's layout under `root`:
 * its sources, wrangler.toml, and the base tsconfig the sources' own extends (without it esbuild
 * warns on every bundle). The caller puts a dist/ beside them.
 */
export async function copyWorkerSources(root: string): Promise<void> {
  for (const folder of WORKER_SOURCE_FOLDERS) {
    await cp(join(PROJECT_ROOT, folder), join(root, folder), { recursive: true });
  }
  for (const file of ["wrangler.toml", "tsconfig.base.json"]) {
    await cp(join(PROJECT_ROOT, file), join(root, file));
  }
}

/** Starts the Worker a wrangler.toml describes (its dist/ beside it), on loopback. */
export async function startWorkerAt(
  config: string,
  vars: Vars = {},
  /**
   * Requests reach the Worker as https, as they do behind Cloudflare's edge, whatever their Host
   * (a site's host over plain http would otherwise be redirected: worker/http/https.ts).
   */
  asHttps = false,
): Promise<{ readonly base: URL; dispose(): Promise<void> }> {
  const { unstable_startWorker } = loadWrangler();
  const bindings = Object.fromEntries(
    Object.entries(vars).map(([name, value]) => [name, { type: "plain_text" as const, value }]),
  );
  const worker = await unstable_startWorker({
    config,
    bindings,
    // A key, as a deployment has one (and as the preview sets one, build/preview/serve.ts): without
    // it the Worker logs that it made its own, which wrangler reports as an error and follows with
    // a "Logs were written to" line in the test run's output.
    defaultBindings: { RATE_LIMIT_KEY: { type: "plain_text", value: "e2e-".repeat(16) } },
    dev: {
      inspector: false,
      persist: false,
      watch: false,
      logLevel: "none",
      server: { hostname: "127.0.0.1", port: 0 },
      ...(asHttps && { origin: { secure: true } }),
    },
  });
  // Asked through the local stack's front line, as npm start is (build/preview/front-line.ts).
  const front = await startFrontLine(await worker.url, 0);
  return {
    base: front.url,
    async dispose() {
      await front.close();
      await worker.dispose();
    },
  };
}

/**
 * Runs `burst` (a few requests from one new client) and returns what it gave, once every request
 * of it fell in one fixed window of the Worker's quota: the windows are the clock's minutes
 * (service-metrics-api-v1.0.md, "Limits": per minute), and the clock is read before and after.
 * A burst that crossed a minute's end (it takes milliseconds, so rarely) runs once more, at the
 * start of the next minute, for which `burst` must take a client not seen before: no waiting for
 * a boundary.
 */
export async function withinOneWindow<T>(burst: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const minute = Math.floor(Date.now() / 60_000);
    const result = await burst();
    if (Math.floor(Date.now() / 60_000) === minute) return result;
    if (attempt > 0) throw new Error("two bursts of a few requests each crossed a minute's end");
  }
}
