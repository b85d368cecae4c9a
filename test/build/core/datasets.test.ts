/**
 * The data set table: the specs' data sets at their paths, the live standard's names for them, and
 * (docs/contributing.md, "Adding a data set") that a data set is its DatasetDefinition, its schemas
 * and its content, and no other code. That is shown with a made-up one added to DATASETS for one
 * describe block and taken out after it (test files share a module graph per worker): widgets,
 * published by the Open Data API under the ATMs' schemas, picked up by the build, the documents
 * and the change summary; the Worker's routes are shown in test/worker/made-up-dataset.test.ts.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, assert, beforeAll, describe, expect, it } from "vitest";
import {
  DATASETS,
  openBankingAliases,
  type DatasetDefinition,
} from "../../../build/core/datasets.js";
import { WIDGETS } from "../../helpers/made-up-dataset.js";
import { diffDataset } from "../../../build/diff/compare.js";
import type { Envelope } from "../../../build/assemble/envelope.js";
import type { BuildResult } from "../../../build/pipeline.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { warmCache } from "../../helpers/sample-build.js";
import { LIVE_STANDARD_PATHS, SPEC_MEDIA_TYPES, SPEC_PATHS } from "../../helpers/spec-values.js";

const BRAND = [
  'BrandName: "Made-up Widgets"',
  "ATM:",
  '  - Identification: "W-1"',
  '    SupportedCurrencies: ["GBP"]',
  "    Location:",
  "      PostalAddress:",
  '        TownName: "Stainby Cross"',
  '        Country: "GB"',
  '        PostCode: "SQ4 6RE"',
  "",
].join("\n");

describe("the data sets", () => {
  it("are the specs' eight, each at its path", () => {
    expect(Object.fromEntries(DATASETS.map((d) => [d.id, d.path]))).toEqual(SPEC_PATHS);
  });

  it.each(Object.entries(LIVE_STANDARD_PATHS))(
    "name the live standard's /open-banking/ paths and media type of %s",
    (id, expected) => {
      const dataset = DATASETS.find((d) => d.id === id);
      expect(dataset).toBeDefined();
      expect(openBankingAliases(dataset!).map((a) => [a.path, a.mediaType])).toEqual(expected);
    },
  );
});

describe("a made-up data set, added only as a DatasetDefinition", () => {
  let fixture: Fixture;
  let built: BuildResult;
  beforeAll(async () => {
    (DATASETS as DatasetDefinition[]).push(WIDGETS);
    fixture = await sampleFixture({ "widgets/made-up-widgets.yaml": BRAND });
    built = await buildFixture(fixture, { cacheDir: await warmCache() });
  }, 120_000);
  afterAll(async () => {
    (DATASETS as DatasetDefinition[]).pop();
    await fixture?.cleanup();
  });

  it("is built: its body is published at its path, with its manifest entry", async () => {
    expect(built.diagnostics).toEqual([]);
    assert(built.ok);
    const entry = built.manifest.datasets.find((d) => d.dataset === "widgets");
    expect(entry).toMatchObject({
      path: "/std/v2.2/widgets",
      mediaType: new Map(SPEC_MEDIA_TYPES).get("/std/v2.2/"),
      totalResults: 1,
      brands: 1,
    });
    const body = JSON.parse(
      await readFile(join(fixture.out, "std/v2.2/widgets.json"), "utf8"),
    ) as Envelope;
    expect(body.data[0]!.Brand[0]!.BrandName).toBe("Made-up Widgets");
  });

  it("is described by /openapi.json under its API and listed on the landing page", async () => {
    const openapi = JSON.parse(await readFile(join(fixture.out, "openapi.json"), "utf8")) as {
      paths: Record<string, { get: { tags: string[] } }>;
    };
    expect(openapi.paths["/std/v2.2/widgets"]!.get.tags).toEqual(["Open Data API v2.2"]);
    const page = await readFile(join(fixture.out, "index.html"), "utf8");
    expect(page).toContain('<tr data-path="/std/v2.2/widgets">');
  });

  it("names its records in the change summary by its own noun", () => {
    const after: Envelope = {
      meta: { TotalResults: 1 },
      data: [{ Brand: [{ BrandName: "Made-up Widgets", ATM: [{ Identification: "W-1" }] }] }],
    };
    const diff = diffDataset(WIDGETS, undefined, after);
    expect(diff.added.map((r) => r.label)).toEqual(["Widget W-1 (Made-up Widgets)"]);
  });
});
