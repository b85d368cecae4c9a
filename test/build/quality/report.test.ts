/** How findings are told (build/quality/report.ts): the summary lines and the --quality Markdown. */
import { describe, expect, it } from "vitest";
import { qualityMarkdown, qualitySummary } from "../../../build/quality/report.js";

describe("the data-quality report", () => {
  const finding = {
    file: "content/atms/a.yaml",
    line: 7,
    column: 9,
    pointer: "/ATM/0/Location/PostalAddress/PostCode",
    message: 'PostCode "x" is not in the Royal Mail format',
    rule: "postcode-format",
    severity: "warning" as const,
  };
  const counts = [{ rule: "postcode-format", dataset: "atms", count: 1 }];

  it("sums up per rule and data set, and says so when there is nothing", () => {
    expect(qualitySummary(counts)[1]).toMatch(/^\s+1\s+postcode-format\s+atms$/);
    expect(qualitySummary([])).toEqual(["Data quality: no warnings."]);
  });

  it("writes Markdown with the counts, what each rule looks for, and each finding at file:line:column", () => {
    const markdown = qualityMarkdown(counts, [finding]);
    expect(markdown).toContain(
      "| `postcode-format` | atms | 1 | a `PostCode` for Country GB, GG, JE or IM not in the Royal Mail format",
    );
    expect(markdown).toContain(
      '- `content/atms/a.yaml:7:9: warning: /ATM/0/Location/PostalAddress/PostCode: PostCode "x" is not in the Royal Mail format [postcode-format]`',
    );
  });

  it("says every rule passes when there is no finding", () => {
    expect(qualityMarkdown([], [])).toContain("No findings: every data-quality rule passes.");
  });
});
