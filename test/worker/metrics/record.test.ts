/**
 * The request metrics' data point, field by field, for each kind of answer, and how it is written:
 * never in the response's way, nothing at all without a binding. The positions are the dataset's
 * schema as docs/operations.md#request-metrics lists it, written out here literally: blob1 asked,
 * blob2 target, blob3 detail, blob4 outcome, blob5 coding, blob6 plan, blob7 method, blob8 colo;
 * double1 status, double2 bytes sent, double3 full bytes, double4 identity bytes; index1.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { METRICS_BLOBS, METRICS_DOUBLES, type MetricsSink } from "../../../contract/metrics.js";
import type { ContentCoding } from "../../../contract/manifest.js";
import type { PlanId } from "../../../contract/rate-limits.js";
import { coloOf, dataPoint, recordRequest } from "../../../worker/metrics/record.js";
import type { Asked, Outcome } from "../../../worker/outcome.js";
import { FakeAnalyticsEngine } from "../../fakes/analytics-engine.js";

const ATMS: Asked = { kind: "dataset", name: "atms", detail: "" };

/** One request as a row: the outcome the response path fills in, the method and the data center. */
interface Case {
  readonly asked: Asked;
  readonly method: string;
  readonly status: number;
  readonly coding?: ContentCoding;
  readonly plan?: PlanId;
  readonly bytesSent: number;
  readonly fullBytes?: number;
  readonly identityBytes?: number;
  readonly colo?: string;
  readonly site?: string;
}

const outcomeOf = (c: Case): Outcome => ({
  asked: c.asked,
  plan: c.plan ?? null,
  status: c.status,
  coding: c.coding ?? null,
  bytes: c.bytesSent,
  fullBytes: c.fullBytes ?? 0,
  identityBytes: c.identityBytes ?? 0,
  site: c.site ?? "",
});
const pointOf = (c: Case) => dataPoint(outcomeOf(c), c.method, c.colo);

/** A 200 GET of the atms data set in brotli from London, as the response path would fill it. */
const atmsBrotli: Case = {
  asked: ATMS,
  method: "GET",
  status: 200,
  coding: "br",
  plan: "open-data",
  bytesSent: 2_301,
  fullBytes: 2_301,
  identityBytes: 19_876,
  colo: "LHR",
};

