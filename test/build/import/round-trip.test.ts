/**
 * The round trip for every data set: importing a data set's published JSON (the sample content's
 * build output, as the run built it) with --force, with or without --repair, then building,
 * publishes the same `data` as before.
 */
import { join } from "node:path";
import { afterAll, assert, beforeAll, describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { sampleBuild, warmCache } from "../../helpers/sample-build.js";
import { SPEC_PATHS } from "../../helpers/spec-values.js";
import { importFeeds } from "../../helpers/import.js";
import { parseEnvelope, type Envelope } from "../../helpers/json.js";

let fixture: Fixture;
let cacheDir: string;
/** Each data set's published body before the import, by id. */
const before = new Map<string, Envelope>();
/** Each data set's feed file: the body the run's build of the sample content wrote. */
const feeds = new Map<string, string>();

beforeAll(async () => {
  const sample = sampleBuild();
  for (const entry of (await sample.manifest()).datasets) {
    before.set(entry.dataset, parseEnvelope(await sample.read(entry.variants.identity.asset)));
    feeds.set(entry.dataset, join(sample.out, entry.variants.identity.asset));
  }
  fixture = await sampleFixture();
  // One cache for the file's builds, which run one after another on the one fixture.
  cacheDir = await warmCache();
});
afterAll(async () => fixture?.cleanup());

async function rebuild() {
  const result = await buildFixture(fixture, { cacheDir });
  expect(result.diagnostics).toEqual([]);
  assert(result.ok);
  return new Map(result.datasets.map((r) => [r.dataset.id, r.encoded.identity.bytes]));
}

describe("import then build gives the published data back", () => {
  // --repair changes no value the schema accepts, so what we publish goes through it unchanged.
  const cases = DATASETS.flatMap((d) => [[d.id, "", d] as const, [d.id, "--repair", d] as const]);

  it("has a feed for each of the specs' data sets", () => {
    expect([...feeds.keys()].sort()).toEqual(Object.keys(SPEC_PATHS).sort());
    expect(cases).toHaveLength(2 * feeds.size);
  });

  it.each(cases)("for %s %s", async (id, repair, dataset) => {
    // The record key tells the data set; service metrics need --dataset (their shapes are alike).
    const args = [
      ...(dataset.recordsKey === null ? ["--dataset", id] : []),
      ...(repair ? [repair] : []),
    ];
    const run = await importFeeds(["--force", ...args, feeds.get(id)!], fixture.root);
    expect(run.stdout.filter((line) => /repair/.test(line))).toEqual([]);
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    const after = (await rebuild()).get(id)!;
    const body = parseEnvelope(after);
    expect(body.data).toEqual(before.get(id)!.data);
    expect(body.meta.TotalResults).toBe(before.get(id)!.meta.TotalResults);
  });

  it("split by town, gives every record back, each brand's records grouped by town in file name order", async () => {
    const run = await importFeeds(
      ["--force", "--split-by", "Location.PostalAddress.TownName", feeds.get("atms")!],
      fixture.root,
    );
    expect(run.code).toBe(0);
    type Atm = { Identification: string; Location: { PostalAddress: { TownName?: string } } };
    const brandsOf = (body: unknown) =>
      (body as { data: { Brand: { BrandName: string; ATM: Atm[] }[] }[] }).data[0]!.Brand;
    const after = parseEnvelope((await rebuild()).get("atms")!);
    const original = brandsOf(before.get("atms"));
    expect(brandsOf(after).map((b) => b.BrandName)).toEqual(original.map((b) => b.BrandName));
    brandsOf(after).forEach((brand, i) => {
      const town = (r: Atm) => (r.Location.PostalAddress.TownName ?? "").toLowerCase();
      // Stable sort by town: what joining the brand folder's files in name order gives.
      const expected = [...original[i]!.ATM].sort((a, b) =>
        town(a) < town(b) ? -1 : town(a) > town(b) ? 1 : 0,
      );
      expect(brand.ATM).toEqual(expected);
    });
  });
});
