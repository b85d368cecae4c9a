/**
 * `npm run migrate`: product content written to the later standard's shapes becomes what 2.2.1
 * defines (open-data-api-v2.2-products.md, the corrections in its header), in place, with its
 * comments and layout, and what 2.2.1 cannot say is refused at its line without writing anything.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../build/core/diagnostics.js";
import { migrateText } from "../../../build/migrate/shapes.js";
import { migrateContent } from "../../../build/migrate/run.js";
import { PROJECT_ROOT } from "../../../build/core/paths.js";
import { buildFixture, sampleFixture, snapshotFolder } from "../../helpers/fixtures.js";
import { ensureCompiled, runNode } from "../../helpers/cli.js";

const FILE = "content/personal-current-accounts/zed-bank.yaml";
const SME_FILE = "content/unsecured-sme-loans/zed-bank.yaml";

/** A PCA brand file in the old shapes, with comments that must survive. */
const OLD_PCA = [
  "# yaml-language-server: $schema=../../schemas/pca-brand.schema.json",
  "# Zed Bank personal current accounts.",
  'BrandName: "Zed Bank"',
  "PCA:",
  '  - Name: "Zed Everyday"',
  '    Identification: "ZED-PCA-1"',
  "    OnSaleIndicator: false",
  "    PCAMarketingState:",
  '      - Identification: "ZED-PCA-1-REG"',
  '        MarketingState: "Regular"',
  "        Eligibility:",
  "          # Where customers must live.",
  "          ResidencyEligibility:",
  '            - ResidencyType: "Householder"',
  "              ResidencyIncluded:",
  '                - "GB" # the United Kingdom',
  "        FeaturesAndBenefits:",
  "          Card:",
  '            - Type: "DebitCard"',
  "              # The scheme printed on the card.",
  "              Scheme:",
  '                - "Visa"',
  "              ContactlessIndicator: true",
  "",
].join("\n");

const NEW_PCA = [
  "# yaml-language-server: $schema=../../schemas/pca-brand.schema.json",
  "# Zed Bank personal current accounts.",
  'BrandName: "Zed Bank"',
  "PCA:",
  '  - Name: "Zed Everyday"',
  '    Identification: "ZED-PCA-1"',
  "    OnSaleIndicator: false",
  "    PCAMarketingState:",
  '      - Identification: "ZED-PCA-1-REG"',
  '        MarketingState: "Regular"',
  "        Eligibility:",
  "          # Where customers must live.",
  "          ResidencyEligibility:",
  '            ResidencyType: "Householder"',
  "            ResidencyIncluded:",
  '              - "GB" # the United Kingdom',
  "        FeaturesAndBenefits:",
  "          Card:",
  '            - Type: "DebitCard"',
  "              # The scheme printed on the card.",
  '              Scheme: "Visa"',
  "              ContactlessIndicator: true",
  "",
].join("\n");

/** OLD_PCA with lines `from` to `to` (1-based, inclusive) replaced by `lines`. */
function oldPcaWith(from: number, to: number, ...lines: string[]): string {
  const all = OLD_PCA.split("\n");
  return [...all.slice(0, from - 1), ...lines, ...all.slice(to)].join("\n");
}

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

describe("migrating a content folder", () => {
  it("rewrites old-shape files so that the sample content with them builds", async () => {
    const fixture = await sampleFixture({ "personal-current-accounts/zed-bank.yaml": OLD_PCA });
    try {
      expect((await buildFixture(fixture, { write: false })).ok).toBe(false);
      const result = await migrateContent({
        contentDir: fixture.content,
        cwd: fixture.root,
        dryRun: false,
      });
      expect(result.refusals).toEqual([]);
      expect(result.files).toEqual([FILE]);
      expect(result.written).toBe(true);
      const written = await readFile(
        join(fixture.content, "personal-current-accounts/zed-bank.yaml"),
        "utf8",
      );
      expect(written).toBe(NEW_PCA);
      const built = await buildFixture(fixture, { write: false });
      expect(built.diagnostics.map(formatDiagnostic)).toEqual([]);
      expect(built.ok).toBe(true);
    } finally {
      await fixture.cleanup();
    }
  });

  it("writes no file at all when one file holds a refusal", async () => {
    const twoSchemes = oldPcaWith(
      22,
      22,
      '                - "Visa"',
      '                - "MasterCard"',
    );
    const fixture = await sampleFixture({
      "personal-current-accounts/zed-bank.yaml": OLD_PCA,
      "personal-current-accounts/zed-two.yaml": twoSchemes.replace("Zed Bank", "Zed Two"),
    });
    try {
      const before = await snapshotFolder(fixture.content);
      const result = await migrateContent({
        contentDir: fixture.content,
        cwd: fixture.root,
        dryRun: false,
      });
      expect(result.refusals.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual([
        "content/personal-current-accounts/zed-two.yaml:22:17",
      ]);
      expect(result.written).toBe(false);
      expect(await snapshotFolder(fixture.content)).toEqual(before);
    } finally {
      await fixture.cleanup();
    }
  });
});

describe("npm run migrate", () => {
  const MIGRATE_CLI = join(PROJECT_ROOT, ".out/build/cli/migrate.js");
  beforeAll(ensureCompiled, 120_000);

  it("says what it rewrote, exits 0, and says there is nothing to do the second time", async () => {
    const fixture = await sampleFixture({ "personal-current-accounts/zed-bank.yaml": OLD_PCA });
    try {
      const first = await runNode(MIGRATE_CLI, ["--content", "content"], { cwd: fixture.root });
      expect(first.code).toBe(0);
      expect(first.stdout.trim().split("\n").at(-1)).toBe(
        "migrate: rewrote 1 file; run npm run validate to check them",
      );
      const second = await runNode(MIGRATE_CLI, ["--content", "content"], { cwd: fixture.root });
      expect(second).toEqual({
        code: 0,
        stdout: "migrate: the content already has the 2.2.1 shapes; nothing to do\n",
        stderr: "",
      });
    } finally {
      await fixture.cleanup();
    }
  });

  it("exits 1 on a Scheme list of two values, at its file, line and column, having written nothing", async () => {
    const twoSchemes = oldPcaWith(
      22,
      22,
      '                - "Visa"',
      '                - "MasterCard"',
    );
    const fixture = await sampleFixture({ "personal-current-accounts/zed-bank.yaml": twoSchemes });
    try {
      const run = await runNode(MIGRATE_CLI, ["--content", "content"], { cwd: fixture.root });
      expect(run.code).toBe(1);
      const errors = run.stderr.trim().split("\n");
      expect(errors[0]).toMatch(/^content\/personal-current-accounts\/zed-bank\.yaml:22:17: /);
      expect(errors.at(-1)).toBe("migrate: 1 problem to fix by hand first; no file was written");
      const text = await readFile(
        join(fixture.content, "personal-current-accounts/zed-bank.yaml"),
        "utf8",
      );
      expect(text).toBe(twoSchemes);
    } finally {
      await fixture.cleanup();
    }
  });

  it("answers an unknown option with its usage and exit code 2", async () => {
    const run = await runNode(MIGRATE_CLI, ["--frobnicate"], { cwd: PROJECT_ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("usage: npm run migrate");
  });
});
