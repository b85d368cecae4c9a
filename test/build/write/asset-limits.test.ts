/**
 * Cloudflare's static-asset limits at build time: 25 MiB (26,214,400 bytes) per file and 20,000
 * files per Worker (Cloudflare's Workers limits, "Static Assets"). The size check is a pure
 * function tested at the real boundary with generated bodies; one build through the pipeline with
 * a lowered limit shows it is wired in, without compressing 25 MiB.
 */
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import { checkAssetLimits, type AssetFile } from "../../../build/write/asset-limits.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { cachePerTest, sampleBuild } from "../../helpers/sample-build.js";

const BRANCHES = DATASETS.find((d) => d.id === "branches")!;
const WHERE = { contentDir: "content", outDir: "dist" };
const TWENTY_FIVE_MIB = 26_214_400;

/** A generated body of `size` bytes, as the file the build would write for a variant. */
function body(size: number, coding: "identity" | "br" | "gzip" = "identity"): AssetFile {
  const bytes = new Uint8Array(size).fill(0x20);
  return {
    path: `std/v2.2/branches.json${{ identity: "", br: ".br", gzip: ".gz" }[coding]}`,
    bytes: bytes.length,
    variant: { dataset: BRANCHES, coding },
  };
}

describe("the 25 MiB limit per asset file", () => {
  it("accepts a body of exactly 25 MiB", () => {
    expect(checkAssetLimits([body(TWENTY_FIVE_MIB)], WHERE)).toEqual([]);
  });

  it("refuses a body one byte over, naming the data set, the size, the limit and what to do", () => {
    const [problem, ...more] = checkAssetLimits([body(TWENTY_FIVE_MIB + 1)], WHERE);
    expect(more).toEqual([]);
    expect(problem).toEqual({
      file: "content/branches",
      line: 1,
      column: 1,
      pointer: "",
      rule: "limit",
      message:
        "the uncompressed body of Branches (/std/v2.2/branches) would be 26,214,401 bytes (25 MiB), " +
        "over Cloudflare's limit of 26,214,400 bytes (25 MiB) per static asset file, so it could " +
        "not be deployed. Split the brands: publish some of this data set's brands from a second " +
        "deployment, so each body stays under the limit.",
    });
  });

  it.each([
    ["br", "brotli variant", "or drop this variant"],
    ["gzip", "gzip variant", "or drop this variant"],
  ] as const)(
    "refuses a %s variant over the limit and offers to drop it",
    (coding, name, advice) => {
      const [problem] = checkAssetLimits([body(30 * 1024 * 1024, coding)], WHERE);
      expect(problem!.message).toContain(`the ${name} of Branches`);
      expect(problem!.message).toContain("31,457,280 bytes (30 MiB)");
      expect(problem!.message).toContain(advice);
    },
  );
});

describe("the 20,000 file limit", () => {
  const files = (n: number): AssetFile[] =>
    Array.from({ length: n }, (_, i) => ({ path: `f${i}.json`, bytes: 1 }));

  it("accepts exactly 20,000 files", () => {
    expect(checkAssetLimits(files(20_000), WHERE)).toEqual([]);
  });

  it("refuses 20,001, at the output folder", () => {
    const problems = checkAssetLimits(files(20_001), WHERE);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: "dist", rule: "limit" });
    expect(problems[0]!.message).toContain(
      "20,001 files, over Cloudflare's limit of 20,000 static asset files per Worker",
    );
  });
});

describe("the limits in the build", () => {
  let fixture: Fixture;
  afterEach(async () => fixture?.cleanup());
  const cacheDir = cachePerTest();

  it("fails the build, writing nothing, when a body is over the limit, and passes at exactly it", async () => {
    // The largest file the sample content's build writes, as the run built it.
    const sizing = await sampleBuild().manifest();
    const largest = Math.max(
      ...[...sizing.datasets, ...(sizing.documents ?? [])].flatMap((d) =>
        Object.values(d.variants).map((v) => v.length),
      ),
    );
    fixture = await sampleFixture();
    const limits = { maxFileBytes: largest - 1, maxFiles: 20_000 };
    const over = await buildFixture(fixture, { cacheDir: cacheDir(), limits });
    expect(over.ok).toBe(false);
    expect(over.diagnostics.every((d) => d.rule === "limit")).toBe(true);
    expect(over.diagnostics.map((d) => d.message).join("\n")).toContain(
      `${largest.toLocaleString("en-GB")} bytes`,
    );
    expect(existsSync(fixture.out)).toBe(false);
    const exact = await buildFixture(fixture, {
      cacheDir: cacheDir(),
      limits: { maxFileBytes: largest, maxFiles: 20_000 },
    });
    expect(exact.ok).toBe(true);
  });
});
