/**
 * Data quality through a real build (build/pipeline.ts, steps 1 to 10, no cache): the end-to-end
 * checks, two builds. A finding publishes anyway and is told at the file, line and column of its
 * value; a rule site.yaml's QualityErrors lists fails the build and leaves dist/ as it was. Every
 * rule's own cases, and QualityErrors' "all", run on the functions a build runs without the rest
 * of it (the other files here).
 */
import { readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../build/core/paths.js";
import { buildFixture, sampleFixture, digestFolder, type Fixture } from "../../helpers/fixtures.js";
import { BRANCHES_SHOWN, QUALITY_BRANCHES, at, branch, brandFile } from "../../helpers/quality.js";

// The build's "today" in these tests.
const NOW = () => new Date("2026-11-24T12:00:00Z");

describe("data quality in the build", () => {
  let fixture: Fixture;
  const badPostcode = brandFile("Branch", [branch("QB-1", [], "qb11aa")]);

  beforeAll(async () => {
    fixture = await sampleFixture();
  });
  afterAll(() => fixture?.cleanup());

  it("publishes despite a warning, told at the file, line and column of its value and counted by rule and data set; the sample gives none", async () => {
    await fixture.put({ [QUALITY_BRANCHES]: badPostcode });
    const result = await buildFixture(fixture, { now: NOW });
    expect(result.ok).toBe(true);
    expect(result.quality.counts).toEqual([
      { rule: "postcode-format", dataset: "branches", count: 1 },
    ]);
    const { line, column } = at(badPostcode, '"qb11aa"');
    expect(result.quality.warnings).toEqual([
      {
        file: BRANCHES_SHOWN,
        line,
        column,
        pointer: "/Branch/0/PostalAddress/PostCode",
        rule: "postcode-format",
        severity: "warning",
        message:
          'PostCode "qb11aa" is not in the Royal Mail format (like "SW1A 1AA"); write it "QB1 1AA"',
      },
    ]);
  });

  it("fails when site.yaml's QualityErrors lists the rule, and leaves dist/ as it was", async () => {
    const before = await readlink(fixture.out);
    const digests = () => digestFolder(join(fixture.root, before));
    const files = await digests();
    const site = await readFile(join(PROJECT_ROOT, "content", "site.yaml"), "utf8");
    await fixture.put({ "site.yaml": `${site}QualityErrors: ["postcode-format"]\n` });
    const result = await buildFixture(fixture, { now: NOW });
    expect(result.ok).toBe(false);
    const { line, column } = at(badPostcode, '"qb11aa"');
    expect(result.diagnostics.map((d) => [d.rule, d.file, d.line, d.column, d.severity])).toEqual([
      ["postcode-format", BRANCHES_SHOWN, line, column, undefined],
    ]);
    expect(await readlink(fixture.out)).toBe(before);
    expect(await digests()).toEqual(files);
  });
});
