/**
 * The request metrics' cost in process: recordRequest per call with a stand-in binding (which
 * keeps only the last point, as a binding that hands points off does), with a binding that
 * throws on every write, and unbound, over a mix of outcomes (a 200 in brotli, a 304, a 429, a
 * near-me answer). The Worker's own figures per request (In process: handle() against a null
 * handler) are the scale to read these against. Figures only: nothing passes or fails here.
 */
import type { Outcome } from "../worker/outcome.js";
import type { MetricsDataPoint, MetricsSink } from "../contract/metrics.js";
import { recordRequest } from "../worker/metrics/record.js";
import { median, table } from "./report.js";

/** Four outcomes as the response path fills them in, each with the request it answered. */
const OUTCOMES: readonly (readonly [Outcome, Request])[] = [
  [
    {
      asked: { kind: "dataset", name: "atms", detail: "" },
      plan: "open-data",
      status: 200,
      coding: "br",
      bytes: 23_400,
      fullBytes: 23_400,
      identityBytes: 592_700,
      site: "",
    },
    new Request("https://opendata.example/std/v2.2/atms", { cf: { colo: "LHR" } }),
  ],
  [
    {
      asked: { kind: "dataset", name: "atms", detail: "alias" },
      plan: "open-data",
      status: 304,
      coding: "gzip",
      bytes: 0,
      fullBytes: 31_000,
      identityBytes: 592_700,
      site: "",
    },
    new Request("https://opendata.example/open-banking/v2.2/atms", { cf: { colo: "MAN" } }),
  ],
  [
    {
      asked: { kind: "dataset", name: "service-metrics-pca", detail: "" },
      plan: "service-metrics",
      status: 429,
      coding: null,
      bytes: 120,
      fullBytes: 0,
      identityBytes: 0,
      site: "",
    },
    new Request("https://opendata.example/std/v1.0/reg-service-metrics/pca", {
      cf: { colo: "LHR" },
    }),
  ],
  [
    {
      asked: { kind: "near", name: "atms", detail: "geo-location" },
      plan: "open-data",
      status: 200,
      coding: "identity",
      bytes: 4_410,
      fullBytes: 4_410,
      identityBytes: 4_410,
      site: "",
    },
    new Request("https://opendata.example/x-std/v2.2/atms/geo-location/lat/55.9/long/-3.2", {
      cf: { colo: "EDI" },
    }),
  ],
];

/** Keeps the last point, so the work of making it cannot be optimised away. */
class LastPoint implements MetricsSink {
  last: MetricsDataPoint | undefined;
  writes = 0;
  writeDataPoint(point: MetricsDataPoint): void {
    this.last = point;
    this.writes += 1;
  }
}

class Refusing implements MetricsSink {
  writeDataPoint(): void {
    throw new Error("refused");
  }
}

/** Nanoseconds per call of `calls` calls to recordRequest with `binding`. */
function nsPerCall(binding: MetricsSink | undefined, calls: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    const [outcome, request] = OUTCOMES[i & 3]!;
    recordRequest(binding, outcome, request);
  }
  return Number(process.hrtime.bigint() - start) / calls;
}

export function metricsBenchmarks(options: { quick: boolean }): string {
  const calls = options.quick ? 100_000 : 500_000;
  const runs = options.quick ? 3 : 7;
  const cases: [string, () => MetricsSink | undefined][] = [
    ["unbound (no METRICS binding)", () => undefined],
    ["bound (a stand-in that keeps the last point)", () => new LastPoint()],
    ["bound, the binding throws on every write", () => new Refusing()],
  ];
  // Warm every path before timing, so the first case does not pay for compiling the module.
  for (const [, binding] of cases) nsPerCall(binding(), calls / 10);
  const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  // Runs interleaved, so a change in the machine's load falls on every case alike.
  for (let run = 0; run < runs; run++) {
    for (const [name, binding] of cases) times.get(name)!.push(nsPerCall(binding(), calls));
  }
  const unbound = median(times.get(cases[0]![0])!);
  return [
    `Node ${process.version}, ${calls.toLocaleString("en")} calls per run over four outcomes (200 br, 304, 429, near-me 200), median of ${runs} interleaved runs.`,
    "",
    table(
      ["recordRequest", "ns per call", "more than unbound"],
      cases.map(([name]) => {
        const ns = median(times.get(name)!);
        return [name, ns.toFixed(0), `${(ns - unbound).toFixed(0)} ns`];
      }),
    ),
  ].join("\n");
}
