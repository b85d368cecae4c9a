/**
 * Issue 6, part 2, through workerd: our Worker against a bare passthrough of the same asset and a
 * fixed 304, each started with wrangler's unstable_startWorker (inspector, persistence and watching
 * off; never `wrangler dev`) and loaded over loopback from a separate process. nginx serving the
 * same files is the machine's reference where it is installed.
 *
 * Every Worker starts from the project's wrangler.toml, so compatibility date, bindings and
 * run_worker_first are the deployed ones; the benchmark overrides only the entry point, the assets
 * folder (the synthetic set's) and, for ours, the rate limits:
 * - "ours": limits raised so allowed traffic stays allowed (one address, far below the limit, so
 *   the limiter counts in the isolate and never needs KV: its cheapest and most common path);
 * - "ours, limit 1": a limit of one request a minute, so the load measures the 429 path.
 * Our entry point is the copy of worker/index.ts beside the synthetic dist/ (see edge-dataset.ts).
 */
import { join } from "node:path";
import { PROJECT_ROOT } from "../build/paths.js";
import { entryOf, EDGE_DATASET, kb, type EdgeLayout } from "./edge-dataset.js";
import { load, type LoadResult } from "./load.js";
import { findNginx, startNginx, type Server } from "./nginx.js";
import { median, table } from "./report.js";

export interface LoadLimits {
  readonly runs: number;
  readonly seconds: number;
  readonly connections: number;
  readonly maxRequests: number;
}

/** The settings scripts/wrangler.mjs uses: nothing leaves the machine. */
const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};
const UNLIMITED = "1000000000";
const BASELINES = join(PROJECT_ROOT, "bench", "workers");
/** One client for all the load (Miniflare passes a client-sent CF-Connecting-IP through). */
const CLIENT = { "CF-Connecting-IP": "198.51.100.7" };
/** A share of unexpected statuses past which a measurement does not measure what it says. */
const MAX_UNEXPECTED_SHARE = 0.01;

interface Target {
  readonly name: string;
  readonly server: Server;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly status: number;
}

async function startWorker(
  entrypoint: string,
  assets: string,
  vars: Record<string, string> = {},
): Promise<Server> {
  for (const [name, value] of Object.entries(OFFLINE_ENV)) process.env[name] ??= value;
  const { unstable_startWorker } = await import("wrangler");
  const worker = await unstable_startWorker({
    config: join(PROJECT_ROOT, "wrangler.toml"),
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
      server: { hostname: "127.0.0.1", port: 0 },
    },
  });
  return { url: await worker.url, stop: () => worker.dispose() };
}

/** One awaited request, so start-up and first compilation are not measured; checks the status. */
async function warm(target: Target): Promise<void> {
  const response = await fetch(new URL(target.path, target.server.url), {
    // fetch would ask for gzip by default; autocannon sends no Accept-Encoding (identity).
    headers: { "Accept-Encoding": "identity", ...target.headers },
  });
  await response.arrayBuffer();
  if (response.status !== target.status) {
    throw new Error(`${target.name}: expected ${target.status}, warm-up got ${response.status}`);
  }
}

function checkStatuses(target: Target, result: LoadResult): void {
  const expected = result.statuses[target.status] ?? 0;
  if (result.errors > 0 || expected < result.requests * (1 - MAX_UNEXPECTED_SHARE)) {
    throw new Error(
      `${target.name}: ${JSON.stringify(result.statuses)}, ${result.errors} errors; expected ${target.status}`,
    );
  }
}

const limitVars = (limit: string) => ({
  OPEN_DATA_LIMIT_PER_MINUTE: limit,
  SERVICE_METRICS_LIMIT_PER_MINUTE: limit,
});