describe("the data point of each kind of answer", () => {
  it.each<[string, Case, string[], number[], string]>([
    [
      "a data set sent in brotli",
      atmsBrotli,
      ["dataset", "atms", "", "ok", "br", "open-data", "GET", "LHR", ""],
      [200, 2301, 2301, 19876],
      "dataset:atms",
    ],
    [
      "a data set at its live-standard alias, in identity",
      {
        ...atmsBrotli,
        asked: { ...ATMS, detail: "alias" },
        coding: "identity",
        bytesSent: 19_876,
        fullBytes: 19_876,
      },
      ["dataset", "atms", "alias", "ok", "identity", "open-data", "GET", "LHR", ""],
      [200, 19876, 19876, 19876],
      "dataset:atms",
    ],
    [
      "a HEAD, which sends no body",
      { ...atmsBrotli, method: "HEAD", bytesSent: 0 },
      ["dataset", "atms", "", "ok", "br", "open-data", "HEAD", "LHR", ""],
      [200, 0, 2301, 19876],
      "dataset:atms",
    ],
    [
      "a 304, which saved the variant's length",
      { ...atmsBrotli, status: 304, bytesSent: 0 },
      ["dataset", "atms", "", "not-modified", "br", "open-data", "GET", "LHR", ""],
      [304, 0, 2301, 19876],
      "dataset:atms",
    ],
    [
      "a 429 under the service metrics plan",
      {
        asked: { kind: "dataset", name: "service-metrics-pca", detail: "" },
        method: "GET",
        status: 429,
        plan: "service-metrics",
        bytesSent: 120,
        colo: "MAN",
      },
      [
        "dataset",
        "service-metrics-pca",
        "",
        "rate-limited",
        "",
        "service-metrics",
        "GET",
        "MAN",
        "",
      ],
      [429, 120, 0, 0],
      "dataset:service-metrics-pca",
    ],
    [
      "a 500 (the assets and the manifest disagree)",
      { asked: ATMS, method: "GET", status: 500, plan: "open-data", bytesSent: 98 },
      ["dataset", "atms", "", "server-error", "", "open-data", "GET", "", ""],
      [500, 98, 0, 0],
      "dataset:atms",
    ],
    [
      "a 503 in maintenance",
      { asked: ATMS, method: "GET", status: 503, plan: "open-data", bytesSent: 110 },
      ["dataset", "atms", "", "server-error", "", "open-data", "GET", "", ""],
      [503, 110, 0, 0],
      "dataset:atms",
    ],
    [
      "a document, counted under no plan",
      {
        asked: { kind: "document", name: "/openapi.json", detail: "" },
        method: "GET",
        status: 200,
        coding: "gzip",
        bytesSent: 9_000,
        fullBytes: 9_000,
        identityBytes: 61_000,
        colo: "LHR",
      },
      ["document", "/openapi.json", "", "ok", "gzip", "", "GET", "LHR", ""],
      [200, 9000, 9000, 61000],
      "document:/openapi.json",
    ],
    [
      "a near-me answer, named by its filter",
      {
        asked: { kind: "near", name: "branches", detail: "geo-location" },
        method: "GET",
        status: 200,
        coding: "identity",
        plan: "open-data",
        bytesSent: 4_410,
        fullBytes: 4_410,
        identityBytes: 4_410,
        colo: "EDI",
      },
      ["near", "branches", "geo-location", "ok", "identity", "open-data", "GET", "EDI", ""],
      [200, 4410, 4410, 4410],
      "near:branches",
    ],
    [
      "a near-me path with a bad parameter",
      {
        asked: { kind: "near", name: "atms", detail: "postcode" },
        method: "GET",
        status: 400,
        bytesSent: 90,
      },
      ["near", "atms", "postcode", "client-error", "", "", "GET", "", ""],
      [400, 90, 0, 0],
      "near:atms",
    ],
    [
      "a changes answer of a data set",
      {
        asked: { kind: "changes", name: "atms", detail: "since" },
        method: "GET",
        status: 200,
        coding: "br",
        plan: "open-data",
        bytesSent: 310,
        fullBytes: 310,
        identityBytes: 1_200,
      },
      ["changes", "atms", "since", "ok", "br", "open-data", "GET", "", ""],
      [200, 310, 310, 1200],
      "changes:atms",
    ],
    [
      "the publication feed, which belongs to no data set",
      {
        asked: { kind: "changes", name: null, detail: "feed" },
        method: "GET",
        status: 304,
        coding: "identity",
        bytesSent: 0,
        fullBytes: 5_000,
        identityBytes: 5_000,
      },
      ["changes", "", "feed", "not-modified", "identity", "", "GET", "", ""],
      [304, 0, 5000, 5000],
      "changes",
    ],
    [
      "an unknown path, recorded without the path",
      {
        asked: { kind: "unknown", name: null, detail: "" },
        method: "GET",
        status: 404,
        bytesSent: 87,
        colo: "LHR",
      },
      ["unknown", "", "", "client-error", "", "", "GET", "LHR", ""],
      [404, 87, 0, 0],
      "unknown",
    ],
    [
      "a redirect to https",
      {
        asked: { kind: "unknown", name: null, detail: "" },
        method: "GET",
        status: 308,
        bytesSent: 0,
      },
      ["unknown", "", "", "redirect", "", "", "GET", "", ""],
      [308, 0, 0, 0],
      "unknown",
    ],
    [
      "a preflight",
      { asked: ATMS, method: "OPTIONS", status: 204, bytesSent: 0 },
      ["dataset", "atms", "", "ok", "", "", "OPTIONS", "", ""],
      [204, 0, 0, 0],
      "dataset:atms",
    ],
    [
      "a method the APIs refuse, recorded as other",
      { asked: ATMS, method: "PROPFIND", status: 405, bytesSent: 95 },
      ["dataset", "atms", "", "client-error", "", "", "other", "", ""],
      [405, 95, 0, 0],
      "dataset:atms",
    ],
  ])("%s", (_, outcome, blobs, doubles, index) => {
    expect(pointOf(outcome)).toEqual({ blobs, doubles, indexes: [index] });
  });

  it("writes each field at the position contract/metrics.ts gives it, which the stats query reads", () => {
    const point = pointOf({
      ...atmsBrotli,
      asked: { ...ATMS, detail: "alias" },
      method: "HEAD",
      status: 304,
      coding: "gzip",
      bytesSent: 1,
      fullBytes: 2,
      identityBytes: 3,
      colo: "MAN",
      site: "halifax",
    });
    expect(Object.fromEntries(METRICS_BLOBS.map((field, i) => [field, point.blobs[i]]))).toEqual({
      asked: "dataset",
      target: "atms",
      detail: "alias",
      outcome: "not-modified",
      coding: "gzip",
      plan: "open-data",
      method: "HEAD",
      colo: "MAN",
      site: "halifax",
    });
    expect(point.blobs).toHaveLength(METRICS_BLOBS.length);
    expect(
      Object.fromEntries(METRICS_DOUBLES.map((field, i) => [field, point.doubles[i]])),
    ).toEqual({ status: 304, bytesSent: 1, fullBytes: 2, identityBytes: 3 });
    expect(point.doubles).toHaveLength(METRICS_DOUBLES.length);
  });

  it("stays within Analytics Engine's limits: 20 blobs, 20 doubles, one index", () => {
    const point = pointOf(atmsBrotli);
    expect(point.blobs.length).toBeLessThanOrEqual(20);
    expect(point.doubles.length).toBeLessThanOrEqual(20);
    expect(point.indexes).toHaveLength(1);
  });

  it("keeps the index within Analytics Engine's 96 bytes and a colo within 8 characters", () => {
    const point = pointOf({
      asked: { kind: "dataset", name: "x".repeat(200), detail: "" },
      method: "GET",
      status: 200,
      bytesSent: 1,
      colo: "NOT-A-COLO-CODE",
    });
    expect(point.indexes[0]).toBe(`dataset:${"x".repeat(88)}`);
    expect(point.blobs[7]).toBe("NOT-A-CO");
  });

  it("carries nothing of the request but its method and data center", () => {
    const request = new Request("https://opendata.example/std/v2.2/atms?token=secret-value", {
      headers: {
        "CF-Connecting-IP": "203.0.113.77",
        "User-Agent": "curl/8.99 private-agent",
      },
      cf: { colo: "LHR" },
    });
    const point = dataPoint(outcomeOf(atmsBrotli), request.method, coloOf(request));
    const text = JSON.stringify(point);
    for (const leaked of [
      "203.0.113",
      "private-agent",
      "secret-value",
      "token",
      "opendata.example",
    ])
      expect(text).not.toContain(leaked);
    expect(point.blobs[7]).toBe("LHR");
  });
});

