/**
 * /participant_store.json, the deployment as an entry of the participant directory: valid against
 * the schema written from the directory's fields, and usable the way directory clients use it
 * (<baseUrl>/<version>/<api>, <baseUrl>/<version>/fca-service-metrics/<product-type>).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { validatorFor } from "../../../build/check/schemas.js";
import { PROJECT_ROOT } from "../../../build/core/paths.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { cachePerTest, sampleBuild, type SampleVariant } from "../../helpers/sample-build.js";
import { LIVE_STANDARD_PATHS, SPEC_AGREEMENT, SPEC_PATHS } from "../../helpers/spec-values.js";
import { schemaAjv } from "../../helpers/schemas.js";

interface Store {
  meta: Record<string, unknown>;
  data: {
    name: string;
    brands: string[];
    baseUrl: string;
    supportedAPIs: Record<string, (string | { version: string; "product-type": string })[]>;
  }[];
}

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());
const cacheDir = cachePerTest();

/** The entry the sample content publishes, as the run built it (`live`: OpenBankingPaths: true). */
async function published(variant: SampleVariant = "plain"): Promise<Store> {
  return JSON.parse(await sampleBuild(variant).read("participant_store.json")) as Store;
}

/** The entry the sample content publishes with `siteLines` added to its site.yaml. */
async function builtWith(siteLines: string): Promise<Store> {
  const site = await readFile(join(PROJECT_ROOT, "content", "site.yaml"), "utf8");
  fixture = await sampleFixture({ "site.yaml": `${site}${siteLines}` });
  const result = await buildFixture(fixture, { cacheDir: cacheDir() });
  expect(result.diagnostics).toEqual([]);
  return JSON.parse(await readFile(join(fixture.out, "participant_store.json"), "utf8")) as Store;
}

// The URLs a directory client composes from an entry, resolved on the deployment's origin.
function clientUrls(entry: Store["data"][number]): string[] {
  return Object.entries(entry.supportedAPIs).flatMap(([api, versions]) =>
    versions.map((v) =>
      typeof v === "string"
        ? `${entry.baseUrl}/${v}/${api}`
        : `${entry.baseUrl}/${v.version}/${api}/${v["product-type"]}`,
    ),
  );
}

const validator = () => validatorFor(schemaAjv(), "participant-store.schema.json");

describe("the participant directory entry", () => {
  it("validates against the participant store schema, with the spec's Agreement and one participant", async () => {
    const store = await published();
    const validate = validator();
    expect(validate(store) ? [] : validate.errors).toEqual([]);
    expect(store.meta.Agreement).toBe(SPEC_AGREEMENT);
    expect(store.meta.TotalResults).toBe(1);
    expect(store.data).toHaveLength(1);
  });

  it("names the publisher and every brand the data sets publish", async () => {
    const [entry] = (await published()).data;
    expect(entry!.name).toBe("Thistlecombe Bank and Pennyfold Building Society");
    expect([...entry!.brands].sort()).toEqual(["Pennyfold Building Society", "Thistlecombe Bank"]);
  });

  it("leads a directory client to the six v2.2 /std/ paths when the live names are off", async () => {
    const [entry] = (await published()).data;
    expect(entry!.baseUrl).toBe("/std");
    expect(clientUrls(entry!).sort()).toEqual(
      Object.values(SPEC_PATHS)
        .filter((p) => p.startsWith("/std/v2.2/"))
        .sort(),
    );
  });

  it("leads a directory client to every live-standard path, service metrics included, when they are on", async () => {
    const [entry] = (await published("live")).data;
    expect(entry!.baseUrl).toBe("/open-banking");
    const versioned = Object.values(LIVE_STANDARD_PATHS).map((paths) => paths[0]![0]);
    expect(clientUrls(entry!).sort()).toEqual(versioned.sort());
  });

  it("makes baseUrl absolute with site.yaml's PublicOrigin", async () => {
    const store = await builtWith('PublicOrigin: "https://opendata.thistlecombe.example"\n');
    expect(store.data[0]!.baseUrl).toBe("https://opendata.thistlecombe.example/std");
    const validate = validator();
    expect(validate(store) ? [] : validate.errors).toEqual([]);
  });

  it("is refused by its schema when an API lists no version", async () => {
    const store = await published();
    store.data[0]!.supportedAPIs.atms = [];
    expect(validator()(store)).toBe(false);
  });
});
