/**
 * The pass across files (build/quality/pass.ts): every rule on the sample content and crafted
 * brands, the findings split into warnings and the errors site.yaml's QualityErrors asks for, and
 * counted per rule and data set.
 */
import { describe, expect, it } from "vitest";
import {
  BRANCHES_SHOWN,
  QUALITY_ATMS,
  QUALITY_BRANCHES,
  atm,
  branch,
  brandFile,
  qualityOf,
} from "../../helpers/quality.js";

// Two findings of two rules in two data sets: a postcode out of format, a Country "UK".
const files = {
  [QUALITY_BRANCHES]: brandFile("Branch", [branch("QB-1", [], "qb11aa")]),
  [QUALITY_ATMS]: brandFile("ATM", [
    atm("QA-1", ['Country: "UK"']),
    atm("QA-2", ['Country: "UK"']),
  ]),
};

describe("the data-quality pass", () => {
  it("finds nothing in the sample content", async () => {
    const result = await qualityOf({});
    expect(result).toEqual({ warnings: [], errors: [], counts: [] });
  });

  it("warns, counting per rule and data set", async () => {
    const result = await qualityOf(files);
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => [w.rule, w.severity])).toEqual([
      ["postcode-format", "warning"],
      ["country-code", "warning"],
    ]);
    expect(result.counts).toEqual([
      { rule: "country-code", dataset: "atms", count: 1 },
      { rule: "postcode-format", dataset: "branches", count: 1 },
    ]);
  });

  it("makes the findings of the rules QualityErrors lists errors, saying why, and leaves the others warnings", async () => {
    const result = await qualityOf(files, { asErrors: ["postcode-format"] });
    expect(result.warnings.map((w) => w.rule)).toEqual(["country-code"]);
    expect(result.errors).toEqual([
      {
        file: BRANCHES_SHOWN,
        line: 8,
        column: 17,
        pointer: "/Branch/0/PostalAddress/PostCode",
        rule: "postcode-format",
        message:
          'PostCode "qb11aa" is not in the Royal Mail format (like "SW1A 1AA"); write it "QB1 1AA" (QualityErrors in site.yaml makes this an error)',
      },
    ]);
    expect(result.counts).toHaveLength(2);
  });

  it("makes every finding an error with QualityErrors all", async () => {
    const result = await qualityOf(files, { asErrors: ["all"] });
    expect(result.warnings).toEqual([]);
    expect(result.errors.map((e) => e.rule)).toEqual(["postcode-format", "country-code"]);
  });
});
