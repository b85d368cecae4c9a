/**
 * The landing page, its stylesheet, /openapi.json and the API reference through the real Worker
 * on loopback: the stored bytes, the media types, the CSP, validators and variants, and no quota
 * spent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentEntry } from "../../contract/manifest.js";
import { DIST_DIR } from "../../build/core/paths.js";
import { startWorker, type RunningWorker } from "../helpers/worker.js";
import { request } from "./http.js";
import { runExample, shellExamples, statusesOf } from "../helpers/page-examples.js";

// What each document is sent as: HTML and CSS in UTF-8, and the OpenAPI Initiative's registered
// type for an OpenAPI document in JSON, with its version parameter; the participant directory's
// entry as plain JSON, as the directory itself is served.
const MEDIA_TYPES: [path: string, mediaType: string][] = [
  ["/", "text/html; charset=utf-8"],
  ["/style.css", "text/css; charset=utf-8"],
  ["/openapi.json", "application/vnd.oai.openapi+json;version=3.1"],
  ["/reference", "text/html; charset=utf-8"],
  ["/participant_store.json", "application/json"],
];
const POLICY =
  "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const SECURITY: [string, string][] = [
  ["strict-transport-security", "max-age=31536000"],
  ["x-frame-options", "DENY"],
  ["x-content-type-options", "nosniff"],
];

let worker: RunningWorker;
let documents: Map<string, DocumentEntry>;
beforeAll(async () => {
  worker = await startWorker();
  documents = new Map((worker.manifest.documents ?? []).map((d) => [d.path, d]));
}, 60_000);
afterAll(async () => worker?.dispose());

const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  request(new URL(path, worker.base), { method, headers });
const stored = (asset: string) => readFileSync(join(DIST_DIR, asset));

describe.each(MEDIA_TYPES)("%s", (path, mediaType) => {
  it("is served with its stored bytes, media type, CSP, security headers and validators", async () => {
    const entry = documents.get(path)!;
    expect(entry.mediaType).toBe(mediaType);
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.body.equals(stored(entry.variants.identity.asset))).toBe(true);
    expect(response.headers["content-type"]).toBe(mediaType);
    expect(response.headers["content-security-policy"]).toBe(POLICY);
    expect(response.headers["etag"]).toBe(entry.variants.identity.etag);
    expect(response.headers["last-modified"]).toBe(entry.lastModified);
    expect(response.headers["cache-control"]).toBe("max-age=28800");
    expect(response.headers["vary"]).toBe("Accept-Encoding");
    for (const [name, value] of SECURITY) expect(response.headers[name]).toBe(value);
  });

  it.each([
    ["br", brotliDecompressSync],
    ["gzip", gunzipSync],
  ] as const)(
    "sends the stored %s variant, which decodes to the identity bytes",
    async (coding, decode) => {
      const entry = documents.get(path)!;
      const variant = entry.variants[coding]!;
      const response = await get(path, { "Accept-Encoding": coding });
      expect(response.headers["content-encoding"]).toBe(coding);
      expect(response.headers["etag"]).toBe(variant.etag);
      // Seen here: the local front line compresses gzipped text/html again (same content, other
      // bytes; br and the other types pass as sent). What the client decodes is what counts.
      if (!(mediaType.startsWith("text/html") && coding === "gzip")) {
        expect(response.body.equals(stored(variant.asset))).toBe(true);
      }
      expect(decode(response.body).equals(stored(entry.variants.identity.asset))).toBe(true);
    },
  );

  it("returns 304 for its ETag and answers HEAD with GET's length and no body", async () => {
    const entry = documents.get(path)!;
    const notModified = await get(path, { "If-None-Match": entry.variants.identity.etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    const head = await get(path, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(entry.variants.identity.length));
    expect(head.body.length).toBe(0);
  });
});

describe("the documents and the quota", () => {
  it("serves more requests from one client than any plan allows, with no quota fields", async () => {
    // 145 per minute is the default of both plans (service-metrics-api-v1.0.md, "Limits").
    for (const path of ["/", "/reference", "/participant_store.json"]) {
      for (let i = 0; i < 150; i++) {
        const response = await get(path, { "CF-Connecting-IP": "198.51.100.7" }, "HEAD");
        expect(response.status).toBe(200);
        expect(response.headers["ratelimit"]).toBeUndefined();
      }
    }
  });
});

describe("paths beside the documents", () => {
  it.each([
    "/index.html",
    "/index.html.br",
    "/openapi.json.gz",
    "/openapi.json/",
    "/style.css/",
    "/reference.html",
    "/reference/",
    "/reference.html.br",
  ])("returns 404 on %s", async (path) => {
    expect((await get(path)).status).toBe(404);
  });
});

describe("the landing page's examples, pasted into a shell", () => {
  const fetchExample = async () => {
    const page = (await get("/")).body.toString("utf8");
    const example = shellExamples(page).find((b) => b.includes("# the first time: note the ETag"));
    expect(example).toBeDefined();
    return example!;
  };

  it("fetch a data set, then get a 304 with its ETag, once ORIGIN is this page's origin", async () => {
    const ran = await runExample(await fetchExample(), worker.base.origin);
    expect(ran.stderr).toBe("");
    expect(statusesOf(ran.stdout)).toEqual([200, 304]);
  });

  it("run nothing without ORIGIN and say to set it", async () => {
    const ran = await runExample(await fetchExample(), undefined);
    expect(ran.code).not.toBe(0);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toContain("ORIGIN: first set ORIGIN to the origin of this page");
  });
});
