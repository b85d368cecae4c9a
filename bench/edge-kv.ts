/**
 * KV operations per 1,000 requests under steady load, from one address and from
 * 1,000 addresses (CF-Connecting-IP), counted on an instrumented in-memory KV through handle().
 * Time is simulated: requests arrive at a steady rate over two rate-limit windows, and the
 * limiter's background syncs run at the simulated times they would run at, so two minutes of load
 * take seconds. One isolate serves all the load (its counts are then never shared by another).
 */
import { entryOf, EDGE_DATASET, readVariant, type EdgeLayout } from "./edge-dataset.js";
import { ManualClock, MemoryAssets, MemoryKv } from "../test/fakes/platform.js";
import { table } from "./report.js";
import { isolateDeps, type WorkerModules } from "./worker-modules.js";

interface Scenario {
  readonly name: string;
  readonly addresses: number;
  /** Requests per second, all addresses together. */
  readonly perSecond: number;
}

const SCENARIOS: readonly Scenario[] = [
  { name: "1 address, 100 req/s (far over its quota)", addresses: 1, perSecond: 100 },
  { name: "1,000 addresses, 100 req/s in all (6 a minute each)", addresses: 1000, perSecond: 100 },
  {
    name: "1,000 addresses, 2,000 req/s in all (120 a minute each, near the quota)",
    addresses: 1000,
    perSecond: 2000,
  },
];

/** Two whole rate-limit windows of steady load. */
const SIMULATED_SECONDS = 120;
/** A minute boundary, so the load covers exactly two windows. */
const START_MS = Date.UTC(2026, 10, 23, 12, 0, 0);
/** Simulated time after the load for the last syncs to finish. */
const DRAIN_MS = 5_000;
/** KV takes at most one write per key per second (platform notes). */
const KV_WRITE_INTERVAL_MS = 1_000;
const ORIGIN = "https://bench.invalid";

// Addresses from 198.18.0.0/15, the range set aside for benchmarks (RFC 2544).
function address(n: number): string {
  return `198.18.${n >> 8}.${n & 255}`;
}

/** Most writes to one key within any KV_WRITE_INTERVAL_MS. */
function mostWritesPerInterval(times: readonly number[]): number {
  let most = 0;
  for (let start = 0, end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= KV_WRITE_INTERVAL_MS) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

interface KvResult {
  readonly scenario: Scenario;
  readonly requests: number;
  readonly allowed: number;
  readonly refused: number;
  readonly reads: number;
  readonly writes: number;
  readonly keysWritten: number;
  /** Most writes to one key within any KV_WRITE_INTERVAL_MS. */
  readonly mostWritesPerSecond: number;
}

async function simulate(
  modules: WorkerModules,
  layout: EdgeLayout,
  scenario: Scenario,
): Promise<KvResult> {
  const entry = entryOf(layout.manifest, EDGE_DATASET);
  // Clients that accept brotli, as most do; the KV traffic does not depend on the body.
  const br = entry.variants.br!;
  const files = new Map([[br.asset, new Blob([await readVariant(layout.distDir, br.asset)])]]);
  const clock = new ManualClock(START_MS);
  const kv = new MemoryKv(clock);
  // The project's defaults (no vars): the limit is what decides when counts are shared.
  const deps = isolateDeps(modules, layout.manifest, {
    assets: new MemoryAssets(files, false),
    store: kv,
    clock,
    vars: {},
  });
  const statuses = new Map<number, number>();
  const requests = scenario.perSecond * SIMULATED_SECONDS;
  for (let i = 0; i < requests; i++) {
    await clock.advanceTo(START_MS + (i * 1000) / scenario.perSecond);
    const request = new Request(`${ORIGIN}${entry.path}`, {
      headers: {
        [modules.clientAddressHeader]: address(i % scenario.addresses),
        "Accept-Encoding": "br",
      },
    });
    const response = await modules.handle(request, deps);
    await response.body?.cancel();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  }
  await clock.advanceTo(START_MS + SIMULATED_SECONDS * 1000 + DRAIN_MS);
  const unexpected = [...statuses.keys()].filter((s) => s !== 200 && s !== 429);
  if (unexpected.length) throw new Error(`KV simulation answered ${unexpected.join(", ")}`);

  const writesByKey = new Map<string, number[]>();
  for (const { key, at } of kv.writes) writesByKey.set(key, [...(writesByKey.get(key) ?? []), at]);
  const writeTimes = [...writesByKey.values()];
  return {
    scenario,
    requests,
    allowed: statuses.get(200) ?? 0,
    refused: statuses.get(429) ?? 0,
    reads: kv.reads.length,
    writes: writeTimes.reduce((a, t) => a + t.length, 0),
    keysWritten: writeTimes.length,
    mostWritesPerSecond: Math.max(0, ...writeTimes.map(mostWritesPerInterval)),
  };
}

/** The KV table, in Markdown, with the verdict on the target of at most one write per key per second. */
export async function kvBenchmark(modules: WorkerModules, layout: EdgeLayout): Promise<string> {
  const results: KvResult[] = [];
  for (const scenario of SCENARIOS) results.push(await simulate(modules, layout, scenario));
  // Each request needs two pieces of shared state: the maintenance flag and its client's count.
  const fromIsolate = (r: KvResult) => 1 - r.reads / (2 * r.requests);
  const rows = results.map((r) => {
    const perThousand = (n: number) => ((n * 1000) / r.requests).toFixed(2);
    return [
      r.scenario.name,
      r.requests.toLocaleString("en"),
      r.allowed.toLocaleString("en"),
      r.refused.toLocaleString("en"),
      perThousand(r.reads),
      perThousand(r.writes),
      r.keysWritten.toLocaleString("en"),
      r.mostWritesPerSecond,
      `${(100 * fromIsolate(r)).toFixed(2)}%`,
    ];
  });
  const oneWritePerSecond = results.every((r) => r.mostWritesPerSecond <= 1);
  const mostFromIsolate = results.every((r) => fromIsolate(r) > 0.5);
  return [
    table(
      [
        "load (simulated, 120 s)",
        "requests",
        "200",
        "429",
        "KV reads per 1,000",
        "KV writes per 1,000",
        "keys written",
        "most writes to one key in 1 s",
        "lookups served from the isolate",
      ],
      rows,
    ),
    `Target, at most one write per key per second: ${oneWritePerSecond ? "met" : "**not met**"}. Most reads served from the isolate: ${mostFromIsolate ? "met" : "**not met**"}.`,
  ].join("\n\n");
}
