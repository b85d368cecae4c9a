/**
 * The paths the manifest lists besides a data set's own (routes.ts), through the handler: its
 * aliases (the live standard's paths: the same bytes and ETags, their own media type, the data
 * set's quota) and the documents about the APIs (landing page, /openapi.json: served like a data
 * set, with the page's Content-Security-Policy, outside every rate-limit plan and untouched by
 * maintenance).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { DocumentEntry, Manifest, ManifestEntry } from "../../contract/manifest.js";
import { CLIENT_ADDRESS_HEADER } from "../../worker/rate-limit/client-bucket.js";
import { routeTable } from "../../worker/routes.js";
import { expectError } from "./support/assertions.js";
import { makeFixture, makeWorker, type Fixture } from "./support/fixture.js";
import {
  EVERY_RESPONSE_HEADERS,
  LIVE_STANDARD_PATHS,
  SPEC_CACHE_CONTROL,
  SPEC_PATHS,
} from "../helpers/spec-values.js";

const ALIASES = LIVE_STANDARD_PATHS;

// The policy the page needs (CSP Level 3): only its own stylesheet, no script, no framing.
const POLICY =
  "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const LAST_MODIFIED = "Fri, 20 Nov 2026 10:00:00 GMT";
const PAGE = new TextEncoder().encode("<!doctype html><title>page</title>");
const PAGE_GZIP = new TextEncoder().encode("gzip bytes of the page");

async function etagOf(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `"${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

let plain: Fixture;
let withAliases: Fixture;
/** Every alias with the entry it stands for. */
let cases: [alias: string, mediaType: string, entry: ManifestEntry][];
/** The plain fixture with a landing page. */
let withPage: Fixture;
let page: DocumentEntry;

beforeAll(async () => {
  plain = await makeFixture();
  const datasets = plain.manifest.datasets.map((entry) => ({
    ...entry,
    aliases: (ALIASES[entry.dataset] ?? []).map(([path, mediaType]) => ({ path, mediaType })),
  }));
  withAliases = { manifest: { formatVersion: 1, datasets, documents: [] }, files: plain.files };
  cases = datasets.flatMap((entry) =>
    entry.aliases.map((a) => [a.path, a.mediaType, entry] as [string, string, ManifestEntry]),
  );
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
  const files = new Map(plain.files);
  files.set("/index.html", PAGE);
  files.set("/index.html.gz", PAGE_GZIP);
  withPage = { manifest: { ...plain.manifest, documents: [page] }, files };
});

const bytes = async (response: Response) => new Uint8Array(await response.arrayBuffer());
const from = (address: string, headers: Record<string, string> = {}) => ({
  headers: { [CLIENT_ADDRESS_HEADER]: address, ...headers },
});

