/**
 * Every endpoint's responses against the specs' literal values (test/helpers/spec-values.ts, never
 * worker/'s constants), so a wrong constant in the Worker fails this file (open-data-api-v2.2.md and service-metrics-api-v1.0.md, "GET 200 response headers"
 * and "Errors"; RFC 9110 sections 15.4.5 and 9.3.2 for 304 and HEAD).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { handle } from "../../../worker/handler.js";
import {
  LIVE_STANDARD_PATHS,
  specErrorBody,
  specMediaType,
  SPEC_CACHE_CONTROL,
  SPEC_PATHS,
  SPEC_SECURITY_HEADERS,
} from "../../helpers/spec-values.js";
import { makeFixture, makeWorker, ORIGIN, type Fixture } from "../support/fixture.js";
import { makeNearFixture } from "../support/near-fixture.js";

let fixture: Fixture;
let paths: string[];
beforeAll(async () => {
  fixture = await makeFixture();
  paths = fixture.manifest.datasets.map((entry) => entry.path);
});

function expectSecurityHeaders(response: Response): void {
  for (const [name, value] of SPEC_SECURITY_HEADERS) expect(response.headers.get(name)).toBe(value);
}

describe("every endpoint, against the specs' literal header values", () => {
  it("has a media type from the spec for every path served", () => {
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(() => specMediaType(path)).not.toThrow();
  });

  describe("GET 200", () => {
    it("sends the spec's media type, Cache-Control and security headers", async () => {
      const worker = makeWorker(fixture);
      for (const path of paths) {
        const response = await worker.fetch(path);
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Type")).toBe(specMediaType(path));
        expect(response.headers.get("Cache-Control")).toBe(SPEC_CACHE_CONTROL);
        expectSecurityHeaders(response);
      }
    });
  });

  describe("HEAD 200", () => {
    it("sends the same media type, Cache-Control and security headers as GET, and no body", async () => {
      const worker = makeWorker(fixture);
      for (const path of paths) {
        const response = await worker.fetch(path, { method: "HEAD" });
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Type")).toBe(specMediaType(path));
        expect(response.headers.get("Cache-Control")).toBe(SPEC_CACHE_CONTROL);
        expectSecurityHeaders(response);
        expect(await response.text()).toBe("");
      }
    });
  });

  describe("304", () => {
    it("repeats Cache-Control and the security headers the 200 would have sent", async () => {
      const worker = makeWorker(fixture);
      for (const path of paths) {
        const etag = (await worker.fetch(path, { method: "HEAD" })).headers.get("ETag")!;
        const response = await worker.fetch(path, { headers: { "If-None-Match": etag } });
        expect(response.status).toBe(304);
        expect(response.headers.get("Cache-Control")).toBe(SPEC_CACHE_CONTROL);
        expectSecurityHeaders(response);
      }
    });

    it("carries the fields RFC 9110 section 15.4.5 lists and no Content-Type, Content-Encoding or Content-Length, in every coding", async () => {
      const worker = makeWorker(fixture);
      const everyPath = [...paths, ...fixture.manifest.documents.map((d) => d.path)];
      for (const path of everyPath) {
        for (const acceptEncoding of ["br", "gzip", "identity", "gzip, br"]) {
          const ok = await worker.fetch(path, { headers: { "Accept-Encoding": acceptEncoding } });
          await ok.body?.cancel();
          const response = await worker.fetch(path, {
            headers: {
              "Accept-Encoding": acceptEncoding,
              "If-None-Match": ok.headers.get("ETag")!,
            },
          });
          const where = `${path}, Accept-Encoding ${acceptEncoding}`;
          expect(response.status, where).toBe(304);
          const h = response.headers;
          // What section 15.4.5 says a 304 MUST carry when its 200 would, and Last-Modified, which
          // guides a cache's update (RFC 9111 section 4.3.4): the 200's values.
          for (const name of ["ETag", "Date", "Vary", "Cache-Control", "Last-Modified"]) {
            expect(h.get(name), `${where}: ${name}`).toBe(ok.headers.get(name) ?? "absent");
          }
          // Representation metadata of content a 304 does not carry: none.
          expect(h.get("Content-Type"), where).toBeNull();
          expect(h.get("Content-Encoding"), where).toBeNull();
          expect(h.get("Content-Length"), where).toBeNull();
        }
      }
    });
  });

  describe("errors", () => {
    async function expectSpecError(response: Response, status: number): Promise<void> {
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual(specErrorBody(status));
      expectSecurityHeaders(response);
    }

    it("429 on every path has the spec's body and security headers", async () => {
      for (const path of paths) {
        const worker = makeWorker(fixture, {
          vars: { OPEN_DATA_LIMIT_PER_MINUTE: "1", SERVICE_METRICS_LIMIT_PER_MINUTE: "1" },
        });
        expect((await worker.fetch(path)).status).toBe(200);
        await expectSpecError(await worker.fetch(path), 429);
      }
    });

    it("503 on every path has the spec's body and security headers", async () => {
      const worker = makeWorker(fixture, { vars: { MAINTENANCE: "on" } });
      for (const path of paths) await expectSpecError(await worker.fetch(path), 503);
    });
  });
});

/**
 * The one order of precedence (RFC 9110 section 13.2.1 for where preconditions come): each row
 * turns on everything that comes after the check it shows, so the check answers only if it comes
 * first. Every body source answers the same table; a document is counted under no plan, so
 * maintenance and quota never apply to it.
 */
