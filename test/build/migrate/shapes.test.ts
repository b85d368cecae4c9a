/**
 * Product content written to the later standard's shapes becomes what 2.2.1 defines
 * (open-data-api-v2.2-products.md, the corrections in its header), file by file, with its
 * comments and layout, and what 2.2.1 cannot say is refused at its line.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../build/core/diagnostics.js";
import { migrateText } from "../../../build/migrate/shapes.js";
import { NEW_PCA, OLD_PCA, oldPcaWith } from "../../helpers/old-shapes.js";

const FILE = "content/personal-current-accounts/zed-bank.yaml";
const SME_FILE = "content/unsecured-sme-loans/zed-bank.yaml";

function lines(diagnostics: readonly Parameters<typeof formatDiagnostic>[0][]): string[] {
  return diagnostics.map(formatDiagnostic);
}

describe("migrating one file", () => {
  it("writes a one-item Scheme list as its value and a one-item residency list as its object, keeping comments", () => {
    const migrated = migrateText(FILE, OLD_PCA);
    expect(migrated.text).toBe(NEW_PCA);
    expect(lines(migrated.changes)).toEqual([
      `${FILE}:14:13: /PCA/0/PCAMarketingState/0/Eligibility/ResidencyEligibility: wrote the one ResidencyEligibility as a set of fields`,
      `${FILE}:22:17: /PCA/0/PCAMarketingState/0/FeaturesAndBenefits/Card/0/Scheme: wrote Scheme as the one value "Visa"`,
    ]);
    expect(migrated.refusals).toEqual([]);
  });

  it("changes nothing in content that already has the 2.2.1 shapes", () => {
    expect(migrateText(FILE, NEW_PCA)).toEqual({ text: undefined, changes: [], refusals: [] });
  });

  it("leaves out an empty residency list, an optional field that says nothing", () => {
    const migrated = migrateText(FILE, oldPcaWith(13, 16, "          ResidencyEligibility: []"));
    expect(migrated.refusals).toEqual([]);
    expect(migrated.text).not.toContain("ResidencyEligibility");
    expect(migrated.text).toContain("# Where customers must live.");
  });

  describe("refuses, at the list's line and column, and rewrites nothing", () => {
    it.each([
      [
        "a Scheme list of two values",
        oldPcaWith(22, 22, '                - "Visa"', '                - "MasterCard"'),
        `${FILE}:22:17: /PCA/0/PCAMarketingState/0/FeaturesAndBenefits/Card/0/Scheme: Scheme lists 2 values ("Visa", "MasterCard") and 2.2.1 has one scheme per card, so no value is dropped here: describe each scheme's card as its own Card item, or keep only the scheme the card is issued on, then run this again`,
      ],
      [
        "an empty Scheme list",
        oldPcaWith(21, 22, "              Scheme: []"),
        `${FILE}:21:23: /PCA/0/PCAMarketingState/0/FeaturesAndBenefits/Card/0/Scheme: Scheme is an empty list and 2.2.1 needs the card's one scheme: write it, like Scheme: "Visa", then run this again`,
      ],
      [
        "a residency list of two",
        oldPcaWith(16, 16, '                - "GB"', '            - ResidencyIncluded: ["IE"]'),
        `${FILE}:14:13: /PCA/0/PCAMarketingState/0/Eligibility/ResidencyEligibility: ResidencyEligibility lists 2 items and 2.2.1 has one: merge them into one by hand (every country in its ResidencyIncluded), then run this again`,
      ],
    ])("%s", (_name, text, refusal) => {
      const migrated = migrateText(FILE, text);
      expect(migrated.text).toBeUndefined();
      expect(lines(migrated.refusals)).toEqual([refusal]);
    });

    it("a file that does not parse, with the parser's own problem", () => {
      const migrated = migrateText(FILE, "PCA:\n  - Name: [\n");
      expect(migrated.text).toBeUndefined();
      expect(migrated.refusals.map((d) => `${d.file} ${d.rule}`)).toEqual([`${FILE} yaml`]);
    });
  });

  describe("SME loan repayments", () => {
    const repayment = (...fields: string[]) =>
      [
        'BrandName: "Zed Bank"',
        "SMELoan:",
        '  - Name: "Zed Loan"',
        "    SMELoanMarketingState:",
        '      - Identification: "ZED-SME-1-REG"',
        "        Repayment:",
        ...fields,
        "",
      ].join("\n");

    it('leaves out RepaymentType "Other" when OtherRepaymentType says what it is', () => {
      const migrated = migrateText(
        SME_FILE,
        repayment(
          '          - RepaymentType: "Other"',
          "            OtherRepaymentType:",
          '              Name: "Seasonal"',
        ),
      );
      expect(migrated.text).toBe(
        repayment("          - OtherRepaymentType:", '              Name: "Seasonal"'),
      );
      expect(lines(migrated.changes)).toEqual([
        `${SME_FILE}:7:28: /SMELoan/0/SMELoanMarketingState/0/Repayment/0/RepaymentType: left out RepaymentType "Other", which 2.2.1 does not list; OtherRepaymentType says what it is`,
      ]);
    });

    it('keeps RepaymentType "Other" without a companion, which would lose what it says, for the build to report', () => {
      const text = repayment('          - RepaymentType: "Other"');
      expect(migrateText(SME_FILE, text)).toEqual({ text: undefined, changes: [], refusals: [] });
    });
  });
});
