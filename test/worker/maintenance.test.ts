import { beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "../../worker/rate-limit/client-bucket.js";
import { DECIDED } from "../helpers/spec-values.js";
import { expectError } from "./support/assertions.js";
import { settle } from "../fakes/platform.js";
import { makeFixture, makeWorker, type Fixture, type TestWorker } from "./support/fixture.js";

let fixture: Fixture;
let paths: string[];
beforeAll(async () => {
  fixture = await makeFixture();
  paths = fixture.manifest.datasets.map((d) => d.path);
});

/** Asserts what must not change while maintenance is on. */
async function expectOnlyDataPathsAffected(worker: TestWorker): Promise<void> {
  expect((await worker.fetch("/std/v2.2/unknown")).status).toBe(404);
  const post = await worker.fetch(paths[0]!, { method: "POST" });
  expect(post.status).toBe(405);
  expect(post.headers.get("Allow")).toBe(DECIDED.allow);
  const preflight = await worker.fetch(paths[0]!, {
    method: "OPTIONS",
    headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
  });
  expect(preflight.status).toBe(204);
}

describe("maintenance switched on by the MAINTENANCE var", () => {
  it("answers 503 with the spec body and Retry-After on every data path, for GET and HEAD", async () => {
    const worker = makeWorker(fixture, {
      vars: { MAINTENANCE: "on", MAINTENANCE_RETRY_AFTER_SECONDS: "120" },
    });
    for (const path of paths) {
      await expectError(await worker.fetch(path), 503);
      const head = await worker.fetch(path, { method: "HEAD" });
      expect(head.status).toBe(503);
      expect(head.headers.get("Retry-After")).toBe("120");
    }
    expect(worker.assets.requests).toHaveLength(0);
    await expectOnlyDataPathsAffected(worker);
  });
});

describe("maintenance switched on by the KV flag", () => {
  it("answers 503 with Retry-After on every data path and changes nothing else", async () => {
    const worker = makeWorker(fixture);
    worker.kv.data.set(DECIDED.maintenanceKey, "on");
    const retryAfter = String(DECIDED.maintenanceRetryAfterSeconds);
    for (const path of paths) {
      const response = await worker.fetch(path, { headers: { "If-None-Match": "*" } });
      expect(response.headers.get("Retry-After")).toBe(retryAfter);
      expect(response.headers.get(DECIDED.rateLimitHeader)).toBeNull();
      await expectError(response, 503);
    }
    await expectOnlyDataPathsAffected(worker);
  });

  it("reads the flag with an edge cacheTtl, once per isolate per refresh period", async () => {
    const worker = makeWorker(fixture);
    // Each request from its own client, so no rate-limit counter comes near a KV share (whose
    // reads would be counted too) however many data paths there are.
    for (let i = 0; i < 50; i++) {
      const headers = { [CLIENT_ADDRESS_HEADER]: `203.0.113.${i + 1}` };
      await worker.fetch(paths[i % paths.length]!, { headers });
    }
    expect(worker.kv.reads).toEqual([
      { key: DECIDED.maintenanceKey, cacheTtl: DECIDED.maintenanceCacheTtlSeconds },
    ]);
  });

  it("serves again after the flag is removed, within one refresh period, reading it in the background", async () => {
    const worker = makeWorker(fixture);
    worker.kv.data.set(DECIDED.maintenanceKey, "on");
    expect((await worker.fetch(paths[0]!)).status).toBe(503);
    worker.kv.data.delete(DECIDED.maintenanceKey);
    await worker.clock.advance(DECIDED.maintenanceRefreshMs);
    // The first request after the period still gets the value it knew, and triggers the read.
    expect((await worker.fetch(paths[0]!)).status).toBe(503);
    await settle();
    expect((await worker.fetch(paths[0]!)).status).toBe(200);
  });

  it("serves with 200 when the flag cannot be read", async () => {
    const worker = makeWorker(fixture);
    worker.kv.failure = "throw";
    expect((await worker.fetch(paths[0]!)).status).toBe(200);
  });
});
