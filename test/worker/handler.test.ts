import { beforeAll, describe, expect, it } from "vitest";
import type { ManifestEntry } from "../../contract/manifest.js";
import { handle } from "../../worker/handler.js";
import { newOutcome, type Outcome } from "../../worker/outcome.js";
import {
  DECIDED,
  EVERY_RESPONSE_HEADERS,
  SPEC_CACHE_CONTROL,
  SPEC_PATHS,
} from "../helpers/spec-values.js";
import { expectError } from "./support/assertions.js";
import { makeFixture, makeWorker, ORIGIN, START_MS, type Fixture } from "./support/fixture.js";
import { makeNearFixture } from "./support/near-fixture.js";

let fixture: Fixture;
let entries: readonly ManifestEntry[];
beforeAll(async () => {
  fixture = await makeFixture();
  entries = fixture.manifest.datasets;
});

const bytes = async (response: Response) => new Uint8Array(await response.arrayBuffer());

describe("GET on a data path", () => {
  it("serves each data set with the exact stored bytes and the spec's headers", async () => {
    const worker = makeWorker(fixture);
    for (const entry of entries) {
      const response = await worker.fetch(entry.path);
      expect(response.status).toBe(200);
      expect(await bytes(response)).toEqual(fixture.files.get(entry.variants.identity.asset));
      const h = response.headers;
      expect(h.get("Content-Type")).toBe(entry.mediaType);
      expect(h.get("Content-Length")).toBe(String(entry.variants.identity.length));
      expect(h.get("ETag")).toBe(entry.variants.identity.etag);
      expect(h.get("Last-Modified")).toBe(entry.lastModified);
      expect(h.get("Cache-Control")).toBe(SPEC_CACHE_CONTROL);
      expect(h.get("Vary")).toBe(DECIDED.vary);
      expect(h.get("Content-Encoding")).toBeNull();
      expect(h.get(DECIDED.statusCodeHeader)).toBeNull();
      for (const [name, value] of EVERY_RESPONSE_HEADERS) expect(h.get(name)).toBe(value);
      expect(h.get(DECIDED.rateLimitPolicyHeader)).not.toBeNull();
      expect(h.get(DECIDED.rateLimitHeader)).not.toBeNull();
    }
  });

  it.each(["br", "gzip"] as const)(
    "sends the stored %s variant with Content-Encoding and that variant's own ETag",
    async (coding) => {
      const worker = makeWorker(fixture);
      const entry = entries[0]!;
      const variant = entry.variants[coding]!;
      const response = await worker.fetch(entry.path, { headers: { "Accept-Encoding": coding } });
      expect(response.headers.get("Content-Encoding")).toBe(coding);
      expect(response.headers.get("ETag")).toBe(variant.etag);
      expect(response.headers.get("Content-Length")).toBe(String(variant.length));
      expect(await bytes(response)).toEqual(fixture.files.get(variant.asset));
    },
  );

  it("negotiates on request.cf.clientAcceptEncoding rather than the front line's header", async () => {
    const worker = makeWorker(fixture);
    const entry = entries[0]!;
    const request = new Request(ORIGIN + entry.path, {
      headers: { "Accept-Encoding": "br, gzip" },
      cf: { clientAcceptEncoding: "" },
    });
    const response = await handle(request, worker.deps);
    expect(response.headers.get("Content-Encoding")).toBeNull();
    expect(response.headers.get("ETag")).toBe(entry.variants.identity.etag);
  });

  it("answers the same whatever the query string says", async () => {
    const worker = makeWorker(fixture);
    const entry = entries[1]!;
    const plain = await worker.fetch(entry.path);
    const queried = await worker.fetch(`${entry.path}?page=2&format=xml&${"x".repeat(500)}=1`);
    expect(queried.status).toBe(200);
    expect(await bytes(queried)).toEqual(await bytes(plain));
    expect(queried.headers.get("ETag")).toBe(plain.headers.get("ETag"));
  });

  it("asks ASSETS for the variant's file with no conditional or encoding headers", async () => {
    const worker = makeWorker(fixture);
    const entry = entries[2]!;
    await worker.fetch(entry.path, {
      headers: {
        "If-None-Match": `"something else"`,
        "If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT",
        "Accept-Encoding": "gzip",
      },
    });
    expect(worker.assets.requests).toHaveLength(1);
    const asked = worker.assets.requests[0]!;
    expect(new URL(asked.url).pathname).toBe(entry.variants.gzip!.asset);
    expect([...asked.headers.keys()]).toEqual([]);
  });
});

