/**
 * The service metrics' changes paths through the real Worker, over a scratch git repository:
 * /x-std/v1.0/reg-service-metrics/pca/changes (and /bca), in the v2.2 changes' shape, where the
 * brand object is the record: each brand added or changed listed whole, each brand gone as its
 * BrandName with Removed true; both token kinds; the live standard's alias; the feed's entries;
 * /openapi.json. A last commit changes only Contact in site.yaml: no data set's LastUpdated or
 * ETag moves. The brand files are the repository's own fictional sample content.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  historyWorker,
  publishedVersions,
  siteYaml,
  type HistoryWorker,
  type PublishedVersion,
  type TestVersion,
} from "../helpers/history.js";
import { newClients, request } from "./http.js";

const SAMPLE = join(import.meta.dirname, "../../content");
const sample = (path: string) => readFileSync(join(SAMPLE, path), "utf8");
const thistlecombe = sample("service-metrics-pca/thistlecombe-bank.yaml");
const pennyfold = sample("service-metrics-pca/pennyfold-building-society.yaml");
const NOTES =
  'Notes: "Metrics cover all personal current accounts sold under the Thistlecombe Bank brand."';
const changedNotes = thistlecombe.replace(NOTES, 'Notes: "Metrics cover every personal account."');

const T0 = 1_790_000_000;
const VERSIONS: TestVersion[] = [
  {
    seconds: T0,
    files: {
      "site.yaml": siteYaml("OpenBankingPaths: true\n"),
      "service-metrics-pca/thistlecombe-bank.yaml": thistlecombe,
      "service-metrics-pca/pennyfold-building-society.yaml": pennyfold,
      "service-metrics-bca/thistlecombe-bank.yaml": sample(
        "service-metrics-bca/thistlecombe-bank.yaml",
      ),
    },
  },
  // Thistlecombe's notes change.
  { seconds: T0 + 3600, files: { "service-metrics-pca/thistlecombe-bank.yaml": changedNotes } },
  // Pennyfold's metrics are withdrawn.
  { seconds: T0 + 7200, files: { "service-metrics-pca/pennyfold-building-society.yaml": null } },
  // A comment only: no version.
  {
    seconds: T0 + 10_800,
    files: { "service-metrics-pca/thistlecombe-bank.yaml": `# reviewed\n${changedNotes}` },
  },
  // Contact only, which no body holds: no version of any data set.
  {
    seconds: T0 + 14_400,
    files: {
      "site.yaml": siteYaml(
        'OpenBankingPaths: true\nContact:\n  Name: "Data desk"\n  Email: "data@example.invalid"\n',
      ),
    },
  },
];
const V10 = "application/prs.std.opendata.v1.0+json";
const OB10 = "application/prs.openbanking.opendata.v1.0+json";
const PCA = "/x-std/v1.0/reg-service-metrics/pca/changes";

let worker: HistoryWorker;
let published: PublishedVersion[]; // newest first
beforeAll(async () => {
  worker = await historyWorker(VERSIONS);
  published = await publishedVersions(VERSIONS, "service-metrics-pca");
}, 180_000);
afterAll(async () => {
  await worker?.dispose();
});

const fresh = newClients();
const get = (path: string) => request(new URL(path, worker.base), { headers: fresh() });
type Answer = {
  meta: { LastUpdated: string; Since: string; TotalResults: number };
  data: { Brand: Record<string, unknown>[] }[];
};
const json = (body: Buffer) => JSON.parse(body.toString("utf8")) as Answer;

describe("the service metrics' changes", () => {
  it("know three versions: the comment-only commit is none", () => {
    expect(published.map((p) => p.entry.lastUpdated)).toEqual([
      "2026-09-21T16:13:20Z",
      "2026-09-21T15:13:20Z",
      "2026-09-21T14:13:20Z",
    ]);
    const changes = worker.manifest.changes!.find((c) => c.dataset === "service-metrics-pca")!;
    expect(changes.path).toBe(PCA);
    expect(changes.answers.map((a) => a.since)).toEqual(published.map((p) => p.entry.lastUpdated));
  });

  it("list each brand changed whole, as the full list has it, and a brand gone as its name with Removed", async () => {
    for (const token of [
      "2026-09-21T14:13:20Z",
      ...Object.values(published[2]!.entry.variants).map((v) => v.etag.replaceAll('"', "")),
    ]) {
      const response = await get(`${PCA}?since=${token}`);
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe(V10);
      expect(response.headers["ratelimit-policy"]).toBe('"service-metrics";q=145;w=60');
      const answer = json(response.body);
      expect(answer.meta).toMatchObject({
        LastUpdated: "2026-09-21T16:13:20Z",
        Since: "2026-09-21T14:13:20Z",
        TotalResults: 2,
      });
      const full = json(Buffer.from(published[0]!.body)).data[0]!.Brand;
      expect(answer.data).toEqual([
        {
          Brand: [full[0], { BrandName: "Pennyfold Building Society", Removed: true }],
        },
      ]);
      expect(full[0]!.Notes).toBe("Metrics cover every personal account.");
    }
    const since1 = json((await get(`${PCA}?since=2026-09-21T15:13:20Z`)).body);
    expect(since1.meta.TotalResults).toBe(1);
    expect(since1.data).toEqual([
      { Brand: [{ BrandName: "Pennyfold Building Society", Removed: true }] },
    ]);
    const now = json((await get(`${PCA}?since=2026-09-21T16:13:20Z`)).body);
    expect(now.meta.TotalResults).toBe(0);
    expect(now.data).toEqual([]);
  });

  it("answer 410 for the comment-only commit's time, and under the live standard's versioned alias", async () => {
    expect((await get(`${PCA}?since=2026-09-21T17:13:20Z`)).status).toBe(410);
    const std = await get(`${PCA}?since=2026-09-21T15:13:20Z`);
    const live = await get(
      "/x-open-banking/v1.0/fca-service-metrics/pca/changes?since=2026-09-21T15:13:20Z",
    );
    expect(live.status).toBe(200);
    expect(live.headers["content-type"]).toBe(OB10);
    expect(live.body.equals(std.body)).toBe(true);
  });

  it("answer for business current accounts too", async () => {
    const bca = await get("/x-std/v1.0/reg-service-metrics/bca/changes?since=2026-09-21T14:13:20Z");
    expect(bca.status).toBe(200);
    expect(json(bca.body).data).toEqual([]);
  });

  it("have their feed entries and their paths in /openapi.json", async () => {
    const feed = (await get("/x-std/changes.atom")).body.toString("utf8");
    const titles = [...feed.matchAll(/<title>(Service metrics \(PCA\)[^<]*)<\/title>/g)].map(
      (m) => m[1],
    );
    expect(titles).toEqual([
      "Service metrics (PCA): 1 removed",
      "Service metrics (PCA): 1 changed",
      "Service metrics (PCA): first publication, 2 records",
    ]);
    const openapi = JSON.parse((await get("/openapi.json")).body.toString("utf8")) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining([
        PCA,
        "/x-std/v1.0/reg-service-metrics/bca/changes",
        "/x-open-banking/v1.0/fca-service-metrics/pca/changes",
      ]),
    );
  });
});

describe("a commit that changes only Contact in site.yaml", () => {
  it("changes no data set's ETag or Last-Modified: each is its last version's", async () => {
    // The oracle built the service metrics' versions alone, outside git: its newest is the
    // Worker's body, byte for byte, so its ETags too.
    const pca = await get("/std/v1.0/reg-service-metrics/pca");
    expect(pca.headers.etag).toBe(published[0]!.entry.variants.identity.etag);
    expect(pca.headers["last-modified"]).toBe("Mon, 21 Sep 2026 16:13:20 GMT");
    // Every other data set was last changed by the first commit (the empty ones, by its
    // site.yaml): dated by it, not by the Contact commit.
    for (const entry of worker.manifest.datasets) {
      if (entry.dataset === "service-metrics-pca") continue;
      const response = await get(entry.path);
      expect(response.status).toBe(200);
      expect(response.headers["last-modified"], entry.path).toBe("Mon, 21 Sep 2026 14:13:20 GMT");
      expect(json(response.body).meta.LastUpdated, entry.path).toBe("2026-09-21T14:13:20Z");
    }
  });
});
