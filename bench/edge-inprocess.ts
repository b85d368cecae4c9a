/**
 * In process: requests per second of the Worker's handle() on the 200, 304 and
 * 429 paths, with in-memory ASSETS and KV, against a null handler that returns a fixed Response of
 * the same status and body. The ratio is what our code costs on top of making a Response at all.
 * The 200 br and 304 paths are run a second time as the entry runs them with a request-metrics
 * binding (worker/index.ts: the outcome filled in, then one data point written), so the metrics'
 * cost shows as the difference of two ratios measured side by side.
 * Each measurement is bounded by a request count and a time, and the two alternate run by run.
 */
import { entryOf, EDGE_DATASET, kb, readVariant, type EdgeLayout } from "./edge-dataset.js";
import { MemoryAssets, MemoryKv } from "../test/fakes/platform.js";
import type { MetricsDataPoint, MetricsSink } from "../contract/metrics.js";
import { systemClock as wallClock } from "../worker/runtime.js";
import { median, table } from "./report.js";
import { isolateDeps, type Clock, type Deps, type WorkerModules } from "./worker-modules.js";

export interface InProcessLimits {
  readonly runs: number;
  /** Per measurement, whichever comes first. */
  readonly maxMs: number;
  readonly maxRequests: number;
}

/** Untimed requests before each measurement, so both handlers run optimised code. */
const WARM_UP_REQUESTS = 2_000;
/** Limits that keep allowed traffic allowed, and one that refuses all but the first request. */
const UNLIMITED_VARS = { OPEN_DATA_LIMIT_PER_MINUTE: "1000000000" };
const ONE_PER_MINUTE_VARS = { OPEN_DATA_LIMIT_PER_MINUTE: "1" };
/** https, so the handler does not redirect; the host is never resolved. */
const ORIGIN = "https://bench.invalid";
const CLIENT = "198.51.100.7";

export type Handler = (request: Request) => Promise<Response>;

export interface Case {
  readonly name: string;
  readonly status: number;
  readonly request: Request;
  readonly ours: Handler;
  readonly null: Handler;
}

/** Requests per second of `handler`, or an error if it answers another status. */
export async function rate(
  handler: Handler,
  c: Pick<Case, "name" | "status" | "request">,
  limits: InProcessLimits,
): Promise<number> {
  const once = async () => {
    const response = await handler(c.request);
    if (response.status !== c.status) {
      throw new Error(`${c.name}: expected ${c.status}, got ${response.status}`);
    }
    // Bodies are not read, by either handler: reading 600 KB would measure copying, not us.
    await response.body?.cancel();
  };
  for (let i = 0; i < WARM_UP_REQUESTS; i++) await once();
  const start = performance.now();
  let n = 0;
  while (n < limits.maxRequests) {
    await once();
    // Reading the clock costs too; look every 64 requests.
    if (++n % 64 === 0 && performance.now() - start >= limits.maxMs) break;
  }
  return n / ((performance.now() - start) / 1000);
}

async function cases(modules: WorkerModules, layout: EdgeLayout): Promise<Case[]> {
  const files = new Map<string, Blob>();
  for (const entry of layout.manifest.datasets) {
    for (const variant of Object.values(entry.variants)) {
      files.set(variant.asset, new Blob([await readVariant(layout.distDir, variant.asset)]));
    }
  }
  const deps = (vars: Record<string, string>, clock: Clock = wallClock): Deps =>
    isolateDeps(modules, layout.manifest, {
      assets: new MemoryAssets(files, false),
      store: new MemoryKv(clock),
      clock,
      vars,
    });
  const allowed = deps(UNLIMITED_VARS);
  // Time stands still for the limited client, so its window cannot end in the middle of a run
  // (a new minute would allow one request again).
  const frozenAt = wallClock.now();
  const limited = deps(ONE_PER_MINUTE_VARS, {
    now: () => frozenAt,
    sleep: (ms) => wallClock.sleep(ms),
  });
  const entry = entryOf(layout.manifest, EDGE_DATASET);
  const url = `${ORIGIN}${entry.path}`;
  const request = (headers: Record<string, string> = {}) =>
    new Request(url, { headers: { [modules.clientAddressHeader]: CLIENT, ...headers } });
  const identity = files.get(entry.variants.identity.asset)!;
  const br = files.get(entry.variants.br!.asset)!;
  const fixed =
    (status: number, body: Blob | string | null): Handler =>
    () =>
      Promise.resolve(new Response(body, { status }));
  // A binding that keeps the last point, so making it cannot be optimised away.
  const sink: MetricsSink & { last?: MetricsDataPoint } = {
    writeDataPoint(point) {
      this.last = point;
    },
  };
  const measured =
    (deps: Deps): Handler =>
    async (r) => {
      const outcome = modules.newOutcome();
      try {
        return await modules.handle(r, deps, outcome);
      } finally {
        modules.recordRequest(sink, outcome, r);
      }
    };
  // The first request of the limited client is allowed; every later one is refused.
  await modules.handle(request(), limited).then((r) => r.body?.cancel());
  return [
    {
      name: `200 identity (${kb(identity.size)})`,
      status: 200,
      request: request(),
      ours: (r) => modules.handle(r, allowed),
      null: fixed(200, identity),
    },
    {
      name: `200 br (${kb(br.size)})`,
      status: 200,
      request: request({ "Accept-Encoding": "br" }),
      ours: (r) => modules.handle(r, allowed),
      null: fixed(200, br),
    },
    {
      name: "304 (If-None-Match)",
      status: 304,
      request: request({ "If-None-Match": entry.variants.identity.etag }),
      ours: (r) => modules.handle(r, allowed),
      null: fixed(304, null),
    },
    {
      name: `200 br (${kb(br.size)}), with a metrics binding`,
      status: 200,
      request: request({ "Accept-Encoding": "br" }),
      ours: measured(allowed),
      null: fixed(200, br),
    },
    {
      name: "304 (If-None-Match), with a metrics binding",
      status: 304,
      request: request({ "If-None-Match": entry.variants.identity.etag }),
      ours: measured(allowed),
      null: fixed(304, null),
    },
    {
      name: "429",
      status: 429,
      request: request(),
      ours: (r) => modules.handle(r, limited),
      null: fixed(429, '{"Code":"429","Message":"Too Many Requests"}'),
    },
  ];
}

/** The in-process table, in Markdown. */
export async function inProcessBenchmark(
  modules: WorkerModules,
  layout: EdgeLayout,
  limits: InProcessLimits,
): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const c of await cases(modules, layout)) {
    const ours: number[] = [];
    const nulls: number[] = [];
    for (let run = 0; run < limits.runs; run++) {
      ours.push(await rate(c.ours, c, limits));
      nulls.push(await rate(c.null, c, limits));
    }
    const [o, n] = [median(ours), median(nulls)];
    rows.push([
      c.name,
      Math.round(o).toLocaleString("en"),
      Math.round(n).toLocaleString("en"),
      (o / n).toFixed(2),
      `${(1e6 / o - 1e6 / n).toFixed(1)} µs`,
    ]);
  }
  return table(
    ["path", "handle() req/s", "null handler req/s", "ours / null", "our cost per request"],
    rows,
  );
}
