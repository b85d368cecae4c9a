import { afterEach, describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import {
  DEFAULT_MAX_SHRINK,
  findShrinks,
  guardPublication,
  guardReport,
} from "../../../build/guard/policy.js";
import { loadBaseline } from "../../../build/guard/baseline.js";
import { MANIFEST_FILE, type Manifest, type ManifestEntry } from "../../../contract/manifest.js";
import {
  branchBrand,
  buildFixture,
  sampleFixture,
  digestFolder,
  type Fixture,
} from "../../helpers/fixtures.js";
import { warmCache } from "../../helpers/sample-build.js";

/** A manifest with the given TotalResults per data set (other fields do not matter here). */
function manifest(totals: Partial<Record<string, number>>): Manifest {
  return {
    formatVersion: 1,
    documents: [],
    datasets: DATASETS.map(
      (d) => ({ dataset: d.id, totalResults: totals[d.id] ?? 10 }) as unknown as ManifestEntry,
    ),
  };
}

const defaults = {
  maxShrink: DEFAULT_MAX_SHRINK,
  allowShrink: false,
  baseline: "dist/manifest.json",
};

describe("the publication guard", () => {
  it("refuses a data set that loses more than 20% of its records, naming the override", () => {
    const problems = guardPublication(manifest({ atms: 1200 }), manifest({ atms: 62 }), defaults);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: "content/atms", line: 1, column: 1, rule: "guard" });
    expect(problems[0]!.message).toBe(
      "ATMs would shrink from 1200 to 62 records (94.8% fewer), more than the 20% allowed, against dist/manifest.json. " +
        `If this is intended, build again with --allow-shrink or OPENDATA_ALLOW_SHRINK=1 (the limit is set with --max-shrink, default 20%).`,
    );
  });

  it("stops an accidental 50% shrink", () => {
    const problems = guardPublication(
      manifest({ branches: 40 }),
      manifest({ branches: 20 }),
      defaults,
    );
    expect(problems.map((p) => p.file)).toEqual(["content/branches"]);
  });

  it("lets through a shrink of exactly the allowed share, and growth", () => {
    const next = manifest({ branches: 8, atms: 500 });
    expect(guardPublication(manifest({ branches: 10, atms: 100 }), next, defaults)).toEqual([]);
  });

  it("refuses a data set that becomes empty, whatever the share allowed", () => {
    const problems = guardPublication(
      manifest({ "service-metrics-pca": 3 }),
      manifest({ "service-metrics-pca": 0 }),
      {
        ...defaults,
        maxShrink: 1,
      },
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(
      /^Service metrics \(PCA\) would be published empty: 0 records, where dist\/manifest\.json has 3\. If this is intended/,
    );
  });

  it("publishes anyway when the override is given", () => {
    const previous = manifest({ atms: 1200, branches: 5 });
    const next = manifest({ atms: 62, branches: 0 });
    expect(guardPublication(previous, next, { ...defaults, allowShrink: true })).toEqual([]);
    // The shrinks are still known, so the CLI can say what it let through.
    expect(findShrinks(previous, next, DEFAULT_MAX_SHRINK).map((s) => s.dataset)).toEqual([
      "branches",
      "atms",
    ]);
  });

  describe("after a run it let through", () => {
    it("warns of each shrink a local build lets through, and how publishing it would go", () => {
      const report = guardReport(manifest({ branches: 6 }), manifest({ branches: 2 }), {
        ...defaults,
        publish: false,
      });
      expect(report).toEqual({
        warnings: [
          "warning: Branches would shrink from 6 to 2 records (66.7% fewer), more than the 20% allowed, against dist/manifest.json; " +
            "built anyway, since this build publishes nothing. Publishing it (`npm run deploy`, the Deploy workflow) would be refused " +
            'unless told it is intended: OPENDATA_ALLOW_SHRINK=1 npm run deploy, or the workflow\'s "allow_shrink".',
        ],
        summary: undefined,
      });
    });

    it("says a publication let a shrink through because the override asked", () => {
      const report = guardReport(manifest({ atms: 1200 }), manifest({ atms: 0 }), {
        ...defaults,
        allowShrink: true,
        publish: true,
      });
      expect(report.warnings).toEqual([
        "ATMs would be published empty: 0 records, where dist/manifest.json has 1200; published anyway, as the override asked",
      ]);
      expect(report.summary).toBeUndefined();
    });

    it("says what it compared with when no data set shrank too far", () => {
      const report = guardReport(manifest({ atms: 10 }), manifest({ atms: 9 }), {
        ...defaults,
        maxShrink: 0.125,
        publish: true,
      });
      expect(report).toEqual({
        warnings: [],
        summary:
          "Publication guard: compared with dist/manifest.json; no data set lost more than 12.5% of its records.",
      });
    });

    it("says there was nothing to compare with on a first build", () => {
      const report = guardReport(undefined, manifest({ atms: 9 }), {
        ...defaults,
        baseline: "dist/manifest.json (none yet)",
        publish: false,
      });
      expect(report).toEqual({
        warnings: [],
        summary: "Publication guard: nothing to compare with (dist/manifest.json (none yet)).",
      });
    });
  });

  it("has nothing to compare on a first publication, or for a data set new or empty before", () => {
    expect(guardPublication(undefined, manifest({ atms: 0 }), defaults)).toEqual([]);
    const previous: Manifest = {
      formatVersion: 1,
      documents: [],
      datasets: manifest({ atms: 0 }).datasets.slice(0, 2),
    };
    expect(
      guardPublication(previous, manifest({ atms: 0, "service-metrics-bca": 0 }), defaults),
    ).toEqual([]);
  });

  it("lets through a shrink within the share given", () => {
    const problems = guardPublication(manifest({ atms: 100 }), manifest({ atms: 60 }), {
      ...defaults,
      maxShrink: 0.5,
    });
    expect(problems).toEqual([]);
  });
});

