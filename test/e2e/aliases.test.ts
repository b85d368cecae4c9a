/**
 * End to end with OpenBankingPaths: true. The Worker imports dist/manifest.json at bundle time, so
 * this test copies the run's build of the sample content with the setting on into a scratch copy
 * of the Worker (its sources, wrangler.toml and a dist/ of its own) and serves that over
 * loopback, leaving the project's dist/ alone.
 */
import { createHash } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest, ManifestEntry } from "../../contract/manifest.js";
import { sampleBuild } from "../helpers/sample-build.js";
import { copyWorkerSources, startWorkerAt, withinOneWindow } from "../helpers/worker.js";
import { newClients, request, stableHeaders, type RawResponse } from "./http.js";

const V22 = "application/prs.openbanking.opendata.v2.2+json";
const V10 = "application/prs.openbanking.opendata.v1.0+json";
/** Alias, media type, and the /std/ path it stands for. */
const ALIASES: [alias: string, mediaType: string, std: string][] = [
  ["/open-banking/v2.2/branches", V22, "/std/v2.2/branches"],
  ["/open-banking/v2.2/atms", V22, "/std/v2.2/atms"],
  ["/open-banking/v2.2/personal-current-accounts", V22, "/std/v2.2/personal-current-accounts"],
  ["/open-banking/v2.2/business-current-accounts", V22, "/std/v2.2/business-current-accounts"],
  ["/open-banking/v2.2/unsecured-sme-loans", V22, "/std/v2.2/unsecured-sme-loans"],
  ["/open-banking/v2.2/commercial-credit-cards", V22, "/std/v2.2/commercial-credit-cards"],
  ["/open-banking/v1.0/fca-service-metrics/pca", V10, "/std/v1.0/reg-service-metrics/pca"],
  ["/open-banking/fca-service-metrics/pca", V10, "/std/v1.0/reg-service-metrics/pca"],
  ["/open-banking/v1.0/fca-service-metrics/bca", V10, "/std/v1.0/reg-service-metrics/bca"],
  ["/open-banking/fca-service-metrics/bca", V10, "/std/v1.0/reg-service-metrics/bca"],
];

let root: string;
let manifest: Manifest;
let worker: { readonly base: URL; dispose(): Promise<void> };
let base: URL;

/** The open data quota, lowered from 145 through the Worker's [vars], so a few requests reach it. */
const LIMIT = 5;

beforeAll(async () => {
  // The run's build of the sample content with OpenBankingPaths: true.
  const live = sampleBuild("live");
  manifest = await live.manifest();
  root = await mkdtemp(join(tmpdir(), "opendata-edge-aliases-"));
  await copyWorkerSources(root);
  await cp(live.out, join(root, "dist"), { recursive: true, dereference: true });
  worker = await startWorkerAt(join(root, "wrangler.toml"), {
    OPEN_DATA_LIMIT_PER_MINUTE: String(LIMIT),
  });
  base = worker.base;
}, 90_000);

