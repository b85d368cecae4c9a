/**
 * The near-me extension endpoints: our JavaScript per request for a 10-mile geo-location query
 * over 50,000 generated ATMs in process (handle() with the index loaded, against a target of
 * 1 ms median), what loading the index costs an isolate once, and the throughput of a geo query
 * beside the full list's 200 in the same workerd. Loopback only; every loop is bounded in
 * requests and time. Figures only: nothing here passes or fails on a number.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Manifest, ManifestEntry } from "../contract/manifest.js";
import { findDataset, OPEN_DATA_MEDIA_TYPE } from "../build/core/datasets.js";
import { entityTag } from "../build/encode/variants.js";
import { DatasetBody } from "../build/encode/dataset-body.js";
import { nearIndexes } from "../build/near/index.js";
import { readSchemas } from "../build/check/schemas.js";
import { MemoryAssets, MemoryKv } from "../test/fakes/platform.js";
import { systemClock } from "../worker/runtime.js";
import type { NearDeps } from "../worker/deps.js";
import { buildEdgeLayout, entryOf, EDGE_DATASET, kb } from "./edge-dataset.js";
import { atm, random } from "./generate.js";
import { load } from "./load.js";
import { median, table } from "./report.js";
import { miniflareHarness } from "./workerd-harness.js";
import { isolateDeps, loadWorkerModules } from "./worker-modules.js";

const ATMS = 50_000;
const RADIUS_MILES = 10;
const ORIGIN = "https://bench.invalid";
const CLIENT = "198.51.100.7";
const UNLIMITED = { OPEN_DATA_LIMIT_PER_MINUTE: "1000000000" };

interface NearLimits {
  /** Timed requests in process, each at another point. */
  readonly requests: number;
  /** Whichever comes first. */
  readonly maxMs: number;
  readonly loadSeconds: number;
  readonly loadRuns: number;
  readonly connections: number;
}

/** A point where the generator puts ATMs (bench/generate.ts: latitude 50 to 58, longitude -5 to 1). */
function point(rnd: () => number): [number, number] {
  return [+(50.5 + rnd() * 7).toFixed(4), +(-4.5 + rnd() * 5).toFixed(4)];
}

/** The 50,000 ATMs as the build would publish them, with their index. */
async function generatedSet() {
  const rnd = random(50_000);
  const records = Array.from({ length: ATMS }, (_, n) => atm(n, rnd));
  const body = Buffer.from(
    JSON.stringify({
      meta: { LastUpdated: "2026-11-20T10:00:00Z", TotalResults: ATMS, Agreement: "x" },
      data: [{ Brand: [{ BrandName: "Bench Bank", ATM: records }] }],
    }),
    "utf8",
  );
  const etag = entityTag(body);
  const dataset = findDataset("atms")!;
  const identity = { asset: "/std/v2.2/atms.json", etag, length: body.length };
  const entry: ManifestEntry = {
    dataset: "atms",
    path: dataset.path,
    mediaType: OPEN_DATA_MEDIA_TYPE,
    lastUpdated: "2026-11-20T10:00:00Z",
    lastModified: new Date(Date.parse("2026-11-20T10:00:00Z")).toUTCString(),
    lastModifiedMs: Date.parse("2026-11-20T10:00:00Z"),
    totalResults: ATMS,
    brands: 1,
    aliases: [],
    variants: { identity },
  };
  // As the cache gives a body back: the index parses it.
  const stored = DatasetBody.stored({
    dataset,
    bytes: body,
    tag: etag,
    updated: { seconds: Date.parse("2026-11-20T10:00:00Z") / 1000, source: "SOURCE_DATE_EPOCH" },
    summary: { totalResults: ATMS, brands: 1 },
    located: [],
    brandNames: [],
  });
  const started = performance.now();
  const { indexes } = await nearIndexes([stored], readSchemas(), []);
  const buildMs = performance.now() - started;
  const index = indexes[0]!;
  const manifest: Manifest = {
    formatVersion: 1,
    datasets: [entry],
    documents: [],
    near: [index.entry],
  };
  const files = new Map<string, Uint8Array>([
    [identity.asset, body],
    [index.entry.index.asset, index.bytes],
  ]);
  return { manifest, files, body, index, buildMs };
}

