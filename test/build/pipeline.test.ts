/**
 * build/pipeline.ts's two runs side by side: `runBuild` (steps 1 to 9) and `runValidate` (steps 1
 * to 5 and the checks of step 9 the bodies answer). Validate must report what the build would, on
 * content with a problem of each kind, and make nothing the checks do not need: no compressed
 * variant, no near-me index, no document, no output folder.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, assert, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../build/core/diagnostics.js";
import { PROJECT_ROOT } from "../../build/core/paths.js";
import { runBuild, runValidate, type CheckOptions } from "../../build/pipeline.js";
import {
  branchBrand,
  FIXTURE_EPOCH,
  sampleFixture,
  snapshotFolder,
  type Fixture,
} from "../helpers/fixtures.js";

let fixture: Fixture | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  fixture = scratch = undefined;
});

const NOW = () => new Date("2026-09-21T12:00:00Z");

/** Validate, then build, of the same content with the same options; every line each reports. */
async function both(content: Fixture, options: CheckOptions = {}) {
  const common = {
    contentDir: content.content,
    cwd: content.root,
    env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
    cacheDir: false as const,
    now: NOW,
    ...options,
  };
  const validated = await runValidate(common);
  const built = await runBuild({ ...common, outDir: content.out });
  const lines = (r: typeof validated | typeof built) => ({
    ok: r.ok,
    problems: r.diagnostics.map(formatDiagnostic),
    warnings: r.quality.warnings.map(formatDiagnostic),
    counts: r.quality.counts,
    filesChecked: r.filesChecked,
  });
  return { validated, built, validate: lines(validated), build: lines(built) };
}

// A branch in Great Britain whose postcode is not in the Royal Mail format: a data-quality finding.
const badPostcode = [
  'BrandName: "Quality Bank"',
  "Branch:",
  '  - Identification: "QB-1"',
  '    SequenceNumber: "0"',
  "    Type: Physical",
  "    CustomerSegment: [Personal]",
  "    PostalAddress:",
  '      PostCode: "qb11aa"',
  '      Country: "GB"',
  "",
].join("\n");

describe("validate reports what the build would, on content with a problem of each kind", () => {
  it("syntax, schema and cross-file problems (steps 1 to 3)", async () => {
    fixture = await sampleFixture({
      "atms/broken.yaml": "BrandName: Broken\nATM: [\n",
      "branches/no-branches.yaml": "BrandName: No Branches\nBranch: 12\n",
      "branches/twice-a.yaml": branchBrand("Twice Bank", ["T1"]),
      "branches/twice-b.yaml": branchBrand("Twice Bank", ["T2"]),
    });
    const { validate, build } = await both(fixture);
    expect(validate.ok).toBe(false);
    const files = validate.problems.map((p) => p.slice(0, p.indexOf(":")));
    expect(new Set(files)).toEqual(
      new Set([
        "content/atms/broken.yaml",
        "content/branches/no-branches.yaml",
        "content/branches/twice-a.yaml",
        "content/branches/twice-b.yaml",
      ]),
    );
    expect(validate).toEqual(build);
  });

  it("data-quality findings as warnings (step 4), the content otherwise valid", async () => {
    fixture = await sampleFixture({ "branches/quality-bank.yaml": badPostcode });
    const { validate, build } = await both(fixture);
    expect(validate.ok).toBe(true);
    expect(validate.warnings).toHaveLength(1);
    expect(validate.warnings[0]).toContain("content/branches/quality-bank.yaml:");
    expect(validate).toEqual(build);
  });

  it("data-quality findings made errors by site.yaml (step 4)", async () => {
    const site = await readFile(join(PROJECT_ROOT, "content", "site.yaml"), "utf8");
    fixture = await sampleFixture({
      "branches/quality-bank.yaml": badPostcode,
      "site.yaml": `${site}QualityErrors: ["postcode-format"]\n`,
    });
    const { validate, build } = await both(fixture);
    expect(validate.ok).toBe(false);
    expect(validate.problems).toHaveLength(1);
    expect(validate).toEqual(build);
  });

  it("the assembled envelope's problems (step 5), here a LastUpdated past year 9999", async () => {
    fixture = await sampleFixture();
    const { validate, build } = await both(fixture, { env: { SOURCE_DATE_EPOCH: "253402300800" } });
    expect(validate.ok).toBe(false);
    // One per data set, at its folder, from the envelope's schema.
    expect(validate.problems).toHaveLength(8);
    expect(validate.problems[0]).toMatch(
      /^content\/atms:1:1: \/meta\/LastUpdated: the assembled \/std\/v2\.2\/atms response /,
    );
    expect(validate).toEqual(build);
  });

  it("a postcode-centroid file without its columns (content read for step 7)", async () => {
    fixture = await sampleFixture({ "postcode-centroids.csv": "where,when\nAB1 2CD,1\n" });
    const { validate, build } = await both(fixture);
    expect(validate.ok).toBe(false);
    expect(validate.problems).toHaveLength(1);
    expect(validate.problems[0]).toMatch(/^content\/postcode-centroids\.csv:/);
    expect(validate).toEqual(build);
  });

  it("a body over the limit per static asset file (step 9), every other file under it", async () => {
    // 1,500 ATMs make a body larger than every document, so a limit between the two finds the body
    // alone, as Cloudflare's 25 MiB does for a large publisher.
    const atms = ["BrandName: Many ATMs Bank", "ATM:"];
    for (let i = 0; i < 1500; i++) {
      atms.push(
        `  - Identification: "M${String(i).padStart(4, "0")}"`,
        "    SupportedCurrencies: [GBP]",
        "    Location:",
        "      PostalAddress:",
        `        StreetName: "${i} A Long Street Name That Pads The Body Out To Its Size"`,
        '        TownName: "Stainby Cross"',
        '        Country: "GB"',
        '        PostCode: "SQ4 6RE"',
      );
    }
    fixture = await sampleFixture({ "atms/many-atms-bank.yaml": `${atms.join("\n")}\n` });
    const sizing = await runBuild({
      contentDir: fixture.content,
      cwd: fixture.root,
      cacheDir: false,
      env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
      write: false,
    });
    assert(sizing.ok, sizing.diagnostics.map(formatDiagnostic).join("\n"));
    const sizes = new Map(
      sizing.files.map((f) => [
        f.path,
        typeof f.bytes === "string" ? f.bytes.length : f.bytes.length,
      ]),
    );
    const body = sizes.get("std/v2.2/atms.json")!;
    const others = Math.max(
      ...[...sizes].filter(([p]) => p !== "std/v2.2/atms.json").map(([, n]) => n),
    );
    expect(body).toBeGreaterThan(others);
    const limits = { maxFileBytes: others, maxFiles: 20_000 };
    const { validate, build } = await both(fixture, { limits });
    expect(validate.ok).toBe(false);
    expect(validate.problems).toHaveLength(1);
    expect(validate.problems[0]).toContain("the uncompressed body of ATMs (/std/v2.2/atms)");
    expect(validate).toEqual(build);
  });

  it("the last check's objection (the publication guard), given each data set's count", async () => {
    fixture = await sampleFixture();
    const seen: unknown[] = [];
    const validated = await runValidate({
      contentDir: fixture.content,
      cwd: fixture.root,
      cacheDir: false,
      env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
      lastCheck: (next) => {
        seen.push(next);
        return [{ file: "content", line: 1, column: 1, pointer: "", message: "no", rule: "guard" }];
      },
    });
    const built = await runBuild({
      contentDir: fixture.content,
      outDir: fixture.out,
      cwd: fixture.root,
      cacheDir: false,
      env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
      beforeWrite: (next) => {
        seen.push({
          datasets: next.datasets.map((d) => ({
            dataset: d.dataset,
            totalResults: d.totalResults,
          })),
        });
        return [];
      },
    });
    expect(validated.ok).toBe(false);
    expect(validated.diagnostics.map((d) => d.message)).toEqual(["no"]);
    expect(built.ok).toBe(true);
    // The sample's counts, as the spec counts them: records, or brands for service metrics.
    expect(seen[0]).toEqual({
      datasets: [
        { dataset: "branches", totalResults: 6 },
        { dataset: "atms", totalResults: 7 },
        { dataset: "personal-current-accounts", totalResults: 6 },
        { dataset: "business-current-accounts", totalResults: 2 },
        { dataset: "unsecured-sme-loans", totalResults: 2 },
        { dataset: "commercial-credit-cards", totalResults: 2 },
        { dataset: "service-metrics-pca", totalResults: 2 },
        { dataset: "service-metrics-bca", totalResults: 2 },
      ],
    });
    expect(seen[1]).toEqual(seen[0]);
  });
});