describe("one order of precedence for every representation, whatever its body source", () => {
  // Branches: the fixture's atms body is the near-me data set's, not what its entry describes.
  const BRANCHES_ALIAS = LIVE_STANDARD_PATHS.branches![0]!;
  const OPENAPI = new TextEncoder().encode('{"openapi":"3.1.0"}');
  const NEAR = "/x-std/v2.2/atms/geo-location/lat/54.1/long/-1.7";
  const kinds = [
    { name: "a data set (stored variants)", path: SPEC_PATHS.branches, counted: true },
    { name: "an alias (the same stored variants)", path: BRANCHES_ALIAS[0], counted: true },
    { name: "a document (a stored variant, no plan)", path: "/openapi.json", counted: false },
    {
      name: "a near-me slice (bytes made per request)",
      path: NEAR,
      badPath: "/x-std/v2.2/atms/geo-location/lat/91/long/-1.7",
      counted: true,
    },
  ];
  // What each row turns on, and what it is answered when counted under a plan, and when not.
  const rows: [
    check: string,
    method: string,
    on: { bad?: true; maintenance?: true; spent?: true; failed?: true; current?: true },
    counted: number,
    uncounted: number,
  ][] = [
    ["the method", "POST", { bad: true, maintenance: true, spent: true, failed: true }, 405, 405],
    [
      "a preflight",
      "OPTIONS",
      { bad: true, maintenance: true, spent: true, failed: true },
      204,
      204,
    ],
    [
      "a bad parameter",
      "GET",
      { bad: true, maintenance: true, spent: true, failed: true },
      400,
      400,
    ],
    ["maintenance", "GET", { maintenance: true, spent: true, failed: true }, 503, 412],
    ["the quota", "GET", { spent: true, failed: true }, 429, 412],
    // RFC 9110 section 13.2.2: If-Match (step 1) before If-None-Match (step 3).
    ["a failed If-Match", "GET", { failed: true }, 412, 412],
    ["a failed If-Match on HEAD", "HEAD", { failed: true }, 412, 412],
    ["the preconditions", "GET", { current: true }, 304, 304],
    ["the preconditions on HEAD", "HEAD", { current: true }, 304, 304],
    ["HEAD", "HEAD", {}, 200, 200],
    ["the body", "GET", {}, 200, 200],
  ];

  let everyKind: Fixture;
  const etags = new Map<string, string>();
  beforeAll(async () => {
    const near = await makeNearFixture();
    const files = new Map(near.files);
    files.set("/openapi.json", OPENAPI);
    everyKind = {
      manifest: {
        ...near.manifest,
        datasets: near.manifest.datasets.map((entry) =>
          entry.dataset === "branches"
            ? { ...entry, aliases: [{ path: BRANCHES_ALIAS[0], mediaType: BRANCHES_ALIAS[1] }] }
            : entry,
        ),
        documents: [
          {
            path: "/openapi.json",
            mediaType: "application/json",
            lastModified: "Fri, 20 Nov 2026 10:00:00 GMT",
            lastModifiedMs: Date.parse("Fri, 20 Nov 2026 10:00:00 GMT"),
            variants: {
              identity: { asset: "/openapi.json", etag: '"doc"', length: OPENAPI.length },
            },
          },
        ],
      },
      files,
    };
    const worker = makeWorker(everyKind);
    for (const { path } of kinds) {
      etags.set(path, (await worker.fetch(path, { method: "HEAD" })).headers.get("ETag")!);
    }
  });

  describe.each(kinds)("$name", (kind) => {
    const cases = rows.filter(([, , on]) => !on.bad || kind.badPath);
    it.each(cases)("answers %s first (%s)", async (_check, method, on, counted, uncounted) => {
      // A limit of one request a minute, spent by another path of the same plan when the row
      // says so; maintenance switched on after that, so the spending request was served.
      const worker = makeWorker(everyKind, { vars: { OPEN_DATA_LIMIT_PER_MINUTE: "1" } });
      if (on.spent) {
        await (await worker.fetch(SPEC_PATHS["personal-current-accounts"])).body?.cancel();
      }
      const deps = on.maintenance
        ? { ...worker.deps, config: { ...worker.deps.config, maintenance: true } }
        : worker.deps;
      // A failing If-Match comes with a matching If-None-Match, which must not win.
      const headers: Record<string, string> =
        on.current || on.failed ? { "If-None-Match": etags.get(kind.path)! } : {};
      if (on.failed) headers["If-Match"] = '"another"';
      const path = on.bad ? kind.badPath! : kind.path;
      const response = await handle(new Request(ORIGIN + path, { method, headers }), deps);
      const status = kind.counted ? counted : uncounted;
      expect(response.status).toBe(status);
      // A body with a 200 to GET and with every error; none with a 304, a 204 or a HEAD.
      const body = new Uint8Array(await response.arrayBuffer());
      expect(body.length > 0).toBe((status === 200 && method === "GET") || status >= 400);
    });
  });
});
