/**
 * The Worker's own modules (worker/ and its sub-folders), loaded into Node for the in-process benchmarks.
 *
 * They are transpiled at run time with TypeScript's transpileModule: the code that runs is the
 * Worker's, unchanged, as ES modules Node can load without a bundler. In Node `request.cf` is
 * absent, so the handler negotiates on the Accept-Encoding header, as it does without a front
 * line. The types are the Worker's own: bench/tsconfig.json compiles the benchmarks with Node's
 * types and the Workers runtime's (worker-configuration.d.ts) together, so a change to the
 * handler's dependencies fails the benchmarks' compile instead of failing open at run time.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { PROJECT_ROOT, WORKER_SOURCE_FOLDERS } from "../build/core/paths.js";
import type { CounterKeys } from "../worker/rate-limit/counter-key.js";
import type { Deps } from "../worker/deps.js";
import type { MaintenanceFlag } from "../worker/maintenance.js";
import type { Manifest } from "../contract/manifest.js";
import type { RateLimiter } from "../worker/rate-limit/limiter.js";
import type { Clock } from "../worker/runtime.js";
export type { Clock, Deps };

export interface WorkerModules {
  handle: typeof import("../worker/handler.js").handle;
  routeTable: typeof import("../worker/routes.js").routeTable;
  readConfig: typeof import("../contract/vars.js").readConfig;
  newLimiter(): RateLimiter;
  newMaintenanceFlag(): MaintenanceFlag;
  /** Counter keys of one isolate, with a fixed secret as a deployment has (worker/rate-limit/counter-key.ts). */
  newCounterKeys(): CounterKeys;
  /** worker/rate-limit/client-bucket.ts: CLIENT_ADDRESS_HEADER. */
  clientAddressHeader: string;
  /** worker/outcome.ts and worker/metrics/record.ts: what the entry does around handle(). */
  newOutcome: typeof import("../worker/outcome.js").newOutcome;
  recordRequest: typeof import("../worker/metrics/record.js").recordRequest;
  /** worker/entry.ts: what a manifest serves, and at which host (Sites). */
  selectionOf: typeof import("../worker/entry.js").selectionOf;
  servedFor: typeof import("../worker/entry.js").servedFor;
}

// Not a secret: it only makes the benchmark's counter keys stable, as a deployment's are.
const BENCH_SECRET = "benchmark-rate-limit-key";

// The entry imports dist/manifest.json at bundle time; the benchmarks build routes themselves.
const SKIPPED = new Set(["index.ts"]);

/**
 * Transpiles the Worker's sources (worker/ with its sub-folders, and contract/) into `<dir>`, in
 * the same layout, as ES modules, and loads what the benchmarks use.
 */
export async function loadWorkerModules(dir: string): Promise<WorkerModules> {
  // Node reads .js as CommonJS unless the nearest package.json says otherwise.
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  for (const folder of WORKER_SOURCE_FOLDERS) {
    const source = join(PROJECT_ROOT, folder);
    // Recursive: worker/ has sub-folders by concern (http/, rate-limit/, near/).
    for (const entry of await readdir(source, { recursive: true })) {
      const name = String(entry);
      if (!name.endsWith(".ts") || name.endsWith(".d.ts") || SKIPPED.has(name)) continue;
      await mkdir(dirname(join(dir, folder, name)), { recursive: true });
      const { outputText } = ts.transpileModule(await readFile(join(source, name), "utf8"), {
        fileName: name,
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2022,
          verbatimModuleSyntax: true,
        },
      });
      await writeFile(join(dir, folder, name.replace(/\.ts$/, ".js")), outputText);
    }
  }
  // Each module typed as its source: what was transpiled is that source, unchanged.
  const load = async <M>(module: string): Promise<M> =>
    (await import(pathToFileURL(join(dir, `${module}.js`)).href)) as M;
  const [
    handler,
    routes,
    vars,
    ratelimit,
    maintenance,
    client,
    counterKey,
    outcome,
    metrics,
    entry,
  ] = await Promise.all([
    load<typeof import("../worker/handler.js")>("worker/handler"),
    load<typeof import("../worker/routes.js")>("worker/routes"),
    load<typeof import("../contract/vars.js")>("contract/vars"),
    load<typeof import("../worker/rate-limit/limiter.js")>("worker/rate-limit/limiter"),
    load<typeof import("../worker/maintenance.js")>("worker/maintenance"),
    load<typeof import("../worker/rate-limit/client-bucket.js")>("worker/rate-limit/client-bucket"),
    load<typeof import("../worker/rate-limit/counter-key.js")>("worker/rate-limit/counter-key"),
    load<typeof import("../worker/outcome.js")>("worker/outcome"),
    load<typeof import("../worker/metrics/record.js")>("worker/metrics/record"),
    load<typeof import("../worker/entry.js")>("worker/entry"),
  ]);
  return {
    handle: handler.handle,
    routeTable: routes.routeTable,
    readConfig: vars.readConfig,
    newLimiter: () => new ratelimit.RateLimiter(),
    newMaintenanceFlag: () => new maintenance.MaintenanceFlag(),
    newCounterKeys: () => new counterKey.CounterKeys(BENCH_SECRET, () => {}),
    clientAddressHeader: client.CLIENT_ADDRESS_HEADER,
    newOutcome: outcome.newOutcome,
    recordRequest: metrics.recordRequest,
    selectionOf: entry.selectionOf,
    servedFor: entry.servedFor,
  };
}

/** A fresh isolate's dependencies over in-memory stand-ins, as index.ts builds them from env. */
export function isolateDeps(
  modules: WorkerModules,
  manifest: Manifest,
  parts: Pick<Deps, "assets" | "store" | "clock"> & { readonly vars: Record<string, string> },
): Deps {
  return {
    routes: modules.routeTable(manifest),
    assets: parts.assets,
    store: parts.store,
    config: modules.readConfig(parts.vars),
    clock: parts.clock,
    waitUntil: () => {},
    log: () => {},
    limiter: modules.newLimiter(),
    maintenance: modules.newMaintenanceFlag(),
    counterKeys: modules.newCounterKeys(),
  };
}