/** The workerd (and nginx) tables, in Markdown. */
export async function workerdBenchmark(layout: EdgeLayout, limits: LoadLimits): Promise<string> {
  const entry = entryOf(layout.manifest, EDGE_DATASET);
  const { identity } = entry.variants;
  const br = entry.variants.br!;
  const servers: Server[] = [];
  const start = async (server: Promise<Server>) => {
    servers.push(await server);
    return servers.at(-1)!;
  };
  try {
    // One after another: each start bundles a Worker and boots workerd.
    const dist = layout.distDir;
    const ours = await start(startWorker(layout.entrypoint, dist, limitVars(UNLIMITED)));
    const limited = await start(startWorker(layout.entrypoint, dist, limitVars("1")));
    const passthrough = await start(startWorker(join(BASELINES, "passthrough.ts"), dist));
    const fixed304 = await start(startWorker(join(BASELINES, "fixed-304.ts"), dist));
    const targets: Target[] = [
      { name: "passthrough 200", server: passthrough, path: identity.asset, status: 200 },
      { name: "ours 200", server: ours, path: entry.path, status: 200 },
      {
        name: "passthrough 200 br",
        server: passthrough,
        path: br.asset,
        headers: { "Accept-Encoding": "br" },
        status: 200,
      },
      {
        name: "ours 200 br",
        server: ours,
        path: entry.path,
        headers: { "Accept-Encoding": "br" },
        status: 200,
      },
      {
        name: "ours 304",
        server: ours,
        path: entry.path,
        headers: { "If-None-Match": identity.etag },
        status: 304,
      },
      { name: "fixed 304", server: fixed304, path: entry.path, status: 304 },
      { name: "ours 429 (limit 1)", server: limited, path: entry.path, status: 429 },
    ];
    const nginx = findNginx();
    let note = "nginx is not installed (Debian package `nginx`): no reference row.";
    if (nginx) {
      const server = await start(startNginx(nginx, dist, join(dist, "..", "nginx")));
      const etag = (await fetch(new URL(identity.asset, server.url))).headers.get("ETag") ?? "";
      targets.push(
        { name: "nginx 200", server, path: identity.asset, status: 200 },
        {
          name: "nginx 304",
          server,
          path: identity.asset,
          headers: { "If-None-Match": etag },
          status: 304,
        },
      );
      note = `nginx (${nginx}, one process) serves the same files.`;
    }
    // The limited Worker's first request of a window is allowed; warm it until it refuses.
    await warm({ ...targets.find((t) => t.server === limited)!, status: 200 });
    for (const target of targets) await warm(target);

    const results = new Map<Target, LoadResult[]>(targets.map((t) => [t, []]));
    // Round-robin, so drift in the machine's load spreads over every target alike.
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
    return report(targets, results, limits, note);
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
}

function report(
  targets: readonly Target[],
  results: ReadonlyMap<Target, readonly LoadResult[]>,
  limits: LoadLimits,
  note: string,
): string {
  const rate = (name: string) => {
    const target = targets.find((t) => t.name === name);
    return target ? median(results.get(target)!.map((r) => r.requestsPerSecond)) : NaN;
  };
  const rows = targets.map((target) => {
    const runs = results.get(target)!;
    const rates = runs.map((r) => r.requestsPerSecond);
    return [
      target.name,
      target.status,
      Math.round(median(rates)).toLocaleString("en"),
      `${Math.round(Math.min(...rates)).toLocaleString("en")} to ${Math.round(Math.max(...rates)).toLocaleString("en")}`,
      kb(median(runs.map((r) => r.bytesPerResponse))),
      `${median(runs.map((r) => r.p50Ms))} / ${median(runs.map((r) => r.p99Ms))} ms`,
    ];
  });
  // A ratio of medians, against its target where issue 6 sets one.
  const ratio = (a: string, b: string, target: number | string): (string | number)[] => {
    const value = rate(a) / rate(b);
    const verdict = typeof target === "string" ? target : value >= target ? "met" : "**not met**";
    return [
      `${a} / ${b}`,
      value.toFixed(2),
      typeof target === "number" ? `>= ${target}` : "-",
      verdict,
    ];
  };
  return [
    `${limits.runs} runs of ${limits.seconds} s per row, ${limits.connections} connections, round-robin; the load generator (autocannon, its own process) shares the machine's cores. ${note}`,
    table(
      [
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
      ["ratio", "measured", "target", "verdict or meaning"],
      [
        ratio("ours 200", "passthrough 200", 0.8),
        ratio("ours 200 br", "passthrough 200 br", 0.8),
        ratio("ours 304", "ours 200", 2),
        ratio("fixed 304", "ours 200", "the most ours 304 / ours 200 can be in this harness"),
        ratio("ours 304", "fixed 304", "our 304 against one that does no work"),
        ratio("ours 429 (limit 1)", "fixed 304", "our 429 against a 304 that does no work"),
        ...(targets.some((t) => t.name === "nginx 200")
          ? [
              ratio("ours 200", "nginx 200", "reference"),
              ratio("ours 304", "nginx 304", "reference"),
            ]
          : []),
      ],
    ),
  ].join("\n\n");
}
