import { beforeAll, describe, expect, it } from "vitest";
import type { Manifest, ManifestEntry } from "../../contract/manifest.js";
import { CLIENT_ADDRESS_HEADER } from "../../worker/rate-limit/client-bucket.js";
import { routeTable } from "../../worker/routes.js";
import { expectError } from "./support/assertions.js";
import { makeFixture, makeWorker, type Fixture } from "./support/fixture.js";
import { LIVE_STANDARD_PATHS } from "../helpers/spec-values.js";

const ALIASES = LIVE_STANDARD_PATHS;

let plain: Fixture;
let withAliases: Fixture;
/** Every alias with the entry it stands for. */
let cases: [alias: string, mediaType: string, entry: ManifestEntry][];

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