async function inProcess(dir: string, limits: NearLimits): Promise<string> {
  const modules = await loadWorkerModules(dir);
  const { nearDeps } = (await import(
    pathToFileURL(join(dir, "worker", "near", "answer.js")).href
  )) as { nearDeps: (m: Manifest) => NearDeps };
  const set = await generatedSet();
  const deps = {
    ...isolateDeps(modules, set.manifest, {
      assets: new MemoryAssets(set.files, false),
      store: new MemoryKv(systemClock),
      clock: systemClock,
      vars: UNLIMITED,
    }),
    near: nearDeps(set.manifest),
  };
  const rnd = random(7);
  const ask = (at: [number, number]) =>
    new Request(
      `${ORIGIN}/x-std/v2.2/atms/geo-location/lat/${at[0]}/long/${at[1]}?radius=${RADIUS_MILES}`,
      { headers: { [modules.clientAddressHeader]: CLIENT } },
    );
  // The isolate's first request reads and parses the index: timed on its own.
  const firstStart = performance.now();
  const first = await modules.handle(ask(point(rnd)), deps);
  await first.arrayBuffer();
  const firstMs = performance.now() - firstStart;
  for (let i = 0; i < 300; i++) await (await modules.handle(ask(point(rnd)), deps)).arrayBuffer();

  const times: number[] = [];
  const records: number[] = [];
  const sizes: number[] = [];
  const start = performance.now();
  for (let i = 0; i < limits.requests && performance.now() - start < limits.maxMs; i++) {
    const request = ask(point(rnd));
    const t0 = performance.now();
    const response = await modules.handle(request, deps);
    const bytes = await response.arrayBuffer();
    times.push(performance.now() - t0);
    if (response.status !== 200) throw new Error(`geo query answered ${response.status}`);
    sizes.push(bytes.byteLength);
    const text = new TextDecoder().decode(bytes.slice(0, 120));
    records.push(Number(/"TotalResults":(\d+)/.exec(text)![1]));
  }
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const ms = (n: number) => `${n.toFixed(3)} ms`;
  return [
    `${ATMS.toLocaleString("en")} ATMs from bench/generate.ts (one brand, ${kb(set.body.length)} of JSON, positions spread over latitude 50 to 58 and longitude -5 to 1); index ${kb(set.index.bytes.length)}, made in ${set.buildMs.toFixed(0)} ms. Node ${process.version}, the Worker's handle() with in-memory ASSETS and KV, each request a ${RADIUS_MILES}-mile query at another random point, body read; ${times.length} timed requests after 300 untimed.`,
    table(
      ["measure", "value"],
      [
        ["handle() per request, median", ms(median(times))],
        ["handle() per request, p90 / p99", `${ms(at(0.9))} / ${ms(at(0.99))}`],
        ["target (issue 26)", "under 1 ms median"],
        ["records per answer, median", median(records).toLocaleString("en")],
        ["bytes per answer, median", kb(median(sizes))],
        ["an isolate's first request (reads and parses the index and body once)", ms(firstMs)],
      ],
    ),
  ].join("\n\n");
}

async function throughWorkerd(root: string, limits: NearLimits): Promise<string> {
  const layout = await buildEdgeLayout(join(root, "edge"));
  const harness = miniflareHarness(layout.distDir, join(root, "bundles"));
  const server = await harness.start(layout.entrypoint, {
    OPEN_DATA_LIMIT_PER_MINUTE: UNLIMITED.OPEN_DATA_LIMIT_PER_MINUTE,
  });
  try {
    const entry = entryOf(layout.manifest, EDGE_DATASET);
    // The middle of the generator's area, where ATMs are as dense as anywhere in it.
    const geo = `/x-std/v2.2/atms/geo-location/lat/54.0/long/-2.0?radius=${RADIUS_MILES}`;
    const targets = [
      { name: `full list 200 (${entry.path})`, path: entry.path, headers: {} },
      { name: `geo ${RADIUS_MILES} mi 200`, path: geo, headers: {} },
    ];
    const geoEtag = await fetch(new URL(geo, server.url)).then(async (r) => {
      await r.arrayBuffer();
      return r.headers.get("ETag")!;
    });
    const all = [
      ...targets,
      { name: `geo ${RADIUS_MILES} mi 304`, path: geo, headers: { "If-None-Match": geoEtag } },
    ];
    for (const t of all) {
      await (await fetch(new URL(t.path, server.url), { headers: t.headers })).arrayBuffer();
    }
    const rates = new Map<string, number[]>(all.map((t) => [t.name, []]));
    const bytes = new Map<string, number>();
    for (let run = 0; run < limits.loadRuns; run++) {
      for (const t of all) {
        const result = await load({
          url: new URL(t.path, server.url),
          headers: { "CF-Connecting-IP": CLIENT, ...t.headers },
          connections: limits.connections,
          seconds: limits.loadSeconds,
          maxRequests: limits.loadSeconds * 200_000,
        });
        if (result.errors > 0) throw new Error(`${t.name}: ${result.errors} errors`);
        rates.get(t.name)!.push(result.requestsPerSecond);
        bytes.set(t.name, result.bytesPerResponse);
      }
    }
    const full = median(rates.get(all[0]!.name)!);
    return [
      `The edge benchmarks' synthetic set (${entry.totalResults.toLocaleString("en")} ATMs, identity ${kb(entry.variants.identity.length)}), one workerd (Miniflare API, as in the edge benchmarks), ${limits.loadRuns} runs of ${limits.loadSeconds} s per row round-robin, ${limits.connections} connections, identity (no Accept-Encoding).`,
      table(
        ["request", "req/s (median)", "bytes per response", "against the full list's 200"],
        all.map((t) => {
          const r = median(rates.get(t.name)!);
          return [
            t.name,
            Math.round(r).toLocaleString("en"),
            kb(bytes.get(t.name)!),
            (r / full).toFixed(2),
          ];
        }),
      ),
    ].join("\n\n");
  } finally {
    await server.stop();
  }
}

/** The near-me section of the report, in Markdown. */
export async function nearBenchmarks(options: { quick: boolean }): Promise<string> {
  const limits: NearLimits = options.quick
    ? { requests: 2_000, maxMs: 5_000, loadSeconds: 5, loadRuns: 1, connections: 10 }
    : { requests: 10_000, maxMs: 20_000, loadSeconds: 10, loadRuns: 3, connections: 10 };
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-bench-near-"));
  try {
    process.stderr.write("near: in process\n");
    const a = await inProcess(join(root, "node"), limits);
    process.stderr.write("near: through workerd\n");
    const b = await throughWorkerd(root, limits);
    return [
      `### In process: a ${RADIUS_MILES}-mile geo-location query over ${ATMS.toLocaleString("en")} ATMs`,
      a,
      "### Through workerd: a geo-location query beside the full list",
      b,
    ].join("\n\n");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
