/**
 * Through the Worker's real entry point, with the build's real manifest (dist/manifest.json) and
 * the env from wrangler.toml. The pool's exports.default.fetch does not go through Workers Static
 * Assets, so ASSETS is replaced by a stand-in serving files of the manifest's lengths.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { Manifest } from "../../contract/manifest.js";
import type { ConfigVar } from "../../contract/vars.js";
import { SPEC_PATHS } from "../helpers/spec-values.js";
import manifestJson from "../../dist/manifest.json" with { type: "json" };
import worker from "../../worker/index.js";
import { expectError } from "./support/assertions.js";
import { MemoryAssets } from "../fakes/platform.js";
import { FakeAnalyticsEngine } from "../fakes/analytics-engine.js";
import { ORIGIN } from "./support/fixture.js";

const manifest = manifestJson as Manifest;

// The [vars] and defaults docs/operations.md documents.
const DOCUMENTED_DEFAULTS: Record<ConfigVar, string> = {
  OPEN_DATA_LIMIT_PER_MINUTE: "145",
  SERVICE_METRICS_LIMIT_PER_MINUTE: "145",
  RATE_LIMIT_SYNC_SECONDS: "1",
  MAINTENANCE: "off",
  MAINTENANCE_RETRY_AFTER_SECONDS: "300",
};

/** The stand-in, typed as the binding it replaces (the Worker only calls fetch). */
function standInAssets(): Fetcher {
  const files = new Map<string, Uint8Array>();
  for (const entry of manifest.datasets) {
    for (const variant of Object.values(entry.variants))
      files.set(variant.asset, new Uint8Array(variant.length));
  }
  return new MemoryAssets(files) as unknown as Fetcher;
}

describe("the Worker's entry point", () => {
  it("is given wrangler.toml's [vars] as the documented defaults", () => {
    const fromToml = Object.fromEntries(
      (Object.keys(DOCUMENTED_DEFAULTS) as ConfigVar[]).map((name) => [name, env[name]]),
    );
    expect(fromToml).toEqual(DOCUMENTED_DEFAULTS);
  });

  it("serves exactly the data paths the build's manifest lists", () => {
    expect(manifest.datasets.map((d) => d.path).sort()).toEqual(Object.values(SPEC_PATHS).sort());
  });

  it("serves every data set of the manifest with its media type, ETag and Last-Modified", async () => {
    const assets = standInAssets();
    for (const entry of manifest.datasets) {
      const ctx = createExecutionContext();
      const response = await worker.fetch(
        new Request(ORIGIN + entry.path),
        { ...env, ASSETS: assets },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe(entry.mediaType);
      expect(response.headers.get("ETag")).toBe(entry.variants.identity.etag);
      expect(response.headers.get("Last-Modified")).toBe(entry.lastModified);
      expect((await response.arrayBuffer()).byteLength).toBe(entry.variants.identity.length);
    }
  });

  it("answers an unknown path with the 404 body through exports.default.fetch", async () => {
    // The loopback to the default export. Its generated type (Cloudflare.Exports, made from
    // worker/index.ts by wrangler types) does not resolve in this project: it is named here as
    // the Fetcher it is.
    const self = exports.default as Fetcher;
    await expectError(await self.fetch(`${ORIGIN}/manifest.json`), 404);
  });

  describe("with a request-metrics binding", () => {
    // blob1 asked, blob2 target, blob3 detail, blob4 outcome, blob5 coding, blob6 plan, blob7
    // method, blob8 colo; double1 status, double2 bytes sent, double3 full bytes, double4
    // identity bytes (docs/operations.md#request-metrics).
    it("writes one data point per request, after the answer is made", async () => {
      const metrics = new FakeAnalyticsEngine();
      const atms = manifest.datasets.find((d) => d.path === SPEC_PATHS.atms)!;
      const ctx = createExecutionContext();
      const response = await worker.fetch(
        new Request(ORIGIN + SPEC_PATHS.atms, { headers: { "Accept-Encoding": "gzip" } }),
        { ...env, ASSETS: standInAssets(), METRICS: metrics },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(200);
      const gzip = atms.variants.gzip!.length;
      expect(metrics.points).toEqual([
        {
          blobs: ["dataset", "atms", "", "ok", "gzip", "open-data", "GET", "", ""],
          doubles: [200, gzip, gzip, atms.variants.identity.length],
          indexes: ["dataset:atms"],
        },
      ]);
      await response.body?.cancel();
    });

    it("records a 304 with the length it saved, and an unknown path without its path", async () => {
      const metrics = new FakeAnalyticsEngine();
      const atms = manifest.datasets.find((d) => d.path === SPEC_PATHS.atms)!;
      const bound = {
        ...env,
        ASSETS: standInAssets(),
        METRICS: metrics,
      };
      const asked: [string, Record<string, string>][] = [
        [ORIGIN + SPEC_PATHS.atms, { "If-None-Match": atms.variants.identity.etag }],
        [`${ORIGIN}/secret/path?token=value`, {}],
      ];
      for (const [url, headers] of asked) {
        const ctx = createExecutionContext();
        await (await worker.fetch(new Request(url, { headers }), bound, ctx)).body?.cancel();
        await waitOnExecutionContext(ctx);
      }
      expect(metrics.points.map((p) => [p.blobs[3], p.doubles[0], p.doubles[2]])).toEqual([
        ["not-modified", 304, atms.variants.identity.length],
        ["client-error", 404, 0],
      ]);
      expect(JSON.stringify(metrics.points)).not.toMatch(/secret|token/);
    });

    it("answers as ever when the binding throws", async () => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(
        new Request(ORIGIN + SPEC_PATHS.branches),
        {
          ...env,
          ASSETS: standInAssets(),
          METRICS: new FakeAnalyticsEngine(true),
        },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(200);
      await response.body?.cancel();
    });
  });

  it("writes nothing and logs nothing without the binding", async () => {
    const logged = [
      vi.spyOn(console, "log"),
      vi.spyOn(console, "warn"),
      vi.spyOn(console, "error"),
    ];
    const withoutMetrics: Partial<Env> = { ...env };
    delete withoutMetrics.METRICS;
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(ORIGIN + SPEC_PATHS.branches),
      { ...withoutMetrics, ASSETS: standInAssets(), RATE_LIMIT_KEY: "k".repeat(64) } as Env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
    await response.body?.cancel();
    for (const spy of logged) expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});
