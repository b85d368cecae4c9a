/**
 * Through workerd: our Worker against a bare passthrough of the same asset and a
 * fixed 304, in two harnesses (workerd-harness.ts), loaded over loopback from a separate process.
 * nginx serving the same files is the machine's reference where it is installed.
 *
 * In each harness, five Workers: "ours" with the rate limits raised so allowed traffic stays allowed
 * (one address, far below its limit: the limiter counts in the isolate and never needs KV, its
 * cheapest and most common path); "ours, limit 1", a limit of one request a minute, so the load
 * measures the 429 path; the passthrough, the fixed 304 and a fixed 304 with our 304's fields, its
 * floor (bench/workers/). Ours is the copy of
 * worker/index.ts beside the synthetic dist/ (see edge-dataset.ts). Every row of every harness is
 * measured round-robin in the same run, so drift in the machine's load spreads over all alike.
 */
import { join } from "node:path";
import { PROJECT_ROOT } from "../build/core/paths.js";
import { entryOf, EDGE_DATASET, kb, type EdgeLayout } from "./edge-dataset.js";
import { load, type LoadResult, type Server } from "./load.js";
import { findNginx, startNginx } from "./nginx.js";
import { median, table } from "./report.js";
import { miniflareHarness, startWorkerHarness, type Harness } from "./workerd-harness.js";

export interface LoadLimits {
  readonly runs: number;
  readonly seconds: number;
  readonly connections: number;
  readonly maxRequests: number;
}

const UNLIMITED = "1000000000";
const BASELINES = join(PROJECT_ROOT, "bench", "workers");
/** One client for all the load (Miniflare passes a client-sent CF-Connecting-IP through). */
const CLIENT = { "CF-Connecting-IP": "198.51.100.7" };
/** A share of unexpected statuses past which a measurement does not measure what it says. */
const MAX_UNEXPECTED_SHARE = 0.01;
/** Warm-up requests at most per target: a 429 needs the window's allowed request used first. */
const MAX_WARM_UP_REQUESTS = 3;

interface Target {
  /** The harness, or "nginx". */
  readonly group: string;
  readonly name: string;
  readonly server: Server;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly status: number;
}

const limitVars = (limit: string) => ({
  OPEN_DATA_LIMIT_PER_MINUTE: limit,
  SERVICE_METRICS_LIMIT_PER_MINUTE: limit,
});

/**
 * Awaited requests until the target answers the status it is measured on, so start-up, first
 * compilation and (for the 429 target) the window's allowed request are not measured.
 */
async function warm(target: Target): Promise<void> {
  let status = 0;
  for (let i = 0; i < MAX_WARM_UP_REQUESTS && status !== target.status; i++) {
    const response = await fetch(new URL(target.path, target.server.url), {
      // fetch would ask for gzip by default; autocannon sends no Accept-Encoding (identity).
      headers: { "Accept-Encoding": "identity", ...target.headers },
    });
    await response.arrayBuffer();
    status = response.status;
  }
  if (status !== target.status) {
    throw new Error(`${target.name}: expected ${target.status}, warm-up got ${status}`);
  }
}

function checkStatuses(target: Target, result: LoadResult): void {
  const expected = result.statuses[target.status] ?? 0;
  if (result.errors > 0 || expected < result.requests * (1 - MAX_UNEXPECTED_SHARE)) {
    throw new Error(
      `${target.group} ${target.name}: ${JSON.stringify(result.statuses)}, ${result.errors} errors; expected ${target.status}`,
    );
  }
}

/** The four Workers of one harness, started one after another, and what is measured on them. */
async function harnessTargets(
  harness: Harness,
  layout: EdgeLayout,
  started: (server: Promise<Server>) => Promise<Server>,
): Promise<Target[]> {
  const entry = entryOf(layout.manifest, EDGE_DATASET);
  const { identity } = entry.variants;
  const br = entry.variants.br!;
  const ours = await started(harness.start(layout.entrypoint, limitVars(UNLIMITED)));
  const limited = await started(harness.start(layout.entrypoint, limitVars("1")));
  const passthrough = await started(harness.start(join(BASELINES, "passthrough.ts")));
  const fixed304 = await started(harness.start(join(BASELINES, "fixed-304.ts")));
  const fixed304Fields = await started(harness.start(join(BASELINES, "fixed-304-fields.ts")));
  const group = harness.name;
  const brotli = { "Accept-Encoding": "br" };
  return [
    { group, name: "passthrough 200", server: passthrough, path: identity.asset, status: 200 },
    { group, name: "ours 200", server: ours, path: entry.path, status: 200 },
    // The .br file as it is stored. Not asked for with Accept-Encoding: br, or the front line
    // brotli-compresses it again (it has no Content-Type), which is work ours does not do.
    { group, name: "passthrough 200 br", server: passthrough, path: br.asset, status: 200 },
    { group, name: "ours 200 br", server: ours, path: entry.path, headers: brotli, status: 200 },
    {
      group,
      name: "ours 304",
      server: ours,
      path: entry.path,
      headers: { "If-None-Match": identity.etag },
      status: 304,
    },
    { group, name: "fixed 304", server: fixed304, path: entry.path, status: 304 },
    {
      group,
      name: "fixed 304 with our fields",
      server: fixed304Fields,
      path: entry.path,
      status: 304,
    },
    { group, name: "ours 429 (limit 1)", server: limited, path: entry.path, status: 429 },
  ];
}

