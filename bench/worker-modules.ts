/**
 * The Worker's own modules (worker/*.ts), loaded into Node for the in-process benchmarks.
 *
 * They are transpiled at run time with TypeScript's transpileModule, not imported statically: a
 * static import would make `tsc -p build` (which compiles bench/ with the build, for Node) type-check
 * the Worker against Node's types, where Workers-only fields such as `request.cf` and
 * `encodeBody` do not exist, and a benchmark could then break the build's compile. Transpiling only
 * strips types; the code that runs is the Worker's, unchanged. In Node `request.cf` is absent, so
 * the handler negotiates on the Accept-Encoding header, as it does without a front line.
 *
 * The types below are the part of the Worker's interface the benchmarks use, written out here for
 * the same reason; a mismatch shows at run time (the benchmarks check the statuses they get).
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import type { Manifest } from "../worker/manifest.js";
import { PROJECT_ROOT } from "../build/paths.js";

// Platform-free types of the Worker's can be shared; the handler's are written out below.
import type { AssetFetcher, Clock, KvStore, Log } from "../worker/runtime.js";
export type { AssetFetcher, Clock, KvStore };

/** worker/handler.ts: Deps. The benchmarks pass `unknown` values from one Worker function to another. */
export interface Deps {
  readonly routes: unknown;
  readonly assets: AssetFetcher;
  readonly store: KvStore;
  readonly config: unknown;
  readonly clock: Clock;
  readonly waitUntil: (promise: Promise<unknown>) => void;
  readonly log: Log;
  readonly limiter: unknown;
  readonly maintenance: unknown;
  readonly counterKeys: unknown;
}

export interface WorkerModules {
  handle(request: Request, deps: Deps): Promise<Response>;
  buildRoutes(manifest: Manifest): Deps["routes"];
  readConfig(vars: Record<string, string>, warn?: (message: string) => void): Deps["config"];
  newLimiter(): Deps["limiter"];
  newMaintenanceFlag(): Deps["maintenance"];
  /** Counter keys of one isolate, with a fixed secret as a deployment has (worker/counter-key.ts). */
  newCounterKeys(): Deps["counterKeys"];
  /** worker/client.ts: CLIENT_ADDRESS_HEADER. */
  clientAddressHeader: string;
}

// Not a secret: it only makes the benchmark's counter keys stable, as a deployment's are.
const BENCH_SECRET = "benchmark-rate-limit-key";

// The entry imports dist/manifest.json at bundle time; the benchmarks build routes themselves.
const SKIPPED = new Set(["index.ts"]);

/** Transpiles worker/*.ts into `<dir>/worker` as ES modules and loads what the benchmarks use. */
export async function loadWorkerModules(dir: string): Promise<WorkerModules> {
  const source = join(PROJECT_ROOT, "worker");
  const out = join(dir, "worker");
  await mkdir(out, { recursive: true });
  // Node reads .js as CommonJS unless the nearest package.json says otherwise.
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  for (const name of await readdir(source)) {
    if (!name.endsWith(".ts") || name.endsWith(".d.ts") || SKIPPED.has(name)) continue;
    const { outputText } = ts.transpileModule(await readFile(join(source, name), "utf8"), {
      fileName: name,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    });
    await writeFile(join(out, name.replace(/\.ts$/, ".js")), outputText);
  }
  const load = (name: string) => import(pathToFileURL(join(out, name)).href);
  const [handler, routes, config, ratelimit, maintenance, client, counterKey] = await Promise.all(
    ["handler", "routes", "config", "ratelimit", "maintenance", "client", "counter-key"].map((m) =>
      load(`${m}.js`),
    ),
  );
  return {
    handle: handler.handle,
    buildRoutes: routes.buildRoutes,
    readConfig: config.readConfig,
    newLimiter: () => new ratelimit.RateLimiter(),
    newMaintenanceFlag: () => new maintenance.MaintenanceFlag(),
    newCounterKeys: () => new counterKey.CounterKeys(BENCH_SECRET, () => {}),
    clientAddressHeader: client.CLIENT_ADDRESS_HEADER,
  };
}

/** A fresh isolate's dependencies over in-memory stand-ins, as index.ts builds them from env. */
export function isolateDeps(
  modules: WorkerModules,
  manifest: Manifest,
  parts: Pick<Deps, "assets" | "store" | "clock"> & { readonly vars: Record<string, string> },
): Deps {
  return {
    routes: modules.buildRoutes(manifest),
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