describe("validate makes nothing the checks do not need", () => {
  it("compresses nothing, indexes nothing and writes no output folder, through a cache a build then reuses", async () => {
    fixture = await sampleFixture();
    scratch = await mkdtemp(join(tmpdir(), "opendata-edge-validate-"));
    const cacheDir = join(scratch, "cache");
    const options = {
      contentDir: fixture.content,
      cwd: fixture.root,
      cacheDir,
      env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
    };
    const validated = await runValidate(options);
    expect(validated.diagnostics).toEqual([]);
    expect(existsSync(fixture.out)).toBe(false);
    // The cache holds each file's check and each data set's body, and no variant or index.
    const kinds = (names: string[]) => new Set(names.map((n) => n.slice(n.lastIndexOf(".") + 1)));
    const afterValidate = await readdir(cacheDir);
    expect(kinds(afterValidate)).toEqual(new Set(["check", "body", "dataset", "json"]));
    expect(Object.keys(validated.timings)).toEqual([
      "read",
      "check",
      "crossCheck",
      "quality",
      "assemble",
      "limits",
      "parts",
    ]);
    expect(Object.keys(validated.timings.parts)).toEqual(["parseMs", "validateMs", "serializeMs"]);

    // A build after it assembles nothing again: every body is the one validate left.
    const built = await runBuild({ ...options, outDir: fixture.out });
    assert(built.ok);
    expect(built.timings.parts.serializeMs).toBe(0);
    expect(built.timings.parts.compressMs).toBeGreaterThan(0);
    expect([...kinds(await readdir(cacheDir))]).toEqual(
      expect.arrayContaining(["br", "gz", "near"]),
    );
    const written = await snapshotFolder(fixture.out);
    for (const { entry } of built.datasets) {
      expect(written.has(entry.variants.br!.asset.slice(1)), entry.path).toBe(true);
    }
  });
});

describe("--timings names every step", () => {
  it("a build times steps 1 to 9 under their own names, near and documents apart from encode", async () => {
    fixture = await sampleFixture();
    const built = await runBuild({
      contentDir: fixture.content,
      outDir: fixture.out,
      cwd: fixture.root,
      cacheDir: false,
      env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
    });
    assert(built.ok);
    const { parts, ...steps } = built.timings;
    expect(Object.keys(steps)).toEqual([
      "read",
      "check",
      "crossCheck",
      "quality",
      "assemble",
      "encode",
      "near",
      "documents",
      "write",
    ]);
    // Each step that does work on the sample took some time, measured apart.
    for (const step of [
      "read",
      "check",
      "assemble",
      "encode",
      "near",
      "documents",
      "write",
    ] as const)
      expect(steps[step], step).toBeGreaterThan(0);
    expect(parts.compressMs).toBeGreaterThan(0);
  });
});