/** nginx's rows, where it is installed and starts; otherwise a note saying why there are none. */
async function nginxTargets(
  layout: EdgeLayout,
  started: (server: Promise<Server>) => Promise<Server>,
): Promise<{ targets: Target[]; note: string }> {
  const nginx = findNginx();
  if (!nginx) {
    return {
      targets: [],
      note: "nginx is not installed (Debian package `nginx`): no reference rows.",
    };
  }
  const { asset } = entryOf(layout.manifest, EDGE_DATASET).variants.identity;
  let server: Server;
  try {
    server = await started(startNginx(nginx, layout.distDir, join(layout.distDir, "..", "nginx")));
  } catch (error) {
    return { targets: [], note: `nginx did not start (${String(error)}): no reference rows.` };
  }
  // nginx's own validator for the same file.
  const response = await fetch(new URL(asset, server.url));
  await response.arrayBuffer();
  const etag = response.headers.get("ETag") ?? "";
  const group = "nginx";
  return {
    targets: [
      { group, name: "nginx 200", server, path: asset, status: 200 },
      {
        group,
        name: "nginx 304",
        server,
        path: asset,
        headers: { "If-None-Match": etag },
        status: 304,
      },
    ],
    note: `nginx (${nginx}, one process) serves the same files.`,
  };
}

/** The workerd (and nginx) tables, in Markdown. */
export async function workerdBenchmark(layout: EdgeLayout, limits: LoadLimits): Promise<string> {
  const servers: Server[] = [];
  const started = async (server: Promise<Server>) => {
    servers.push(await server);
    return servers.at(-1)!;
  };
  try {
    const harnesses = [
      miniflareHarness(layout.distDir, join(layout.distDir, "..", "bundles")),
      startWorkerHarness(layout.distDir),
    ];
    const targets: Target[] = [];
    for (const harness of harnesses)
      targets.push(...(await harnessTargets(harness, layout, started)));
    const nginx = await nginxTargets(layout, started);
    targets.push(...nginx.targets);
    for (const target of targets) await warm(target);

    const results = new Map<Target, LoadResult[]>(targets.map((t) => [t, []]));
    for (let run = 0; run < limits.runs; run++) {
      for (const target of targets) {
        const result = await load({
          url: new URL(target.path, target.server.url),
          headers: { ...CLIENT, ...target.headers },
          connections: limits.connections,
          seconds: limits.seconds,
          maxRequests: limits.maxRequests,
        });
        checkStatuses(target, result);
        results.get(target)!.push(result);
      }
    }
    return report(
      harnesses.map((h) => h.name),
      targets,
      results,
      limits,
      nginx.note,
    );
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
}

function report(
  harnesses: readonly string[],
  targets: readonly Target[],
  results: ReadonlyMap<Target, readonly LoadResult[]>,
  limits: LoadLimits,
  note: string,
): string {
  const rate = (group: string, name: string) => {
    const target = targets.find((t) => t.group === group && t.name === name);
    return target ? median(results.get(target)!.map((r) => r.requestsPerSecond)) : NaN;
  };
  const rows = targets.map((target) => {
    const runs = results.get(target)!;
    const rates = runs.map((r) => r.requestsPerSecond);
    const whole = (n: number) => Math.round(n).toLocaleString("en");
    return [
      target.group,
      target.name,
      target.status,
      whole(median(rates)),
      `${whole(Math.min(...rates))} to ${whole(Math.max(...rates))}`,
      kb(median(runs.map((r) => r.bytesPerResponse))),
      `${median(runs.map((r) => r.p50Ms))} / ${median(runs.map((r) => r.p99Ms))} ms`,
    ];
  });
  // Ratios of medians, side by side per harness, against the edge targets where one is set.
  const ratio = (a: string, b: string, target: number | string) => [
    `${a} / ${b}`,
    typeof target === "number" ? `>= ${target}` : target,
    ...harnesses.map((h) => {
      const value = rate(h, a) / rate(h, b);
      const verdict = typeof target === "number" ? (value >= target ? " met" : " **not met**") : "";
      return `${value.toFixed(2)}${verdict}`;
    }),
  ];
  const nginxRatio = (ours: string, theirs: string) => [
    `${ours} / ${theirs}`,
    "reference",
    ...harnesses.map((h) => (rate(h, ours) / rate("nginx", theirs)).toFixed(2)),
  ];
  return [
    `${limits.runs} runs of ${limits.seconds} s per row, ${limits.connections} connections, all rows round-robin; the load generator (autocannon, its own process) shares the machine's cores. Miniflare API: one workerd process answers the socket. unstable_startWorker: wrangler's proxy Worker, in a second workerd process, comes first (as in the e2e tests and npm start). ${note}`,
    table(
      [
        "harness",
        "server",
        "status",
        "req/s (median)",
        "range over runs",
        "bytes per response",
        "latency p50 / p99",
      ],
      rows,
    ),
    table(
      ["ratio", "target or meaning", ...harnesses],
      [
        ratio("ours 200", "passthrough 200", 0.95),
        ratio("ours 200 br", "passthrough 200 br", 0.8),
        ratio("ours 304", "ours 200", 2),
        ratio("fixed 304", "ours 200", "the most ours 304 / ours 200 can be in the harness"),
        ratio("ours 304", "fixed 304", 0.95),
        ratio(
          "fixed 304 with our fields",
          "fixed 304",
          "the most ours 304 / fixed 304 can be with the fields a 304 must carry",
        ),
        ratio(
          "ours 304",
          "fixed 304 with our fields",
          "our 304 against its floor: our code's cost",
        ),
        ratio("ours 429 (limit 1)", "fixed 304", "our 429 against a 304 that does no work"),
        ...(targets.some((t) => t.group === "nginx")
          ? [nginxRatio("ours 200", "nginx 200"), nginxRatio("ours 304", "nginx 304")]
          : []),
      ],
    ),
  ].join("\n\n");
}
