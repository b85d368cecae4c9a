/**
 * The live standard's paths in each data set's manifest entry: listed with their own media types
 * when site.yaml sets OpenBankingPaths: true (platform notes, "The standard as it is served in
 * the wild"), and none otherwise.
 */
import { afterEach, assert, describe, expect, it } from "vitest";
import type { Manifest } from "../../../contract/manifest.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { cachePerTest, sampleBuild } from "../../helpers/sample-build.js";
import { LIVE_STANDARD_PATHS, SPEC_PATHS } from "../../helpers/spec-values.js";

const SITE =
  'License: "https://www.openbanking.org.uk/open-licence"\nTermsOfUse: "https://www.openbanking.org.uk/terms"\n';

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());
const cacheDir = cachePerTest();

/** Each data set's aliases in the manifest, as [path, media type] pairs, by data set id. */
const aliasesOf = (manifest: Manifest) =>
  Object.fromEntries(
    manifest.datasets.map((e) => [e.dataset, e.aliases.map((a) => [a.path, a.mediaType])]),
  );

/** Every data set of the specs with no alias. */
const NONE = Object.fromEntries(Object.keys(SPEC_PATHS).map((id) => [id, []]));

describe("the live standard's paths in the manifest", () => {
  it("lists each data set's /open-banking/ paths and media type when site.yaml sets OpenBankingPaths: true", async () => {
    expect(aliasesOf(await sampleBuild("live").manifest())).toEqual(LIVE_STANDARD_PATHS);
  });

  it("lists none when OpenBankingPaths is left out", async () => {
    expect(aliasesOf(await sampleBuild("plain").manifest())).toEqual(NONE);
  });

  it("lists none when OpenBankingPaths is false", async () => {
    fixture = await sampleFixture({ "site.yaml": `${SITE}OpenBankingPaths: false\n` });
    const result = await buildFixture(fixture, { cacheDir: cacheDir() });
    expect(result.diagnostics).toEqual([]);
    assert(result.ok);
    expect(aliasesOf(result.manifest)).toEqual(NONE);
  });

  it("refuses an OpenBankingPaths that is not true or false", async () => {
    fixture = await sampleFixture({ "site.yaml": `${SITE}OpenBankingPaths: "yes"\n` });
    const result = await buildFixture(fixture, { write: false, cacheDir: cacheDir() });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.file, d.line, d.pointer])).toEqual([
      ["content/site.yaml", 3, "/OpenBankingPaths"],
    ]);
  });
});
