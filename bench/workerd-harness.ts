/**
 * Two ways to run a Worker in workerd for the edge benchmarks, both from the project's
 * wrangler.toml (compatibility date, bindings, [assets] with run_worker_first), with the entry
 * point, the assets folder and some [vars] replaced:
 *
 * - The Miniflare API: the Worker is bundled as `wrangler deploy --dry-run` bundles it, and runs in
 *   one workerd process that answers the socket itself. The least the runtime costs per request.
 * - wrangler's unstable_startWorker (inspector, persistence and watching off): what the e2e tests
 *   and `npm start` use. Requests pass through wrangler's proxy Worker in a second workerd process
 *   first, a fixed cost per request that is larger than a small response's own.
 *
 * Never `wrangler dev`: its inspector caps throughput near 60 requests per second.
 */
import { execFile } from "node:child_process";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "../build/core/paths.js";
import { loadWrangler } from "../build/preview/serve.js";
import type { Server } from "./load.js";

const run = promisify(execFile);
const CONFIG = join(PROJECT_ROOT, "wrangler.toml");
const LOOPBACK = "127.0.0.1";
/** The settings scripts/wrangler.mjs uses: nothing leaves the machine. */
const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};

export interface Harness {
  readonly name: string;
  /** Starts `entrypoint` serving `assets`, with `vars` in place of the configuration's. */
  start(entrypoint: string, vars?: Record<string, string>): Promise<Server>;
}

/** Sets OFFLINE_ENV in this benchmark process (a value already exported wins), before wrangler runs. */
export function setOfflineEnvironment(): void {
  for (const [name, value] of Object.entries(OFFLINE_ENV)) process.env[name] ??= value;
}

function wrangler() {
  setOfflineEnvironment();
  return loadWrangler();
}

/** unstable_startWorker, bundling the entry itself. */
export function startWorkerHarness(assets: string): Harness {
  return {
    name: "unstable_startWorker",
    async start(entrypoint, vars = {}) {
      const { unstable_startWorker } = wrangler();
      const worker = await unstable_startWorker({
        config: CONFIG,
        entrypoint,
        assets,
        // Bindings given here take precedence over the configuration's [vars].
        bindings: Object.fromEntries(
          Object.entries(vars).map(([name, value]) => [name, { type: "plain_text", value }]),
        ),
        sendMetrics: false,
        dev: {
          inspector: false,
          persist: false,
          watch: false,
          logLevel: "none",
          server: { hostname: LOOPBACK, port: 0 },
        },
      });
      return { url: await worker.url, stop: () => worker.dispose() };
    },
  };
}

/** The Miniflare API, with bundles written under `bundles`. */
export function miniflareHarness(assets: string, bundles: string): Harness {
  const bundled = new Map<string, Promise<string>>();
  // The deploy bundle, offline (scripts/wrangler.mjs); once per entry point.
  const bundle = (entrypoint: string) => {
    let script = bundled.get(entrypoint);
    if (!script) {
      const outdir = join(bundles, String(bundled.size));
      const args = ["deploy", "--dry-run", "--outdir", outdir, "--config", CONFIG];
      script = run(
        process.execPath,
        [join(PROJECT_ROOT, "scripts", "wrangler.mjs"), ...args, "--assets", assets, entrypoint],
        { cwd: PROJECT_ROOT },
      ).then(() => join(outdir, `${basename(entrypoint).replace(/\.ts$/, "")}.js`));
      bundled.set(entrypoint, script);
    }
    return script;
  };
  return {
    name: "Miniflare API",
    async start(entrypoint, vars = {}) {
      const scriptPath = await bundle(entrypoint);
      const { unstable_getMiniflareWorkerOptions } = wrangler();
      const { workerOptions } = unstable_getMiniflareWorkerOptions(CONFIG, undefined, {
        overrides: { assets: { directory: assets } },
      });
      const { Miniflare } = await import("miniflare");
      const miniflare = new Miniflare({
        ...workerOptions,
        bindings: { ...workerOptions.bindings, ...vars },
        modules: true,
        // Module names are relative to this folder; the bundle is one file in it.
        modulesRoot: join(scriptPath, ".."),
        scriptPath,
        host: LOOPBACK,
        port: 0,
      });
      return { url: await miniflare.ready, stop: () => miniflare.dispose() };
    },
  };
}