describe("Date (RFC 9110 section 6.6.1)", () => {
  it("is on every answer, 2xx to 5xx, an IMF-fixdate of the clock's time", async () => {
    const worker = makeWorker(fixture);
    const entry = entries[0]!;
    const answers = [
      await worker.fetch(entry.path),
      await worker.fetch(entry.path, {
        headers: { "If-None-Match": entry.variants.identity.etag },
      }),
      await worker.fetch(entry.path, { method: "OPTIONS" }),
      await worker.fetch("http://example.com/std/v2.2/branches"),
      await worker.fetch("/nothing"),
      await worker.fetch(entry.path, { method: "POST" }),
    ];
    // START_MS is 2026-11-21T12:00:10Z; this one comes 1.5 s later, under maintenance.
    const later = makeWorker(fixture, { vars: { MAINTENANCE: "on" }, startMs: START_MS + 1_500 });
    answers.push(await later.fetch(entry.path));
    expect(answers.map((r) => r.status)).toEqual([200, 304, 204, 308, 404, 405, 503]);
    expect(answers.map((r) => r.headers.get("Date"))).toEqual([
      ...Array<string>(6).fill("Sat, 21 Nov 2026 12:00:10 GMT"),
      "Sat, 21 Nov 2026 12:00:11 GMT",
    ]);
  });
});

describe("Last-Modified never after Date (RFC 9110 section 8.8.2.1)", () => {
  it("is the clock's time while the content's date is ahead, then the content's", async () => {
    const entry = entries[0]!;
    const contentMs = entry.lastModifiedMs;
    // A clock 90 s behind the content's date (a commit made on a clock that ran fast).
    const behind = makeWorker(fixture, { startMs: contentMs - 90_000 });
    const early = await behind.fetch(entry.path);
    expect(early.status).toBe(200);
    expect(early.headers.get("Last-Modified")).toBe(early.headers.get("Date"));
    expect(Date.parse(early.headers.get("Last-Modified")!)).toBe(contentMs - 90_000);
    // No 304 for that date: the content is later than what the client was told.
    const again = await behind.fetch(entry.path, {
      headers: { "If-Modified-Since": early.headers.get("Last-Modified")! },
    });
    expect(again.status).toBe(200);
    const caughtUp = makeWorker(fixture, { startMs: contentMs + 1_000 });
    expect((await caughtUp.fetch(entry.path)).headers.get("Last-Modified")).toBe(
      entry.lastModified,
    );
  });
});

