/**
 * The changes endpoints and the publication feed through the real Worker, over a scratch git
 * repository whose history holds versions of a small ATM and branch feed written here (records
 * added, removed for good, changed, a brand gone, a brand new, a commit changing no record). For
 * every version: the changes since its LastUpdated and since each of its ETags, applied to that
 * version, give the newest records exactly, with TotalResults right; 304, HEAD and br behave as
 * for the data; 400 and 410 answer in the spec's error shape; the Atom feed parses as Atom with
 * an entry per publication and its counts.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { DOMParser, type Document, type Element } from "@xmldom/xmldom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  atmBrandFile,
  branchBrandFile,
  historyWorker,
  publishedVersions,
  siteYaml,
  type HistoryWorker,
  type PublishedVersion,
  type TestAtm,
  type TestVersion,
} from "../helpers/history.js";
import { newClients, request, type RawResponse } from "./http.js";
import { at, parseJson } from "../helpers/json.js";

const V22 = "application/prs.std.opendata.v2.2+json";
const OB22 = "application/prs.openbanking.opendata.v2.2+json";
const ATOM = "http://www.w3.org/2005/Atom";

// The test feed: two ATM brands (one split across two files, as large feeds are), one branch
// brand, six commits an hour apart. Fictional names and places.
const atm = (id: string, town: string, amount = 10): TestAtm => ({ id, town, amount });
const fern = [atm("F-1", "Wexbury"), atm("F-2", "Lynmoor"), atm("F-3", "Ottersey")];
// Most of a real feed never changes: twenty ATMs here stay as they are in every version.
const steady = Array.from({ length: 20 }, (_, i) => atm(`F-${100 + i}`, "Brackenfold"));
const fernNorth = [atm("F-4", "Stainby Cross"), atm("F-5", "Brackenfold"), ...steady];
const ash = [atm("A-1", "Pellingford"), atm("A-2", "Wexbury")];
const T0 = 1_790_000_000;
const VERSIONS: TestVersion[] = [
  {
    seconds: T0,
    files: {
      "site.yaml": siteYaml("OpenBankingPaths: true\n"),
      "atms/fernbrook/south.yaml": atmBrandFile("Fernbrook Bank", fern),
      "atms/fernbrook/north.yaml": atmBrandFile("Fernbrook Bank", fernNorth),
      "atms/ashgrove.yaml": atmBrandFile("Ashgrove Savings", ash),
      "branches/fernbrook.yaml": branchBrandFile("Fernbrook Bank", [atm("FB-1", "Wexbury")]),
    },
  },
  // F-2 changed, F-6 added.
  {
    seconds: T0 + 3600,
    files: {
      "atms/fernbrook/south.yaml": atmBrandFile("Fernbrook Bank", [
        fern[0]!,
        atm("F-2", "Lynmoor", 20),
        fern[2]!,
        atm("F-6", "Ottersey"),
      ]),
    },
  },
  // F-3 removed for good; a branch added.
  {
    seconds: T0 + 7200,
    files: {
      "atms/fernbrook/south.yaml": atmBrandFile("Fernbrook Bank", [
        fern[0]!,
        atm("F-2", "Lynmoor", 20),
        atm("F-6", "Ottersey"),
      ]),
      "branches/fernbrook.yaml": branchBrandFile("Fernbrook Bank", [
        atm("FB-1", "Wexbury"),
        atm("FB-2", "Lynmoor"),
      ]),
    },
  },
  // Ashgrove's ATMs all go; a new brand, Kestrel, appears.
  {
    seconds: T0 + 10800,
    files: {
      "atms/ashgrove.yaml": null,
      "atms/kestrel.yaml": atmBrandFile("Kestrel Bank", [atm("K-1", "Pellingford")]),
    },
  },
  // A comment changes, no record does: no version of the data set.
  {
    seconds: T0 + 14400,
    files: {
      "atms/kestrel.yaml": atmBrandFile("Kestrel Bank", [atm("K-1", "Pellingford")], "reviewed"),
    },
  },
  // F-1 moves town, F-6 goes, F-7 arrives, F-4 changes in the other file.
  {
    seconds: T0 + 18000,
    files: {
      "atms/fernbrook/south.yaml": atmBrandFile("Fernbrook Bank", [
        atm("F-1", "Ottersey"),
        atm("F-2", "Lynmoor", 20),
        atm("F-7", "Wexbury"),
      ]),
      "atms/fernbrook/north.yaml": atmBrandFile("Fernbrook Bank", [
        atm("F-4", "Stainby Cross", 30),
        ...fernNorth.slice(1),
      ]),
    },
  },
];

let worker: HistoryWorker;
let published: PublishedVersion[]; // newest first
beforeAll(async () => {
  worker = await historyWorker(VERSIONS);
  published = await publishedVersions(VERSIONS, "atms");
}, 180_000);
afterAll(async () => {
  await worker?.dispose();
});

const fresh = newClients();
const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  request(new URL(path, worker.base), { method, headers: fresh(headers) });

type Records = Map<string, string[]>;
function recordsOf(body: string): Records {
  const parsed = JSON.parse(body) as { data: { Brand: { BrandName: string; ATM: unknown[] }[] }[] };
  const out: Records = new Map();
  for (const b of parsed.data.flatMap((d) => d.Brand)) {
    out.set(b.BrandName, [...(out.get(b.BrandName) ?? []), ...b.ATM.map((r) => JSON.stringify(r))]);
  }
  return out;
}
const idOf = (json: string) => (JSON.parse(json) as { Identification: string }).Identification;
/** The issue's rule, on its own: drop Removed and the Identifications listed, add those listed. */
function apply(held: Records, answer: string): Records {
  const parsed = JSON.parse(answer) as {
    data: { Brand: { BrandName: string; ATM?: unknown[]; Removed?: string[] }[] }[];
  };
  const out: Records = new Map([...held].map(([k, v]) => [k, [...v]]));
  for (const b of parsed.data.flatMap((d) => d.Brand)) {
    const listed = (b.ATM ?? []).map((r) => JSON.stringify(r));
    const drop = new Set([...(b.Removed ?? []), ...listed.map(idOf)]);
    const next = [...(out.get(b.BrandName) ?? []).filter((j) => !drop.has(idOf(j))), ...listed];
    if (next.length > 0) out.set(b.BrandName, next);
    else out.delete(b.BrandName);
  }
  return out;
}
const sorted = (r: Records) =>
  [...r].map(([b, l]) => [b, [...l].sort()] as const).sort(([a], [b]) => (a < b ? -1 : 1));
