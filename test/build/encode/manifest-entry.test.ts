import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DATASETS, openBankingAliases } from "../../../build/core/datasets.js";
import { MANIFEST_FILE, type Manifest } from "../../../contract/manifest.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { LIVE_STANDARD_PATHS } from "../../helpers/spec-values.js";

const EXPECTED = LIVE_STANDARD_PATHS;

const SITE =
  'License: "https://www.openbanking.org.uk/open-licence"\nTermsOfUse: "https://www.openbanking.org.uk/terms"\n';

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());

async function buildManifest(): Promise<Manifest> {
  const result = await buildFixture(fixture);
  expect(result.diagnostics).toEqual([]);
  return JSON.parse(await readFile(join(fixture.out, MANIFEST_FILE), "utf8")) as Manifest;
}

describe("the live standard's path names", () => {
  it.each(DATASETS.map((d) => [d.id, d] as const))(
    "names the /open-banking/ paths and media type of %s",
    (id, dataset) => {
      expect(EXPECTED[id]).toBeDefined();
      expect(openBankingAliases(dataset).map((a) => [a.path, a.mediaType])).toEqual(EXPECTED[id]);
    },
  );

  it("lists the aliases of every data set in the manifest when site.yaml sets OpenBankingPaths: true", async () => {
    fixture = await sampleFixture({ "site.yaml": `${SITE}OpenBankingPaths: true\n` });
    const manifest = await buildManifest();
    for (const entry of manifest.datasets) {
      expect(entry.aliases.map((a) => [a.path, a.mediaType])).toEqual(EXPECTED[entry.dataset]);
    }
  });

  it.each([
    ["left out", SITE],
    ["false", `${SITE}OpenBankingPaths: false\n`],
  ])("lists no aliases when OpenBankingPaths is %s", async (_, site) => {
    fixture = await sampleFixture({ "site.yaml": site });
    const manifest = await buildManifest();
    for (const entry of manifest.datasets) expect(entry.aliases).toEqual([]);
  });

  it("refuses an OpenBankingPaths that is not true or false", async () => {
    fixture = await sampleFixture({ "site.yaml": `${SITE}OpenBankingPaths: "yes"\n` });
    const result = await buildFixture(fixture, { write: false });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.file, d.line, d.pointer])).toEqual([
      ["content/site.yaml", 3, "/OpenBankingPaths"],
    ]);
  });
});
