/**
 * End to end: the build's dist/ (npm test builds it first) served by the real Worker in workerd,
 * started with wrangler's unstable_startWorker (inspector off, in-memory KV), and fetched over
 * loopback. This is the only test that goes through Workers Static Assets.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest, ManifestEntry } from "../../contract/manifest.js";
import { DIST_DIR } from "../../build/core/paths.js";
import {
  specErrorBody,
  specMediaType,
  SPEC_CACHE_CONTROL,
  SPEC_SECURITY_HEADERS,
} from "../helpers/spec-values.js";
import { startWorker, withinOneWindow, type RunningWorker } from "../helpers/worker.js";
import { newClients, request, stableHeaders, type RawResponse } from "./http.js";

/**
 * Each plan's quota, lowered from the spec's 145 through the Worker's [vars] (as an operator
 * would set it; test/worker/index.test.ts checks wrangler.toml gives 145), so that reaching it
 * takes a few requests.
 */
const LIMIT = 5;

let worker: RunningWorker;
let base: URL;
let manifest: Manifest;

beforeAll(async () => {
  worker = await startWorker({
    OPEN_DATA_LIMIT_PER_MINUTE: String(LIMIT),
    SERVICE_METRICS_LIMIT_PER_MINUTE: String(LIMIT),
  });
  ({ base, manifest } = worker);
}, 60_000);

afterAll(async () => {
  await worker?.dispose();
});