const listedCount = (answer: string) => {
  const parsed = JSON.parse(answer) as {
    data: { Brand: { ATM?: unknown[]; Removed?: string[] }[] }[];
  };
  return parsed.data
    .flatMap((d) => d.Brand)
    .reduce((n, b) => n + (b.ATM?.length ?? 0) + (b.Removed?.length ?? 0), 0);
};
const bare = (etag: string) => etag.replaceAll('"', "");

describe("the changes since every version of a real history", () => {
  it("knows every version: six commits, each one kept but the one that changed only a comment", () => {
    expect(published).toHaveLength(5);
    const changes = worker.manifest.changes!.find((c) => c.dataset === "atms")!;
    expect(changes.answers.map((a) => a.since)).toEqual(published.map((p) => p.entry.lastUpdated));
  });

  it.each([0, 1, 2, 3, 4])(
    "since the version %i commits back, by its LastUpdated and each of its ETags, give the newest records",
    async (age) => {
      const version = published[age]!;
      const newest = published[0]!;
      const tokens = [
        version.entry.lastUpdated,
        ...Object.values(version.entry.variants).map((v) => bare(v.etag)),
      ];
      expect(tokens).toHaveLength(4);
      const bodies = new Set<string>();
      for (const token of tokens) {
        const response = await get(`/x-std/v2.2/atms/changes?since=${token}`);
        expect(response.status).toBe(200);
        expect(response.headers["content-type"]).toBe(V22);
        const text = response.body.toString("utf8");
        bodies.add(text);
        const answer = JSON.parse(text) as {
          meta: { LastUpdated: string; Since: string; TotalResults: number };
        };
        expect(answer.meta.LastUpdated).toBe(newest.entry.lastUpdated);
        expect(answer.meta.Since).toBe(version.entry.lastUpdated);
        expect(answer.meta.TotalResults).toBe(listedCount(text));
        expect(sorted(apply(recordsOf(version.body), text))).toEqual(
          sorted(recordsOf(newest.body)),
        );
        // Strong ETag: the SHA-256 of exactly the bytes sent.
        const sha = createHash("sha256").update(response.body).digest("hex");
        expect(response.headers.etag).toBe(`"${sha}"`);
      }
      expect(bodies.size).toBe(1);
      if (age === 0) expect(at(parseJson([...bodies][0]!), "/data")).toEqual([]);
    },
  );

  it("lists a removed ATM's Identification, an ATM changed whole, and a brand gone with all its ATMs", async () => {
    const since = published[4]!.entry.lastUpdated;
    const answer = JSON.parse(
      (await get(`/x-std/v2.2/atms/changes?since=${since}`)).body.toString("utf8"),
    ) as {
      data: {
        Brand: { BrandName: string; ATM?: { Identification: string }[]; Removed?: string[] }[];
      }[];
    };
    const brands = new Map(answer.data[0]!.Brand.map((b) => [b.BrandName, b]));
    expect(brands.get("Ashgrove Savings")).toEqual({
      BrandName: "Ashgrove Savings",
      Removed: ["A-1", "A-2"],
    });
    expect(brands.get("Kestrel Bank")!.ATM!.map((a) => a.Identification)).toEqual(["K-1"]);
    const fern = brands.get("Fernbrook Bank")!;
    // F-2 changed in the second version, F-1 and F-4 in the last; F-6 came and went in between.
    expect(fern.ATM!.map((a) => a.Identification).sort()).toEqual(["F-1", "F-2", "F-4", "F-7"]);
    expect(fern.Removed!.sort()).toEqual(["F-3"]);
    expect(fern.ATM!.find((a) => a.Identification === "F-100")).toBeUndefined();
  });

  it("answers under /x-open-banking/v2.2/ with the same bytes as prs.openbanking", async () => {
    const since = published[2]!.entry.lastUpdated;
    const std = await get(`/x-std/v2.2/atms/changes?since=${since}`);
    const live = await get(`/x-open-banking/v2.2/atms/changes?since=${since}`);
    expect(live.status).toBe(200);
    expect(live.headers["content-type"]).toBe(OB22);
    expect(live.headers.etag).toBe(std.headers.etag);
    expect(live.body.equals(std.body)).toBe(true);
  });
});