afterAll(async () => {
  await worker?.dispose();
  if (root) await rm(root, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string>, method = "GET"): Promise<RawResponse> =>
  request(new URL(path, base), { method, headers });

const fresh = newClients("198.19");

const entryFor = (std: string): ManifestEntry => manifest.datasets.find((e) => e.path === std)!;

describe("the near-me extension paths under the live prefix", () => {
  it.each([
    "/atms/geo-location/lat/54.1237/long/-1.7341?radius=3",
    "/branches/country/GB/town/wexbury",
    "/personal-current-accounts/segment/General",
  ])("/x-open-banking/v2.2%s sends /x-std/'s bytes and ETag as prs.openbanking", async (tail) => {
    const std = await get(`/x-std/v2.2${tail}`, fresh());
    const live = await get(`/x-open-banking/v2.2${tail}`, fresh());
    expect(live.status).toBe(200);
    expect(live.headers["content-type"]).toBe(V22);
    expect(live.headers.etag).toBe(std.headers.etag);
    expect(live.body.equals(std.body)).toBe(true);
  });
});

describe("the live standard's paths through the real Worker", () => {
  it.each(ALIASES)(
    "%s sends the /std/ path's bytes and ETag as %s",
    async (alias, mediaType, std) => {
      const canonical = await get(std, fresh());
      const response = await get(alias, fresh());
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe(mediaType);
      expect(response.headers.etag).toBe(entryFor(std).variants.identity.etag);
      expect(response.body.equals(canonical.body)).toBe(true);
      const { "content-type": _a, ...rest } = stableHeaders(response.headers);
      const { "content-type": _b, ...canonicalRest } = stableHeaders(canonical.headers);
      expect(rest).toEqual(canonicalRest);
    },
  );

  it.each(ALIASES)("%s answers 304 to the /std/ path's ETag", async (alias, _, std) => {
    const etag = entryFor(std).variants.gzip!.etag;
    const response = await get(alias, fresh({ "Accept-Encoding": "gzip", "If-None-Match": etag }));
    expect(response.status).toBe(304);
    expect(response.headers.etag).toBe(etag);
    expect(response.body.length).toBe(0);
  });

  it.each(ALIASES)(
    "%s answers HEAD with GET's length and no body",
    async (alias, mediaType, std) => {
      const response = await get(alias, fresh(), "HEAD");
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe(mediaType);
      expect(response.headers["content-length"]).toBe(
        String(entryFor(std).variants.identity.length),
      );
      expect(response.body.length).toBe(0);
    },
  );

  it("gives a client alternating /std/ and /open-banking/ one open data quota", async () => {
    // Every request in one of the quota's minutes, read off the clock (test/helpers/worker.ts).
    const statuses = await withinOneWindow(async () => {
      const client = fresh();
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 3; i++) {
        const path = i % 2 === 0 ? "/std/v2.2/atms" : "/open-banking/v2.2/atms";
        statuses.push((await get(path, client, "HEAD")).status);
      }
      return statuses;
    });
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429, 429, 429]);
  });
});

/**
 * What real clients send as Accept: generated clients for the live standard its swagger files'
 * media type, clients of the spec its own, tutorials application/json or nothing, a browser its
 * navigation default. The specs define no 406, so every one of them gets the data, labelled with
 * the media type of the path asked for (docs/decisions.md#accept-never-gets-a-406).
 */
const ACCEPT_VALUES: [client: string, accept: string | undefined][] = [
  ["a live-standard client", "application/prs.openbanking.opendata.v2.2+json"],
  ["a spec client", "application/prs.std.opendata.v2.2+json"],
  ["a tutorial", "application/json"],
  ["curl", "*/*"],
  ["a client sending no Accept", undefined],
  [
    "a browser",
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8",
  ],
];
const ACCEPT_PATHS: [path: string, mediaType: string][] = [
  ["/std/v2.2/branches", "application/prs.std.opendata.v2.2+json"],
  ["/open-banking/v2.2/branches", "application/prs.openbanking.opendata.v2.2+json"],
  ["/std/v1.0/reg-service-metrics/pca", "application/prs.std.opendata.v1.0+json"],
  ["/open-banking/fca-service-metrics/pca", "application/prs.openbanking.opendata.v1.0+json"],
];

describe("Accept headers of real clients", () => {
  describe.each(ACCEPT_PATHS)("on %s", (path, mediaType) => {
    it.each(ACCEPT_VALUES)("serves %s (Accept: %s) the data with 200", async (_, accept) => {
      const headers = fresh(accept === undefined ? {} : { Accept: accept });
      const response = await get(path, headers);
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe(mediaType);
      const body = JSON.parse(response.body.toString("utf8")) as { meta: { TotalResults: number } };
      expect(body.meta.TotalResults).toBeGreaterThan(0);
      const sha = createHash("sha256").update(response.body).digest("hex");
      expect(response.headers.etag).toBe(`"${sha}"`);
    });
  });
});