describe("HEAD on a data path", () => {
  it("has the same status and headers as GET, Content-Length included, and no body", async () => {
    for (const acceptEncoding of ["", "br", "gzip"]) {
      // Separate isolates so the quota fields are equal too.
      const get = await makeWorker(fixture).fetch(entries[0]!.path, {
        headers: { "Accept-Encoding": acceptEncoding },
      });
      const head = await makeWorker(fixture).fetch(entries[0]!.path, {
        method: "HEAD",
        headers: { "Accept-Encoding": acceptEncoding },
      });
      expect(head.status).toBe(get.status);
      expect([...head.headers]).toEqual([...get.headers]);
      expect(head.body).toBeNull();
    }
  });

  it("is answered from the manifest without reading the asset", async () => {
    const worker = makeWorker(fixture);
    const response = await worker.fetch(entries[3]!.path, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(worker.assets.requests).toHaveLength(0);
  });
});

describe("conditional requests", () => {
  const cases: [string, (entry: ManifestEntry) => Record<string, string>][] = [
    [
      "If-None-Match lists the current strong ETag",
      (e) => ({ "If-None-Match": e.variants.identity.etag }),
    ],
    [
      "If-None-Match lists the weak form of the current ETag",
      (e) => ({ "If-None-Match": `W/${e.variants.identity.etag}` }),
    ],
    [
      "If-None-Match is a list holding the current ETag",
      (e) => ({ "If-None-Match": `"old", ${e.variants.identity.etag}` }),
    ],
    ["If-None-Match is *", () => ({ "If-None-Match": "*" })],
    ["If-Modified-Since equals Last-Modified", (e) => ({ "If-Modified-Since": e.lastModified })],
  ];

  it.each(cases)("returns 304 with validators and no body when %s", async (_name, headers) => {
    const worker = makeWorker(fixture);
    const entry = entries[0]!;
    for (const method of ["GET", "HEAD"]) {
      const response = await worker.fetch(entry.path, { method, headers: headers(entry) });
      expect(response.status).toBe(304);
      expect(response.body).toBeNull();
      const h = response.headers;
      expect(h.get("ETag")).toBe(entry.variants.identity.etag);
      expect(h.get("Last-Modified")).toBe(entry.lastModified);
      expect(h.get("Cache-Control")).toBe(SPEC_CACHE_CONTROL);
      expect(h.get("Vary")).toBe(DECIDED.vary);
      for (const [name, value] of EVERY_RESPONSE_HEADERS) expect(h.get(name)).toBe(value);
      // RFC 9110 section 15.4.5: no representation metadata but what guides a cache's update
      // (Last-Modified): no type, coding or length of content a 304 does not carry.
      expect(h.get("Content-Type")).toBeNull();
      expect(h.get("Content-Encoding")).toBeNull();
      expect(h.get("Content-Length")).toBeNull();
      expect(h.get(DECIDED.rateLimitHeader)).not.toBeNull();
    }
    expect(worker.assets.requests).toHaveLength(0);
  });

  it("compares If-None-Match with the ETag of the variant this request would get", async () => {
    const worker = makeWorker(fixture);
    const entry = entries[0]!;
    const identityTag = entry.variants.identity.etag;
    const asBr = await worker.fetch(entry.path, {
      headers: { "If-None-Match": identityTag, "Accept-Encoding": "br" },
    });
    expect(asBr.status).toBe(200);
    expect(asBr.headers.get("ETag")).toBe(entry.variants.br!.etag);
    const asBrAgain = await worker.fetch(entry.path, {
      headers: { "If-None-Match": entry.variants.br!.etag, "Accept-Encoding": "br" },
    });
    expect(asBrAgain.status).toBe(304);
  });

  it("returns 200 when If-Modified-Since is invalid or earlier than Last-Modified", async () => {
    const worker = makeWorker(fixture);
    for (const value of ["not a date", "Thu, 19 Nov 2026 10:00:00 GMT"]) {
      const response = await worker.fetch(entries[0]!.path, {
        headers: { "If-Modified-Since": value },
      });
      expect(response.status).toBe(200);
    }
  });

  it("evaluates preconditions only where the answer would be 200", async () => {
    const worker = makeWorker(fixture);
    const response = await worker.fetch(entries[0]!.path, {
      method: "POST",
      headers: { "If-None-Match": "*" },
    });
    await expectError(response, 405);
  });
});

describe("paths other than the data paths", () => {
  it.each([
    ["the root", "/"],
    ["a version folder", "/std/v2.2"],
    ["a version folder with a slash", "/std/v2.2/"],
    ["a data path with a trailing slash", "/std/v2.2/branches/"],
    ["a data path in upper case", "/STD/V2.2/BRANCHES"],
    ["a data path in mixed case", "/std/v2.2/Branches"],
    ["the dist file name", "/std/v2.2/branches.json"],
    ["a precompressed dist file", "/std/v2.2/branches.json.br"],
    ["the manifest", "/manifest.json"],
    ["a doubled slash", "/std//v2.2/branches"],
    ["a leading doubled slash", "//std/v2.2/branches"],
    ["an encoded slash", "/std/v2.2%2Fbranches"],
    ["an encoded dot inside a segment", "/std/v2%2E2/branches"],
    ["encoded dot segments climbing to the manifest", "/std/v2.2/%2e%2e/%2e%2e/manifest.json"],
    ["an encoded letter", "/std/v2.2/%62ranches"],
    ["a path of another API version", "/std/v2.1/branches"],
  ])("returns 404 with the error body for %s", async (_name, path) => {
    const worker = makeWorker(fixture);
    await expectError(await worker.fetch(path), 404);
    expect(worker.assets.requests).toHaveLength(0);
  });

  it("returns 404 on an unknown path whatever the method", async () => {
    const worker = makeWorker(fixture);
    for (const method of ["POST", "DELETE", "OPTIONS", "HEAD"]) {
      const response = await worker.fetch("/nothing/here", { method });
      expect(response.status).toBe(404);
    }
  });

  it("returns 400 for a path with a malformed percent-encoding", async () => {
    const worker = makeWorker(fixture);
    await expectError(await worker.fetch("/std/v2.2/%zz"), 400);
  });
});

describe("methods", () => {
  it.each(["POST", "PUT", "DELETE", "PATCH", "TRACE", "PROPFIND", "QUERY"])(
    "returns 405 with Allow: GET, HEAD for %s on a data path",
    async (method) => {
      const worker = makeWorker(fixture);
      const response = await worker.fetch(entries[0]!.path, { method });
      await expectError(response, 405);
      expect(response.headers.get("Allow")).toBe(DECIDED.allow);
    },
  );

  it("answers a CORS preflight for a conditional GET with 204 and the allowed methods and headers", async () => {
    const worker = makeWorker(fixture);
    const response = await worker.fetch(entries[0]!.path, {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match",
      },
    });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    for (const [name, value] of [...EVERY_RESPONSE_HEADERS, ...Object.entries(DECIDED.preflight)]) {
      expect(response.headers.get(name)).toBe(value);
    }
    expect(response.headers.get(DECIDED.rateLimitHeader)).toBeNull();
  });
});