describe("alias paths listed in the manifest", () => {
  it("serve the same bytes and ETag as the data set's /std/ path, with the alias media type", async () => {
    for (const entry of withAliases.manifest.datasets) expect(ALIASES[entry.dataset]).toBeDefined();
    // The three v2.2 and two service metrics data sets at least: 3 + 2 × 2 paths.
    expect(cases.length).toBeGreaterThanOrEqual(7);
    const worker = makeWorker(withAliases);
    for (const [alias, mediaType, entry] of cases) {
      const canonical = await worker.fetch(entry.path);
      const response = await worker.fetch(alias);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe(mediaType);
      expect(response.headers.get("ETag")).toBe(canonical.headers.get("ETag"));
      expect(response.headers.get("Last-Modified")).toBe(canonical.headers.get("Last-Modified"));
      expect(await bytes(response)).toEqual(await bytes(canonical));
    }
  });

  it("keep the data set's own media type on its /std/ path", async () => {
    const worker = makeWorker(withAliases);
    for (const entry of withAliases.manifest.datasets) {
      const response = await worker.fetch(entry.path);
      expect(response.headers.get("Content-Type")).toBe(entry.mediaType);
      await response.body?.cancel();
    }
  });

  it.each(["br", "gzip"] as const)(
    "send the stored %s variant with that variant's ETag",
    async (coding) => {
      const worker = makeWorker(withAliases);
      for (const [alias, , entry] of cases) {
        const response = await worker.fetch(alias, { headers: { "Accept-Encoding": coding } });
        expect(response.headers.get("Content-Encoding")).toBe(coding);
        expect(response.headers.get("ETag")).toBe(entry.variants[coding]!.etag);
        expect(await bytes(response)).toEqual(plain.files.get(entry.variants[coding]!.asset));
      }
    },
  );

  it("return 304 when If-None-Match carries the ETag the /std/ path gave", async () => {
    const worker = makeWorker(withAliases);
    for (const [alias, , entry] of cases) {
      const etag = (await worker.fetch(entry.path, { method: "HEAD" })).headers.get("ETag")!;
      const response = await worker.fetch(alias, { headers: { "If-None-Match": etag } });
      expect(response.status).toBe(304);
      expect(response.headers.get("ETag")).toBe(etag);
      expect(response.body).toBeNull();
    }
  });

  it("return 304 when If-Modified-Since is the data set's Last-Modified", async () => {
    const worker = makeWorker(withAliases);
    const [alias, , entry] = cases[0]!;
    const response = await worker.fetch(alias, {
      headers: { "If-Modified-Since": entry.lastModified },
    });
    expect(response.status).toBe(304);
  });

  it("answer HEAD with the headers of GET, the alias media type and Content-Length, and no body", async () => {
    const worker = makeWorker(withAliases);
    for (const [alias, mediaType, entry] of cases) {
      const get = await worker.fetch(alias);
      await get.body?.cancel();
      const head = await worker.fetch(alias, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.body).toBeNull();
      expect(head.headers.get("Content-Type")).toBe(mediaType);
      expect(head.headers.get("Content-Length")).toBe(String(entry.variants.identity.length));
      const strip = (h: Headers) => [...h].filter(([name]) => name.toLowerCase() !== "ratelimit");
      expect(strip(head.headers)).toEqual(strip(get.headers));
    }
  });

  it("answer a method other than GET, HEAD or OPTIONS with 405, as the /std/ paths do", async () => {
    const worker = makeWorker(withAliases);
    await expectError(await worker.fetch(cases[0]![0], { method: "POST" }), 405);
  });

  it("are exact: a trailing slash or another letter case is 404", async () => {
    const worker = makeWorker(withAliases);
    await expectError(await worker.fetch("/open-banking/v2.2/atms/"), 404);
    await expectError(await worker.fetch("/Open-Banking/v2.2/atms"), 404);
    await expectError(await worker.fetch("/open-banking/v2.2/"), 404);
  });
});