describe("a changes answer behaves as the data do", () => {
  const path = () => `/x-std/v2.2/atms/changes?since=${published[3]!.entry.lastUpdated}`;

  it("carries the data's headers: ETag, Last-Modified, Vary, security, CORS, quota, and a minute's Cache-Control", async () => {
    const response = await get(path());
    const data = worker.manifest.datasets.find((d) => d.dataset === "atms")!;
    expect(response.headers["last-modified"]).toBe(data.lastModified);
    // Not the data set's: an answer since a version changes with every publication.
    expect(response.headers["cache-control"]).toBe("max-age=60");
    expect(response.headers.vary).toBe("Accept-Encoding");
    expect(response.headers["strict-transport-security"]).toBe("max-age=31536000");
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["ratelimit-policy"]).toBe('"open-data";q=145;w=60');
    expect(response.headers.ratelimit).toMatch(/^"open-data";r=144;t=\d+$/);
  });

  it("answers 304 to its ETag with no body, and 200 to another", async () => {
    const first = await get(path());
    const again = await get(path(), { "If-None-Match": first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    const weak = await get(path(), { "If-None-Match": `W/${first.headers.etag}` });
    expect(weak.status).toBe(304);
    const other = await get(path(), { "If-None-Match": `"${"0".repeat(64)}"` });
    expect(other.status).toBe(200);
  });

  it("answers HEAD with GET's fields and length, and no body", async () => {
    const getResponse = await get(path());
    const head = await get(path(), {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(getResponse.body.length));
    expect(head.headers.etag).toBe(getResponse.headers.etag);
    expect(head.headers["content-type"]).toBe(V22);
  });

  it("sends stored brotli and gzip, each with its own ETag, that decode to the same answer", async () => {
    const plain = await get(path());
    const br = await get(path(), { "Accept-Encoding": "br" });
    const gz = await get(path(), { "Accept-Encoding": "gzip" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
    // docs/decisions.md, "Compressed variants and ETags": the identity answer's ETag is its
    // SHA-256; brotli's, the SHA-256 of that, the coding, the quality (this worker's build
    // compresses at the preview's, brotli 3) and the library's version.
    const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
    const identityHex = sha256(plain.body);
    expect(plain.headers.etag).toBe(`"${identityHex}"`);
    expect(br.headers.etag).toBe(`"${sha256(`${identityHex} br 3 ${process.versions.brotli}`)}"`);
    const revalidated = await get(path(), {
      "Accept-Encoding": "br",
      "If-None-Match": br.headers.etag!,
    });
    expect(revalidated.status).toBe(304);
  });
});

describe("a changes request that cannot be answered", () => {
  const expectError = (
    response: RawResponse,
    status: number,
    title: string,
    description: string,
  ) => {
    expect(response.status).toBe(status);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["status-code"]).toBe(String(status));
    expect(JSON.parse(response.body.toString("utf8"))).toEqual({
      status: String(status),
      title,
      description,
    });
  };
  const BAD = ["Bad request", "You have sent a request which could not be understood."] as const;

  it.each([
    ["no since", "", "since"],
    ["a since that is no token", "?since=yesterday", "since"],
    ["a LastUpdated with milliseconds", "?since=2026-09-21T14:13:20.000Z", "since"],
    ["a LastUpdated with +00:00", "?since=2026-09-21T14:13:20%2B00:00", "since"],
    ["a quoted ETag", `?since=%22${"a".repeat(64)}%22`, "since"],
    ["since twice", `?since=${"a".repeat(64)}&since=${"a".repeat(64)}`, "since"],
    ["another parameter", `?since=${"a".repeat(64)}&page=2`, "page"],
  ])(
    "answers 400 with the spec's body to %s, and names %s in Invalid-Parameter",
    async (_, query, parameter) => {
      const response = await get(`/x-std/v2.2/atms/changes${query}`);
      expectError(response, 400, ...BAD);
      expect(response.headers["invalid-parameter"]).toMatch(
        new RegExp(`^"${parameter}";expected="[^"]+"$`),
      );
      // A script on another origin can read it.
      expect(response.headers["access-control-expose-headers"]).toContain("Invalid-Parameter");
    },
  );

  it.each([
    ["a LastUpdated older than every version", "2020-01-01T00:00:00Z"],
    ["a LastUpdated between two versions", "2026-09-21T14:43:20Z"],
    ["an ETag never published", "f".repeat(64)],
  ])("answers 410 in the spec's shape to %s, saying to fetch the full list", async (_, since) => {
    const response = await get(`/x-std/v2.2/atms/changes?since=${since}`);
    const body = JSON.parse(response.body.toString("utf8")) as { description: string };
    expectError(response, 410, "Gone", body.description);
    expect(body.description).toMatch(/full list/);
    // Counted like any answer about the data: it carries the quota fields.
    expect(response.headers["ratelimit-policy"]).toBe('"open-data";q=145;w=60');
  });

  it.each([
    "/x-std/v2.2/service-metrics-pca/changes?since=2026-09-21T14:13:20Z",
    "/x-std/v2.2/atms/changes/?since=2026-09-21T14:13:20Z",
    "/x-std/v2.2/ATMS/changes?since=2026-09-21T14:13:20Z",
    "/std/v2.2/atms/changes?since=2026-09-21T14:13:20Z",
  ])("answers 404 on %s", async (path) => {
    expect((await get(path)).status).toBe(404);
  });

  it("answers 405 with Allow to a POST, before looking at the query", async () => {
    const response = await get("/x-std/v2.2/atms/changes?since=nonsense", {}, "POST");
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe("GET, HEAD");
  });
});

describe("the publication feed", () => {
  let feed: RawResponse;
  let doc: Document;
  beforeAll(async () => {
    feed = await get("/x-std/changes.atom");
    const errors: string[] = [];
    doc = new DOMParser({
      onError: (level, message) => errors.push(`${level}: ${message}`),
    }).parseFromString(feed.body.toString("utf8"), "application/xml");
    expect(errors).toEqual([]);
  });
  const atom = (parent: Element | Document, name: string) =>
    Array.from(parent.getElementsByTagNameNS(ATOM, name));
  const text = (parent: Element, name: string) => atom(parent, name)[0]?.textContent ?? "";

  it("is served as an Atom document, like the other documents", async () => {
    expect(feed.status).toBe(200);
    expect(feed.headers["content-type"]).toBe("application/atom+xml");
    expect(feed.headers.ratelimit).toBeUndefined();
    const again = await get("/x-std/changes.atom", { "If-None-Match": feed.headers.etag! });
    expect(again.status).toBe(304);
  });

  it("is an Atom 1.0 feed: the feed element in Atom's namespace with its id, title, updated and author", () => {
    const root = doc.documentElement!;
    expect(root.namespaceURI).toBe(ATOM);
    expect(root.localName).toBe("feed");
    expect(text(root, "id")).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(text(root, "title")).not.toBe("");
    expect(text(root, "updated")).toBe(published[0]!.entry.lastUpdated);
    expect(atom(root, "author").length).toBeGreaterThan(0);
  });

  it("has an entry per publication of a data set, newest first, each with an id, an updated and a link", () => {
    const entries = atom(doc, "entry");
    // Every version of every data set with records: five ATM versions (the comment-only commit
    // is none) and the branch versions, each against the one before (the first against
    // nothing), and the empty product data sets' one version (the first commit).
    const byDataset = (id: string) =>
      entries.filter((e) => atom(e, "category")[0]!.getAttribute("term") === id);
    expect(byDataset("atms")).toHaveLength(5);
    expect(byDataset("business-current-accounts")).toHaveLength(1);
    const updated = entries.map((e) => text(e, "updated"));
    expect([...updated].sort().reverse()).toEqual(updated);
    const ids = entries.map((e) => text(e, "id"));
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of entries) expect(atom(e, "link")[0]!.getAttribute("href")).toMatch(/^\//);
  });

  it("gives each ATM publication's counts against the one before, and links the changes since it", () => {
    const entries = atom(doc, "entry").filter(
      (e) => atom(e, "category")[0]!.getAttribute("term") === "atms",
    );
    const titles = entries.map((e) => text(e, "title"));
    expect(titles).toEqual([
      "ATMs: 1 added, 2 changed, 1 removed",
      "ATMs: 1 added, 2 removed",
      "ATMs: 1 removed",
      "ATMs: 1 added, 1 changed",
      "ATMs: first publication, 27 records",
    ]);
    expect(text(entries[0]!, "summary")).toContain("F-7 (Wexbury)");
    expect(text(entries[1]!, "summary")).toContain("A-1 (Pellingford)");
    expect(atom(entries[0]!, "link")[0]!.getAttribute("href")).toBe(
      `/x-std/v2.2/atms/changes?since=${published[1]!.entry.lastUpdated}`,
    );
  });

  it("is linked from the landing page's head and body", async () => {
    const page = (await get("/")).body.toString("utf8");
    const head = page.slice(0, page.indexOf("</head>"));
    expect(head).toContain(
      '<link rel="alternate" type="application/atom+xml" title="Changes to the published data" href="/x-std/changes.atom">',
    );
    expect(page.slice(page.indexOf("<body>"))).toContain('href="/x-std/changes.atom"');
    expect((page.match(/<li data-dataset=/g) ?? []).length).toBe(5);
  });
});