describe("the guard in the build", () => {
  let fixture: Fixture;
  afterEach(async () => fixture?.cleanup());

  it("leaves the published output untouched when it refuses", async () => {
    fixture = await sampleFixture({
      "branches/zed-bank.yaml": branchBrand("Zed Bank", [
        "Z1",
        "Z2",
        "Z3",
        "Z4",
        "Z5",
        "Z6",
        "Z7",
        "Z8",
      ]),
    });
    const cacheDir = await warmCache();
    const first = await buildFixture(fixture, { cacheDir });
    const before = await digestFolder(fixture.out);
    await fixture.put({ "branches/zed-bank.yaml": null });
    const guard = async (next: Manifest) => {
      const baseline = await loadBaseline({
        source: { kind: "output" },
        outDir: fixture.out,
        contentDir: fixture.content,
        cwd: fixture.root,
      });
      return guardPublication(baseline.manifest, next, { ...defaults, baseline: baseline.name });
    };
    const second = await buildFixture(fixture, { cacheDir, beforeWrite: guard });
    expect(first.ok).toBe(true);
    expect(second.ok).toBe(false);
    expect(second.diagnostics.map((d) => d.file)).toEqual(["content/branches"]);
    const after = await digestFolder(fixture.out);
    expect(after).toEqual(before);
    expect(after.has(MANIFEST_FILE)).toBe(true);
  });
});

describe("the publication guard with site.yaml's Sites", () => {
  /** A manifest with these sites, each with the given TotalResults per data set. */
  function sites(of: Record<string, Partial<Record<string, number>>>): Manifest {
    return {
      formatVersion: 1,
      datasets: [],
      documents: [],
      sites: Object.entries(of).map(([name, totals]) => ({
        name,
        host: `api.${name}.example`,
        manifest: manifest(totals),
      })),
    };
  }

  it("compares each site's data sets with the same site's before, naming the site", () => {
    const before = sites({ halifax: { atms: 1200 }, group: { atms: 2400 } });
    const after = sites({ halifax: { atms: 62 }, group: { atms: 1262 } });
    expect(
      findShrinks(before, after, DEFAULT_MAX_SHRINK).map((s) => [s.title, s.before, s.after]),
    ).toEqual([
      ["ATMs of the site halifax", 1200, 62],
      ["ATMs of the site group", 2400, 1262],
    ]);
  });

  it("never counts a site new since the baseline as a shrink", () => {
    const before = sites({ group: { atms: 2400 } });
    const after = sites({ halifax: { atms: 62 }, group: { atms: 2400 } });
    expect(findShrinks(before, after, DEFAULT_MAX_SHRINK)).toEqual([]);
  });
});