describe("one quota per plan whichever path family a client calls", () => {
  const vars = { OPEN_DATA_LIMIT_PER_MINUTE: "6", SERVICE_METRICS_LIMIT_PER_MINUTE: "6" };

  it("refuses the 7th open data request of a minute when a client alternates /std/ and /open-banking/", async () => {
    const worker = makeWorker(withAliases, { vars });
    const paths = ["/std/v2.2/atms", "/open-banking/v2.2/atms", "/open-banking/v2.2/branches"];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await worker.fetch(paths[i % paths.length]!, from("203.0.113.7"));
      statuses.push(response.status);
      await response.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it("counts the versioned, unversioned and /std/ service metrics paths together", async () => {
    const worker = makeWorker(withAliases, { vars });
    const paths = [
      "/std/v1.0/reg-service-metrics/pca",
      "/open-banking/v1.0/fca-service-metrics/pca",
      "/open-banking/fca-service-metrics/bca",
    ];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await worker.fetch(paths[i % paths.length]!, from("203.0.113.8"));
      remaining.push(response.status === 429 ? "429" : response.headers.get("RateLimit"));
      await response.body?.cancel();
    }
    expect(remaining).toEqual([
      '"service-metrics";r=5;t=50',
      '"service-metrics";r=4;t=50',
      '"service-metrics";r=3;t=50',
      '"service-metrics";r=2;t=50',
      '"service-metrics";r=1;t=50',
      '"service-metrics";r=0;t=50',
      "429",
    ]);
  });

  it("keeps the open data and service metrics quotas apart on the alias paths too", async () => {
    const worker = makeWorker(withAliases, { vars });
    for (let i = 0; i < 6; i++) {
      const r = await worker.fetch("/open-banking/v2.2/atms", from("203.0.113.9"));
      await r.body?.cancel();
    }
    const metrics = await worker.fetch(
      "/open-banking/fca-service-metrics/pca",
      from("203.0.113.9"),
    );
    expect(metrics.status).toBe(200);
    await metrics.body?.cancel();
  });
});

describe("without aliases in the manifest", () => {
  it("answers 404 on every /open-banking/ path", async () => {
    const worker = makeWorker(plain);
    for (const entry of plain.manifest.datasets) {
      for (const [path] of ALIASES[entry.dataset]!)
        await expectError(await worker.fetch(path), 404);
    }
  });
});

describe("a document path", () => {
  it("serves the stored bytes with its media type, validators, security headers and CSP", async () => {
    const worker = makeWorker(withPage);
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
    const worker = makeWorker(withPage);
    const response = await worker.fetch("/", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
    expect(response.headers.get("ETag")).toBe(page.variants.gzip!.etag);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PAGE_GZIP);
  });

  it("returns 304 when If-None-Match lists the current ETag, and HEAD without a body", async () => {
    const worker = makeWorker(withPage);
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
    const worker = makeWorker(withPage, { vars: { OPEN_DATA_LIMIT_PER_MINUTE: "1" } });
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
    const worker = makeWorker(withPage, { vars: { MAINTENANCE: "on" } });
    expect((await worker.fetch("/")).status).toBe(200);
    await expectError(await worker.fetch("/std/v2.2/atms"), 503);
  });

  it("sends no CSP on data paths, whose bodies are not rendered", async () => {
    const worker = makeWorker(withPage);
    const response = await worker.fetch("/std/v2.2/atms");
    expect(response.headers.get("Content-Security-Policy")).toBeNull();
  });

  it.each(["/index.html", "/index.html.gz", "/INDEX.HTML", "/%2F"])(
    "returns 404 on %s",
    async (path) => {
      const worker = makeWorker(withPage);
      await expectError(await worker.fetch(path), 404);
    },
  );

  it("refuses a manifest that lists a document at a data set's path", () => {
    const atms = withPage.manifest.datasets[1]!;
    expect(() =>
      routeTable({ ...withPage.manifest, documents: [{ ...page, path: atms.path }] }),
    ).toThrow(/listed twice/);
  });
});

describe("building the routes", () => {
  it("refuses a manifest whose alias repeats a path already served", () => {
    const [first, second] = plain.manifest.datasets;
    const manifest: Manifest = {
      formatVersion: 1,
      documents: [],
      datasets: [
        first!,
        {
          ...second!,
          aliases: [
            { path: first!.path, mediaType: "application/prs.openbanking.opendata.v2.2+json" },
          ],
        },
      ],
    };
    expect(() => routeTable(manifest)).toThrow(`${first!.path} is listed twice in the manifest`);
  });
});

describe("the max-age the manifest gives (site.yaml's CacheMaxAgeSeconds)", () => {
  it("is the data sets' and the documents' Cache-Control, on their 200s and 304s", async () => {
    const worker = makeWorker({
      ...withPage,
      manifest: { ...withPage.manifest, cacheMaxAge: 600 },
    });
    for (const path of [SPEC_PATHS.atms, SPEC_PATHS["service-metrics-pca"], "/"]) {
      const ok = await worker.fetch(path);
      expect(ok.headers.get("Cache-Control")).toBe("max-age=600");
      const etag = ok.headers.get("ETag")!;
      const revalidated = await worker.fetch(path, { headers: { "If-None-Match": etag } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get("Cache-Control")).toBe("max-age=600");
    }
  });

  it("is the specs' default when the manifest gives none", async () => {
    const worker = makeWorker(withPage);
    expect((await worker.fetch(SPEC_PATHS.atms)).headers.get("Cache-Control")).toBe(
      SPEC_CACHE_CONTROL,
    );
  });
});