describe("the data center", () => {
  it("is request.cf.colo, and absent where the request has no cf object", () => {
    expect(coloOf(new Request("https://x.example/", { cf: { colo: "AMS" } }))).toBe("AMS");
    expect(coloOf(new Request("https://x.example/"))).toBeUndefined();
  });
});

describe("writing a data point", () => {
  afterEach(() => vi.restoreAllMocks());
  const request = new Request("https://opendata.example/std/v2.2/atms", { cf: { colo: "LHR" } });

  it("writes exactly one point per request to a bound dataset", () => {
    const binding = new FakeAnalyticsEngine();
    recordRequest(binding, outcomeOf(atmsBrotli), request);
    expect(binding.points).toEqual([pointOf(atmsBrotli)]);
  });

  it("writes nothing and logs nothing without a binding", () => {
    const logged = [
      vi.spyOn(console, "log"),
      vi.spyOn(console, "warn"),
      vi.spyOn(console, "error"),
    ];
    expect(recordRequest(undefined, outcomeOf(atmsBrotli), request)).toBeUndefined();
    for (const spy of logged) expect(spy).not.toHaveBeenCalled();
  });

  it("swallows a binding that throws: the answer goes out as it is", () => {
    const binding = new FakeAnalyticsEngine(true);
    expect(() => recordRequest(binding, outcomeOf(atmsBrotli), request)).not.toThrow();
    expect(binding.refused).toBe(1);
  });

  it("writes to the binding wrangler.toml declares, which the Worker's env carries", () => {
    // The assignment is the type check (Env from `npm run types`); locally the binding accepts
    // every point and keeps none, so only its presence can be seen here.
    const binding: MetricsSink | undefined = env.METRICS;
    expect(typeof binding?.writeDataPoint).toBe("function");
    expect(() => recordRequest(binding, outcomeOf(atmsBrotli), request)).not.toThrow();
  });
});
