/**
 * Every endpoint's responses against the specs' literal values (test/helpers/spec-values.ts, never
 * worker/'s constants), so a wrong constant in the Worker fails this file (open-data-api-v2.2.md and service-metrics-api-v1.0.md, "GET 200 response headers"
 * and "Errors"; RFC 9110 sections 15.4.5 and 9.3.2 for 304 and HEAD).
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  specErrorBody,
  specMediaType,
  SPEC_CACHE_CONTROL,
  SPEC_SECURITY_HEADERS,
} from "../../helpers/spec-values.js";
import { makeFixture, makeWorker, type Fixture } from "../support/fixture.js";

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