const file = (variantAsset: string) => readFileSync(join(DIST_DIR, variantAsset));
const get = (
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<RawResponse> => request(new URL(path, base), { method, headers });

// Each request from its own address, so the quota never interferes with what is tested.
const fresh = newClients();

describe("every endpoint over loopback", () => {
  it("serves the eight paths of the specs", () => {
    // open-data-api-v2.2.md and its products companion, service-metrics-api-v1.0.md: "Path".
    expect(manifest.datasets.map((d) => d.path).sort()).toEqual([
      "/std/v1.0/reg-service-metrics/bca",
      "/std/v1.0/reg-service-metrics/pca",
      "/std/v2.2/atms",
      "/std/v2.2/branches",
      "/std/v2.2/business-current-accounts",
      "/std/v2.2/commercial-credit-cards",
      "/std/v2.2/personal-current-accounts",
      "/std/v2.2/unsecured-sme-loans",
    ]);
  });

  it("sends each data set's exact identity bytes with the spec's headers", async () => {
    for (const entry of manifest.datasets) {
      const response = await get(entry.path, fresh());
      expect(response.status).toBe(200);
      expect(response.body.equals(file(entry.variants.identity.asset))).toBe(true);
      const h = response.headers;
      expect(h["content-type"]).toBe(specMediaType(entry.path));
      expect(h["content-length"]).toBe(String(entry.variants.identity.length));
      expect(h["etag"]).toBe(entry.variants.identity.etag);
      expect(h["last-modified"]).toBe(entry.lastModified);
      expect(h["cache-control"]).toBe(SPEC_CACHE_CONTROL);
      expect(h["content-encoding"]).toBeUndefined();
      for (const [name, value] of SPEC_SECURITY_HEADERS) expect(h[name.toLowerCase()]).toBe(value);
      expect(h["access-control-allow-origin"]).toBe("*");
    }
  });

  it.each(["br", "gzip"] as const)(
    "sends the precompressed %s file byte for byte",
    async (coding) => {
      for (const entry of manifest.datasets) {
        const variant = entry.variants[coding]!;
        const response = await get(entry.path, fresh({ "Accept-Encoding": coding }));
        expect(response.headers["content-encoding"]).toBe(coding);
        expect(response.headers["etag"]).toBe(variant.etag);
        expect(response.headers["content-length"]).toBe(String(variant.length));
        expect(response.body.equals(file(variant.asset))).toBe(true);
      }
    },
  );

  // What a client decodes is exactly what a client without compression gets.
  it.each([
    ["br", brotliDecompressSync],
    ["gzip", gunzipSync],
  ] as const)("sends %s that decodes to exactly the identity bytes", async (coding, decode) => {
    for (const entry of manifest.datasets) {
      const response = await get(entry.path, fresh({ "Accept-Encoding": coding }));
      expect(response.status).toBe(200);
      expect(response.headers["content-encoding"]).toBe(coding);
      expect(decode(response.body).equals(file(entry.variants.identity.asset))).toBe(true);
    }
  });

  it("answers HEAD with GET's status and headers, Content-Length included, and no body", async () => {
    for (const entry of manifest.datasets) {
      for (const acceptEncoding of ["identity", "br"]) {
        const head = await get(entry.path, fresh({ "Accept-Encoding": acceptEncoding }), "HEAD");
        // A second address with the same count, so the quota fields match too.
        const getResponse = await get(entry.path, fresh({ "Accept-Encoding": acceptEncoding }));
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        expect(stableHeaders(head.headers)).toEqual(stableHeaders(getResponse.headers));
      }
    }
  });

  describe("conditional requests", () => {
    const conditions: [string, (e: ManifestEntry) => Record<string, string>][] = [
      ["the strong ETag", (e) => ({ "If-None-Match": e.variants.identity.etag })],
      ["the weak form of the ETag", (e) => ({ "If-None-Match": `W/${e.variants.identity.etag}` })],
      [
        "If-Modified-Since equal to Last-Modified",
        (e) => ({ "If-Modified-Since": e.lastModified }),
      ],
    ];
    it.each(conditions)(
      "answers 304 with the ETag and no body for %s",
      async (_name, condition) => {
        for (const entry of manifest.datasets) {
          const response = await get(entry.path, fresh(condition(entry)));
          expect(response.status).toBe(304);
          expect(response.body.length).toBe(0);
          expect(response.headers["etag"]).toBe(entry.variants.identity.etag);
          expect(response.headers["last-modified"]).toBe(entry.lastModified);
          // RFC 9110 section 15.4.5: no representation metadata of content it does not carry.
          expect(response.headers["content-type"]).toBeUndefined();
          expect(response.headers["content-encoding"]).toBeUndefined();
        }
      },
    );

    it("answers 412 and the error body to an If-Match of another ETag, first", async () => {
      for (const entry of manifest.datasets) {
        const etag = entry.variants.identity.etag;
        const response = await get(
          entry.path,
          fresh({ "If-Match": '"another"', "If-None-Match": etag }),
        );
        expect(response.status).toBe(412);
        expect(JSON.parse(response.body.toString())).toEqual(specErrorBody(412));
        expect(response.headers["status-code"]).toBe("412");
      }
    });

    it("answers 200 to If-Match the ETag and If-Unmodified-Since its date", async () => {
      for (const entry of manifest.datasets) {
        const response = await get(
          entry.path,
          fresh({
            "If-Match": entry.variants.identity.etag,
            "If-Unmodified-Since": entry.lastModified,
          }),
        );
        expect(response.status).toBe(200);
        expect(response.body.length).toBe(entry.variants.identity.length);
      }
    });
  });

  describe("errors", () => {
    it.each([
      "/index.html",
      "/manifest.json",
      "/std/v2.2/branches.json",
      "/std/v2.2/branches/",
      "/STD/V2.2/BRANCHES",
      "/std//v2.2/branches",
    ])("answers %s with 404 and the error body", async (path) => {
      const response = await get(path, fresh());
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body.toString())).toEqual(specErrorBody(404));
      expect(response.headers["status-code"]).toBe("404");
    });

    it("answers POST on a data path with 405 and Allow", async () => {
      const response = await get(manifest.datasets[0]!.path, fresh(), "POST");
      expect(response.status).toBe(405);
      expect(response.headers["allow"]).toBe("GET, HEAD");
      expect(JSON.parse(response.body.toString())).toEqual(specErrorBody(405));
    });

    it("answers HEAD on an unknown path with 404 and no body", async () => {
      const response = await get("/nothing", fresh(), "HEAD");
      expect(response.status).toBe(404);
      expect(response.body.length).toBe(0);
    });

    it("answers a malformed percent-encoding with 400", async () => {
      const response = await get("/std/v2.2/%zz", fresh());
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body.toString())).toEqual(specErrorBody(400));
    });
  });

  it("answers a CORS preflight with 204", async () => {
    const response = await get(
      manifest.datasets[0]!.path,
      fresh({ Origin: "https://app.example", "Access-Control-Request-Method": "GET" }),
      "OPTIONS",
    );
    expect(response.status).toBe(204);
    // docs/consumers.md, "CORS": what a browser needs before a conditional GET from another origin.
    expect(response.headers["access-control-allow-methods"]).toBe("GET, HEAD");
    expect(response.headers["access-control-allow-headers"]).toBe(
      "If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since",
    );
    expect(response.headers["access-control-max-age"]).toBe("7200");
  });

  it("gives one CF-Connecting-IP its quota, then 429 with Retry-After, while another address is served", async () => {
    const path = manifest.datasets.find((d) => d.path.includes("reg-service-metrics"))!.path;
    const { statuses, last } = await withinOneWindow(async () => {
      const client = fresh();
      const statuses: number[] = [];
      let last: RawResponse | undefined;
      for (let i = 0; i < LIMIT + 3; i++) {
        last = await get(path, client, i % 2 ? "HEAD" : "GET");
        statuses.push(last.status);
      }
      return { statuses, last: last! };
    });
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), ...Array<number>(3).fill(429)]);
    expect(last.headers["ratelimit-policy"]).toBe(`"service-metrics";q=${LIMIT};w=60`);
    const retryAfter = Number(last.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await get(path, fresh())).status).toBe(200);
  });
});
