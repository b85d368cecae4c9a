/**
 * The Worker's side of docs/contributing.md, "Adding a data set" (the build's is
 * test/build/core/datasets.test.ts): a made-up data set, added only to DATASETS for this file,
 * is routed from the manifest and counted under its API's plan with no Worker code of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASETS, type DatasetDefinition } from "../../build/core/datasets.js";
import { WIDGETS } from "../helpers/made-up-dataset.js";
import { SPEC_MEDIA_TYPES } from "../helpers/spec-values.js";
import { makeFixture, makeWorker, type Fixture } from "./support/fixture.js";

let fixture: Fixture;
beforeAll(async () => {
  (DATASETS as DatasetDefinition[]).push(WIDGETS);
  fixture = await makeFixture();
});
afterAll(() => {
  (DATASETS as DatasetDefinition[]).pop();
});

describe("a made-up data set in the manifest", () => {
  it("is served at its path with its API's media type, counted under the open data plan", async () => {
    const worker = makeWorker(fixture);
    const response = await worker.fetch("/std/v2.2/widgets");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe(new Map(SPEC_MEDIA_TYPES).get("/std/v2.2/"));
    expect(response.headers.get("RateLimit-Policy")).toMatch(/^"open-data";/);
    expect(
      (await response.json<{ data: { Brand: { BrandName: string }[] }[] }>()).data[0]!.Brand[0]!
        .BrandName,
    ).toBe("Widgets");
  });
});