describe("plain http", () => {
  it.each(["GET", "HEAD", "POST"])(
    "redirects %s with 308 to the same path and query over https",
    async (method) => {
      const worker = makeWorker(fixture);
      const response = await worker.fetch("http://opendata.example/std/v2.2/atms?x=1", { method });
      expect(response.status).toBe(308);
      expect(response.headers.get("Location")).toBe("https://opendata.example/std/v2.2/atms?x=1");
      for (const [name, value] of EVERY_RESPONSE_HEADERS)
        expect(response.headers.get(name)).toBe(value);
    },
  );

  it.each(["127.0.0.1:8787", "localhost:8787", "[::1]:8787"])(
    "serves http on the loopback host %s",
    async (host) => {
      const worker = makeWorker(fixture);
      const response = await worker.fetch(`http://${host}${entries[0]!.path}`);
      expect(response.status).toBe(200);
    },
  );
});

describe("failures", () => {
  it("returns the spec's 503 with Retry-After when the assets binding throws", async () => {
    const worker = makeWorker(fixture);
    worker.assets.failure = "throw";
    const response = await worker.fetch(entries[0]!.path);
    await expectError(response, 503);
    expect(response.headers.get("Retry-After")).toBe(String(DECIDED.assetsRetryAfterSeconds));
  });

  it.each(["missing", "wrong-length"] as const)(
    "returns the spec's 500 when the asset is %s, as the deployment disagrees with its manifest",
    async (failure) => {
      const worker = makeWorker(fixture);
      worker.assets.failure = failure;
      await expectError(await worker.fetch(entries[0]!.path), 500);
    },
  );

  it("returns the spec's 500, and no stack trace, on an unexpected exception", async () => {
    const worker = makeWorker(fixture);
    const routes = new Map(worker.deps.routes);
    routes.get = () => {
      throw new Error("boom at handler.ts:42");
    };
    const response = await handle(new Request(ORIGIN + entries[0]!.path), {
      ...worker.deps,
      routes,
    });
    await expectError(response, 500);
    expect(worker.logs).toHaveLength(1);
  });
});

