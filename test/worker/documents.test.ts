/**
 * The documents about the APIs (landing page, /openapi.json) through the handler: served like a
 * data set, with the page's Content-Security-Policy, outside every rate-limit plan and untouched
 * by maintenance.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { DocumentEntry } from "../../contract/manifest.js";
import { routeTable } from "../../worker/routes.js";
import { DECIDED, EVERY_RESPONSE_HEADERS, SPEC_CACHE_CONTROL } from "../helpers/spec-values.js";
import { expectError } from "./support/assertions.js";
import { makeFixture, makeWorker, type Fixture } from "./support/fixture.js";

// The policy the page needs (CSP Level 3): only its own stylesheet, no script, no framing.
const POLICY =
  "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const LAST_MODIFIED = "Fri, 20 Nov 2026 10:00:00 GMT";

async function etagOf(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `"${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

let fixture: Fixture;
let page: DocumentEntry;
const PAGE = new TextEncoder().encode("<!doctype html><title>page</title>");
const PAGE_GZIP = new TextEncoder().encode("gzip bytes of the page");

beforeAll(async () => {
  const base = await makeFixture();
  page = {
    path: "/",
    mediaType: "text/html; charset=utf-8",
    lastModified: LAST_MODIFIED,
    lastModifiedMs: Date.parse(LAST_MODIFIED),
    variants: {
      identity: { asset: "/index.html", etag: await etagOf(PAGE), length: PAGE.length },
      gzip: { asset: "/index.html.gz", etag: await etagOf(PAGE_GZIP), length: PAGE_GZIP.length },
    },
  };
  const files = new Map(base.files);
  files.set("/index.html", PAGE);
  files.set("/index.html.gz", PAGE_GZIP);
  fixture = { manifest: { ...base.manifest, documents: [page] }, files };
});

describe("a document path", () => {
  it("serves the stored bytes with its media type, validators, security headers and CSP", async () => {
    const worker = makeWorker(fixture);
    const response = await worker.fetch("/");
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PAGE);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("Content-Security-Policy")).toBe(POLICY);
    expect(response.headers.get("ETag")).toBe(page.variants.identity.etag);
    expect(response.headers.get("Last-Modified")).toBe(LAST_MODIFIED);
    expect(response.headers.get("Cache-Control")).toBe(SPEC_CACHE_CONTROL);
    for (const [name, value] of EVERY_RESPONSE_HEADERS)
      expect(response.headers.get(name)).toBe(value);
  });

  it("sends the stored gzip variant to a client that accepts it", async () => {
    const worker = makeWorker(fixture);
    const response = await worker.fetch("/", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
    expect(response.headers.get("ETag")).toBe(page.variants.gzip!.etag);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PAGE_GZIP);
  });

  it("returns 304 when If-None-Match lists the current ETag, and HEAD without a body", async () => {
    const worker = makeWorker(fixture);
    const notModified = await worker.fetch("/", {
      headers: { "If-None-Match": `W/${page.variants.identity.etag}` },
    });
    expect(notModified.status).toBe(304);
    const head = await worker.fetch("/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe(String(PAGE.length));
    expect(await head.text()).toBe("");
  });

  it("is never counted: no quota fields, and a one-request quota stays unspent", async () => {
    const worker = makeWorker(fixture, { vars: { OPEN_DATA_LIMIT_PER_MINUTE: "1" } });
    for (let i = 0; i < 5; i++) {
      const response = await worker.fetch("/");
      expect(response.status).toBe(200);
      expect(response.headers.get("RateLimit")).toBeNull();
      expect(response.headers.get("RateLimit-Policy")).toBeNull();
    }
    expect((await worker.fetch("/std/v2.2/atms")).status).toBe(200);
    await expectError(await worker.fetch("/std/v2.2/atms"), 429);
  });

  it("stays up while maintenance answers 503 on the data paths", async () => {
    const worker = makeWorker(fixture, { vars: { MAINTENANCE: "on" } });
    expect((await worker.fetch("/")).status).toBe(200);
    await expectError(await worker.fetch("/std/v2.2/atms"), 503);
  });

  it("sends no CSP on data paths, whose bodies are not rendered", async () => {
    const worker = makeWorker(fixture);
    const response = await worker.fetch("/std/v2.2/atms");
    expect(response.headers.get("Content-Security-Policy")).toBeNull();
  });

  it.each(["/index.html", "/index.html.gz", "/INDEX.HTML", "/%2F"])(
    "returns 404 on %s",
    async (path) => {
      const worker = makeWorker(fixture);
      await expectError(await worker.fetch(path), 404);
    },
  );

  it("refuses a manifest that lists a document at a data set's path", () => {
    const atms = fixture.manifest.datasets[1]!;
    expect(() =>
      routeTable({ ...fixture.manifest, documents: [{ ...page, path: atms.path }] }),
    ).toThrow(/listed twice/);
  });
});
