/**
 * How long each answer may be reused, through the real Worker on the sample's build (site.yaml
 * sets no CacheMaxAgeSeconds): the data sets, their near-me slices and the documents keep the
 * specs' default, `max-age=28800` (open-data-api-v2.2.md and service-metrics-api-v1.0.md, "GET
 * 200 response headers"); the changes answers and the feed, which change with every publication,
 * a minute (docs/decisions.md); their 304s say the same as their 200s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "../../worker/rate-limit/client-bucket.js";
import { startWorker, type RunningWorker } from "../helpers/worker.js";
import { request } from "./http.js";

let worker: RunningWorker;
beforeAll(async () => {
  worker = await startWorker();
}, 60_000);
afterAll(async () => {
  await worker?.dispose();
});

let nextAddress = 0;
async function cacheControl(
  path: string,
): Promise<[number, string | undefined, string | undefined]> {
  const address = { [CLIENT_ADDRESS_HEADER]: `198.20.0.${nextAddress++ & 255}` };
  const ok = await request(new URL(path, worker.base), { headers: address });
  const revalidated = await request(new URL(path, worker.base), {
    headers: { ...address, "If-None-Match": ok.headers["etag"]! },
  });
  expect(revalidated.status).toBe(304);
  return [ok.status, ok.headers["cache-control"], revalidated.headers["cache-control"]];
}

describe("Cache-Control, 200 and 304 alike", () => {
  it("gives every data set the specs' default", async () => {
    expect(worker.manifest.datasets).toHaveLength(8);
    for (const { path } of worker.manifest.datasets) {
      expect(await cacheControl(path)).toEqual([200, "max-age=28800", "max-age=28800"]);
    }
  });

  it("gives a near-me slice its data set's", async () => {
    expect(await cacheControl("/x-std/v2.2/atms/postcode/WX14AB")).toEqual([
      200,
      "max-age=28800",
      "max-age=28800",
    ]);
  });

  it("gives every changes answer and the feed a minute", async () => {
    const changes = worker.manifest.changes ?? [];
    expect(changes.length).toBeGreaterThan(0);
    for (const entry of changes) {
      for (const answer of entry.answers) {
        expect(await cacheControl(`${entry.path}?since=${answer.since}`)).toEqual([
          200,
          "max-age=60",
          "max-age=60",
        ]);
      }
    }
    expect(await cacheControl("/x-std/changes.atom")).toEqual([200, "max-age=60", "max-age=60"]);
  });

  it("gives the landing page and /openapi.json the data sets'", async () => {
    for (const path of ["/", "/openapi.json"]) {
      expect(await cacheControl(path)).toEqual([200, "max-age=28800", "max-age=28800"]);
    }
  });
});