describe("the outcome of a request, for metrics", () => {
  let every: Fixture;
  beforeAll(async () => {
    const near = await makeNearFixture();
    const page = new TextEncoder().encode("<!doctype html><title>page</title>");
    const files = new Map(near.files);
    files.set("/index.html", page);
    const document = {
      path: "/",
      mediaType: "text/html; charset=utf-8",
      lastModified: "Fri, 20 Nov 2026 10:00:00 GMT",
      lastModifiedMs: Date.parse("Fri, 20 Nov 2026 10:00:00 GMT"),
      variants: { identity: { asset: "/index.html", etag: '"page"', length: page.length } },
    };
    every = { manifest: { ...near.manifest, documents: [document] }, files };
  });

  const branches = { kind: "dataset", name: "branches", detail: "" } as const;
  const unknown = { kind: "unknown", name: null, detail: "" } as const;
  const geo = "/x-std/v2.2/atms/geo-location/lat/54.1/long/-1.7";
  it.each<
    [
      string,
      string,
      RequestInit & { limitOne?: true; failure?: "throw" | "missing" },
      Omit<Outcome, "bytes" | "fullBytes" | "identityBytes" | "site">,
    ]
  >([
    [
      "a data set's 200",
      SPEC_PATHS.branches,
      {},
      { asked: branches, plan: "open-data", status: 200, coding: "identity" },
    ],
    [
      "a data set's 200 in brotli",
      SPEC_PATHS.branches,
      { headers: { "Accept-Encoding": "br" } },
      { asked: branches, plan: "open-data", status: 200, coding: "br" },
    ],
    [
      "a data set's HEAD",
      SPEC_PATHS.branches,
      { method: "HEAD", headers: { "Accept-Encoding": "gzip" } },
      { asked: branches, plan: "open-data", status: 200, coding: "gzip" },
    ],
    [
      "a data set's 304",
      SPEC_PATHS.branches,
      { headers: { "If-None-Match": "*" } },
      { asked: branches, plan: "open-data", status: 304, coding: "identity" },
    ],
    [
      "a data set's 405",
      SPEC_PATHS.branches,
      { method: "POST" },
      { asked: branches, plan: "open-data", status: 405, coding: null },
    ],
    [
      "a data set's 429",
      SPEC_PATHS.branches,
      { limitOne: true },
      { asked: branches, plan: "open-data", status: 429, coding: null },
    ],
    [
      "a data set's 503 when the assets binding fails",
      SPEC_PATHS.branches,
      { failure: "throw" },
      { asked: branches, plan: "open-data", status: 503, coding: null },
    ],
    [
      "a data set's 500 when its file is missing",
      SPEC_PATHS.branches,
      { failure: "missing" },
      { asked: branches, plan: "open-data", status: 500, coding: null },
    ],
    [
      "a document's 200, counted under no plan",
      "/",
      {},
      {
        asked: { kind: "document", name: "/", detail: "" },
        plan: null,
        status: 200,
        coding: "identity",
      },
    ],
    [
      "a near-me slice's 200",
      geo,
      {},
      {
        asked: { kind: "near", name: "atms", detail: "geo-location" },
        plan: "open-data",
        status: 200,
        coding: "identity",
      },
    ],
    [
      "a near-me slice's 400",
      "/x-std/v2.2/atms/geo-location/lat/91/long/0",
      {},
      {
        asked: { kind: "near", name: "atms", detail: "geo-location" },
        plan: "open-data",
        status: 400,
        coding: null,
      },
    ],
    [
      "a near-me postcode nothing places (404)",
      "/x-std/v2.2/atms/postcode/ZZ99ZZ",
      {},
      {
        asked: { kind: "near", name: "atms", detail: "postcode" },
        plan: "open-data",
        status: 404,
        coding: null,
      },
    ],
    [
      "an unknown path",
      "/nothing/here",
      {},
      { asked: unknown, plan: null, status: 404, coding: null },
    ],
    [
      "a plain-http request, redirected before routing",
      `http://opendata.example${SPEC_PATHS.branches}`,
      {},
      { asked: unknown, plan: null, status: 308, coding: null },
    ],
  ])("records %s", async (_name, path, init, expected) => {
    const vars = init.limitOne ? { OPEN_DATA_LIMIT_PER_MINUTE: "1" } : {};
    const worker = makeWorker(every, { vars });
    if (init.limitOne) await (await worker.fetch(SPEC_PATHS.atms)).body?.cancel();
    if (init.failure) worker.assets.failure = init.failure;
    const outcome = newOutcome();
    const response = await handle(new Request(new URL(path, ORIGIN), init), worker.deps, outcome);
    const sent = (await response.arrayBuffer()).byteLength;
    // The lengths a 304 and compression save: the variant the coding names, and the identity
    // body, as the fixture stores them (a made body's is the body sent).
    const stored = (coding: string) =>
      every.files.get(
        every.manifest.datasets.find((d) => d.dataset === expected.asked.name)?.variants[
          coding as "identity"
        ]?.asset ?? "/index.html",
      )?.length ?? 0;
    const made = expected.asked.kind === "near" && expected.status === 200;
    const lengths =
      expected.coding === null
        ? { fullBytes: 0, identityBytes: 0 }
        : made
          ? { fullBytes: sent, identityBytes: sent }
          : { fullBytes: stored(expected.coding), identityBytes: stored("identity") };
    // The bytes recorded are the body's, as the client reads it (none for HEAD).
    expect(outcome).toEqual({
      ...expected,
      ...lengths,
      site: "",
      bytes: init.method === "HEAD" ? 0 : sent,
    });
    if (expected.coding !== null) expect(outcome.fullBytes).toBeGreaterThan(0);
    expect(sent > 0).toBe(init.method !== "HEAD" && ![204, 304, 308].includes(expected.status));
  });

  it("records the 500 of an unexpected exception", async () => {
    const worker = makeWorker(every);
    const routes = new Map(worker.deps.routes);
    routes.get = () => {
      throw new Error("boom");
    };
    const outcome = newOutcome();
    const response = await handle(
      new Request(ORIGIN + SPEC_PATHS.branches),
      { ...worker.deps, routes },
      outcome,
    );
    expect(outcome).toEqual({
      asked: unknown,
      plan: null,
      status: 500,
      coding: null,
      bytes: (await response.arrayBuffer()).byteLength,
      fullBytes: 0,
      identityBytes: 0,
      site: "",
    });
  });
});
