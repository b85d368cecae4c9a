/**
 * The four product schemas (open-data-api-v2.2-products.md) as an editor meets them: a small valid
 * brand file per data set is broken in exactly one place, and the build's report for it is
 * checked word for word, file:line:column and JSON pointer included. One case per rule family
 * (length, enum, pattern, required, extra field, item count, date, number or integer, boolean)
 * for each schema; the limits and value lists in the expected messages are the spec's own.
 */
import { describe, expect, it } from "vitest";
import { checkFile } from "../../build/check/one-file.js";
import { DATASETS, type DatasetId } from "../../build/core/datasets.js";
import { formatDiagnostic } from "../../build/core/diagnostics.js";
import { validatorFor } from "../../build/check/schemas.js";
import { buildFixture, sampleFixture } from "../helpers/fixtures.js";
import { warmCache } from "../helpers/sample-build.js";
import { schemaAjv } from "../helpers/schemas.js";

const ajv = schemaAjv();

/** The report for one brand file of data set `id`, as `npm run validate` prints it. */
function report(id: DatasetId, lines: readonly string[]): string[] {
  const dataset = DATASETS.find((d) => d.id === id)!;
  const file = `content/${dataset.contentDir}/zed-bank.yaml`;
  const checked = checkFile(file, `${lines.join("\n")}\n`, {
    validate: validatorFor(ajv, dataset.brandSchema),
    recordsKey: dataset.recordsKey,
    identity: dataset.identity,
  });
  return checked.diagnostics.map(formatDiagnostic);
}

/** `lines` with lines `from` to `to` (1-based, inclusive) replaced by `replacement`. */
function edit(
  lines: readonly string[],
  from: number,
  to: number,
  ...replacement: string[]
): string[] {
  return [...lines.slice(0, from - 1), ...replacement, ...lines.slice(to)];
}

/** `lines` with `added` inserted after line `after`. */
function insert(lines: readonly string[], after: number, ...added: string[]): string[] {
  return [...lines.slice(0, after), ...added, ...lines.slice(after)];
}

// Minimal valid brand files. Line numbers in the cases below refer to these.
const PCA = [
  /*  1 */ 'BrandName: "Zed Bank"',
  /*  2 */ "PCA:",
  /*  3 */ '  - Name: "Zed Everyday"',
  /*  4 */ '    Identification: "ZED-PCA-1"',
  /*  5 */ '    Segment: ["General"]',
  /*  6 */ "    OnSaleIndicator: true",
  /*  7 */ "    PCAMarketingState:",
  /*  8 */ '      - Identification: "ZED-PCA-1-REG"',
  /*  9 */ '        MarketingState: "Regular"',
  /* 10 */ '        FirstMarketedDate: "2026-01-01"',
  /* 11 */ "        StateTenureLength: 12",
  /* 12 */ '        StateTenurePeriod: "Month"',
  /* 13 */ "        OtherFeesCharges:",
  /* 14 */ "          FeeChargeDetail:",
  /* 15 */ '            - FeeCategory: "Servicing"',
  /* 16 */ '              FeeType: "ServiceCAccountFeeMonthly"',
  /* 17 */ '              FeeAmount: "0.00"',
  /* 18 */ '              ApplicationFrequency: "Monthly"',
  /* 19 */ '              CalculationFrequency: "Monthly"',
  /* 20 */ "        CoreProduct:",
  /* 21 */ '          MonthlyMaximumCharge: "20.00"',
];

const BCA = [
  /*  1 */ 'BrandName: "Zed Bank"',
  /*  2 */ "BCA:",
  /*  3 */ '  - Name: "Zed Business"',
  /*  4 */ '    Identification: "ZED-BCA-1"',
  /*  5 */ '    Segment: ["Standard"]',
  /*  6 */ "    OnSaleIndicator: true",
  /*  7 */ "    FeeFreeLength: 12",
  /*  8 */ '    FeeFreeLengthPeriod: "Month"',
  /*  9 */ "    BCAMarketingState:",
  /* 10 */ '      - Identification: "ZED-BCA-1-REG"',
  /* 11 */ '        MarketingState: "Regular"',
  /* 12 */ '        FirstMarketedDate: "2026-01-01"',
  /* 13 */ "        Eligibility:",
  /* 14 */ "          OfficerEligibility:",
  /* 15 */ '            - OfficerType: "Director"',
  /* 16 */ "              MinAmount: 1",
  /* 17 */ "        OtherFeesCharges:",
  /* 18 */ '          - TariffType: "Electronic"',
  /* 19 */ "            FeeChargeDetail:",
  /* 20 */ '              - FeeCategory: "Servicing"',
  /* 21 */ '                FeeType: "ServiceCAccountFeeMonthly"',
  /* 22 */ '                FeeAmount: "6.50"',
  /* 23 */ '                ApplicationFrequency: "Monthly"',
  /* 24 */ '                CalculationFrequency: "Monthly"',
];

const SME = [
  /*  1 */ 'BrandName: "Zed Bank"',
  /*  2 */ "SMELoan:",
  /*  3 */ '  - Name: "Zed Loan"',
  /*  4 */ '    Identification: "ZED-SME-1"',
  /*  5 */ '    Segment: ["Business"]',
  /*  6 */ "    SMELoanMarketingState:",
  /*  7 */ '      - Identification: "ZED-SME-1-REG"',
  /*  8 */ '        MarketingState: "Regular"',
  /*  9 */ '        FirstMarketedDate: "2026-01-01"',
  /* 10 */ "        LoanInterest:",
  /* 11 */ "          LoanInterestTierBandSet:",
  /* 12 */ '            - TierBandMethod: "Whole"',
  /* 13 */ '              CalculationMethod: "Compound"',
  /* 14 */ "              LoanInterestTierBand:",
  /* 15 */ '                - TierValueMinimum: "1000.00"',
  /* 16 */ "                  TierValueMinTerm: 1",
  /* 17 */ '                  MinTermPeriod: "Year"',
  /* 18 */ '                  FixedVariableInterestRateType: "Fixed"',
  /* 19 */ '                  RepAPR: "7.9"',
  /* 20 */ "        Repayment:",
  /* 21 */ '          - RepaymentType: "CapitalAndInterest"',
  /* 22 */ "        Eligibility:",
  /* 23 */ "          OfficerEligibility:",
  /* 24 */ '            - OfficerType: "Director"',
  /* 25 */ "              MaxAmount: 4",
  /* 26 */ "        FeaturesAndBenefits: {}",
  /* 27 */ "        CoreProduct:",
  /* 28 */ '          ProductURL: "https://www.zed.example/loan"',
  /* 29 */ '          TcsAndCsURL: "https://www.zed.example/loan/terms"',
  /* 30 */ '          SalesAccessChannels: ["Online"]',
  /* 31 */ '          ServicingAccessChannels: ["Online"]',
  /* 32 */ "          EarlyPaymentFeeApplicable: true",
  /* 33 */ "          OverPaymentFeeApplicable: false",
  /* 34 */ '          LoanApplicationFeeChargeType: "NoLoanApplicationFee"',
];

const CCC = [
  /*  1 */ 'BrandName: "Zed Bank"',
  /*  2 */ "CCC:",
  /*  3 */ '  - Name: "Zed Card"',
  /*  4 */ '    Identification: "ZED-CCC-1"',
  /*  5 */ '    Segment: ["General"]',
  /*  6 */ "    CCCMarketingState:",
  /*  7 */ '      - Identification: "ZED-CCC-1-REG"',
  /*  8 */ '        MarketingState: "Regular"',
  /*  9 */ '        FirstMarketedDate: "2026-01-01"',
  /* 10 */ "        Eligibility: {}",
  /* 11 */ "        FeaturesAndBenefits: {}",
  /* 12 */ "        OtherFeesCharges:",
  /* 13 */ "          FeeChargeDetail:",
  /* 14 */ '            - FeeCategory: "Servicing"',
  /* 15 */ '              FeeType: "Maintenance"',
  /* 16 */ '              FeeAmount: "0.00"',
  /* 17 */ '              ApplicationFrequency: "Yearly"',
  /* 18 */ '              CalculationFrequency: "Yearly"',
  /* 19 */ "        CoreProduct:",
  /* 20 */ '          ProductURL: "https://www.zed.example/card"',
  /* 21 */ '          TcsAndCsURL: "https://www.zed.example/card/terms"',
  /* 22 */ "          MaxPurchaseInterestFreeLengthDays: 56",
  /* 23 */ '          SalesAccessChannels: ["Online"]',
  /* 24 */ '          ServicingAccessChannels: ["Online"]',
  /* 25 */ '          CardScheme: ["Visa"]',
  /* 26 */ "          ContactlessIndicator: true",
  /* 27 */ '          APR: "19.9"',
];

const AMOUNT_RULE =
  "must be an amount of up to 14 digits, optionally with a dot and 1 to 4 decimal places, like 0.00 or 2500 (write it in quotes)";
const RATE_RULE =
  "must be a percentage of up to 3 digits, optionally with a dot and 1 to 4 decimal places, like 1.25 (write it in quotes, without a % sign)";

/**
 * [rule family, what the case does, the broken file, the report]. A report is one line, except
 * for a fraction where the spec wants an int32: ajv fails both the type and the int32 format.
 */
type Case = readonly [string, string, readonly string[], string | readonly string[]];

const MATRIX: readonly (readonly [DatasetId, readonly string[], readonly Case[]])[] = [
  [
    "personal-current-accounts",
    PCA,
    [
      [
        "length",
        "rejects a product Identification of 36 characters",
        edit(PCA, 4, 4, `    Identification: "${"P".repeat(36)}"`),
        "content/personal-current-accounts/zed-bank.yaml:4:21: /PCA/0/Identification: must be at most 35 characters long (it has 36)",
      ],
      [
        "enum",
        "rejects a StateTenurePeriod of HalfYear and suggests Half Year",
        edit(PCA, 12, 12, '        StateTenurePeriod: "HalfYear"'),
        'content/personal-current-accounts/zed-bank.yaml:12:28: /PCA/0/PCAMarketingState/0/StateTenurePeriod: must be one of Day, Half Year, Month, Quarter, Week, AcademicTerm, Year (found "HalfYear"); did you mean "Half Year"?',
      ],
      [
        "pattern",
        "rejects a fee amount written with a pound sign",
        edit(PCA, 17, 17, '              FeeAmount: "£0.00"'),
        `content/personal-current-accounts/zed-bank.yaml:17:26: /PCA/0/PCAMarketingState/0/OtherFeesCharges/FeeChargeDetail/0/FeeAmount: ${AMOUNT_RULE} (found "£0.00")`,
      ],
      [
        "required",
        "rejects a marketing state without MarketingState, at the marketing state",
        edit(PCA, 9, 9),
        'content/personal-current-accounts/zed-bank.yaml:8:9: /PCA/0/PCAMarketingState/0/MarketingState: required field "MarketingState" is missing',
      ],
      [
        "extra field",
        "rejects a field the spec does not list on a product, at its key",
        insert(PCA, 6, '    MonthlyFee: "5.00"'),
        'content/personal-current-accounts/zed-bank.yaml:7:5: /PCA/0/MonthlyFee: "MonthlyFee" is not a field here; the fields allowed here are Name, Identification, Segment, OnSaleIndicator, Notes, PCAMarketingState',
      ],
      [
        "item count",
        "rejects a product without marketing states",
        edit(PCA, 7, 21, "    PCAMarketingState: []"),
        "content/personal-current-accounts/zed-bank.yaml:7:24: /PCA/0/PCAMarketingState: must list at least 1 item (it has 0)",
      ],
      [
        "date",
        "rejects a FirstMarketedDate of 30 February",
        edit(PCA, 10, 10, '        FirstMarketedDate: "2026-02-30"'),
        'content/personal-current-accounts/zed-bank.yaml:10:28: /PCA/0/PCAMarketingState/0/FirstMarketedDate: must be a date as YYYY-MM-DD, like 2026-01-31 (found "2026-02-30")',
      ],
      [
        "number",
        "rejects a StateTenureLength written as text",
        edit(PCA, 11, 11, '        StateTenureLength: "12"'),
        'content/personal-current-accounts/zed-bank.yaml:11:28: /PCA/0/PCAMarketingState/0/StateTenureLength: must be a number (found "12")',
      ],
      [
        "boolean",
        'rejects OnSaleIndicator "yes"',
        edit(PCA, 6, 6, '    OnSaleIndicator: "yes"'),
        'content/personal-current-accounts/zed-bank.yaml:6:22: /PCA/0/OnSaleIndicator: must be true or false (found "yes"; write true or false without quotes)',
      ],
    ],
  ],
  [
    "business-current-accounts",
    BCA,
    [
      [
        "length",
        "rejects a marketing state Identification of 36 characters",
        edit(BCA, 10, 10, `      - Identification: "${"M".repeat(36)}"`),
        "content/business-current-accounts/zed-bank.yaml:10:25: /BCA/0/BCAMarketingState/0/Identification: must be at most 35 characters long (it has 36)",
      ],
      [
        "enum",
        "rejects a TariffType outside Electronic, Mixed, Other",
        edit(BCA, 18, 18, '          - TariffType: "Paper"'),
        'content/business-current-accounts/zed-bank.yaml:18:25: /BCA/0/BCAMarketingState/0/OtherFeesCharges/0/TariffType: must be one of Electronic, Mixed, Other (found "Paper")',
      ],
      [
        "pattern",
        "rejects a fee amount with a decimal comma",
        edit(BCA, 22, 22, '                FeeAmount: "6,50"'),
        `content/business-current-accounts/zed-bank.yaml:22:28: /BCA/0/BCAMarketingState/0/OtherFeesCharges/0/FeeChargeDetail/0/FeeAmount: ${AMOUNT_RULE} (found "6,50")`,
      ],
      [
        "required",
        "rejects a tariff without FeeChargeDetail, at the tariff",
        edit(BCA, 19, 24),
        'content/business-current-accounts/zed-bank.yaml:18:13: /BCA/0/BCAMarketingState/0/OtherFeesCharges/0/FeeChargeDetail: required field "FeeChargeDetail" is missing',
      ],
      [
        "extra field",
        "rejects an age limit written into an officer requirement",
        insert(BCA, 16, "              MinimumAge: 18"),
        'content/business-current-accounts/zed-bank.yaml:17:15: /BCA/0/BCAMarketingState/0/Eligibility/OfficerEligibility/0/MinimumAge: "MinimumAge" is not a field here; the fields allowed here are OfficerType, MinAmount, MaxAmount, Notes, OtherOfficerType',
      ],
      [
        "item count",
        "rejects a tariff with an empty FeeChargeDetail list",
        edit(BCA, 19, 24, "            FeeChargeDetail: []"),
        "content/business-current-accounts/zed-bank.yaml:19:30: /BCA/0/BCAMarketingState/0/OtherFeesCharges/0/FeeChargeDetail: must list at least 1 item (it has 0)",
      ],
      [
        "date",
        "rejects a FirstMarketedDate in month 13",
        edit(BCA, 12, 12, '        FirstMarketedDate: "2026-13-01"'),
        'content/business-current-accounts/zed-bank.yaml:12:28: /BCA/0/BCAMarketingState/0/FirstMarketedDate: must be a date as YYYY-MM-DD, like 2026-01-31 (found "2026-13-01")',
      ],
      [
        "integer",
        "rejects half an officer (MinAmount 1.5)",
        edit(BCA, 16, 16, "              MinAmount: 1.5"),
        [
          "content/business-current-accounts/zed-bank.yaml:16:26: /BCA/0/BCAMarketingState/0/Eligibility/OfficerEligibility/0/MinAmount: must be a whole number (found 1.5)",
          "content/business-current-accounts/zed-bank.yaml:16:26: /BCA/0/BCAMarketingState/0/Eligibility/OfficerEligibility/0/MinAmount: must be a whole number from -2147483648 to 2147483647 (found 1.5)",
        ],
      ],
      [
        "number",
        "rejects a FeeFreeLength written as text",
        edit(BCA, 7, 7, '    FeeFreeLength: "12"'),
        'content/business-current-accounts/zed-bank.yaml:7:20: /BCA/0/FeeFreeLength: must be a number (found "12")',
      ],
      [
        "boolean",
        'rejects OnSaleIndicator "true" in quotes',
        edit(BCA, 6, 6, '    OnSaleIndicator: "true"'),
        'content/business-current-accounts/zed-bank.yaml:6:22: /BCA/0/OnSaleIndicator: must be true or false (found "true"; write true or false without quotes)',
      ],
    ],
  ],
  [
    "unsecured-sme-loans",
    SME,
    [
      [
        "length",
        "rejects a ProductURL of 501 characters",
        edit(SME, 28, 28, `          ProductURL: "https://${"u".repeat(493)}"`),
        "content/unsecured-sme-loans/zed-bank.yaml:28:23: /SMELoan/0/SMELoanMarketingState/0/CoreProduct/ProductURL: must be at most 500 characters long (it has 501)",
      ],
      [
        "enum",
        "rejects a loan term counted in academic terms (the SME list has no AcademicTerm)",
        edit(SME, 17, 17, '                  MinTermPeriod: "AcademicTerm"'),
        'content/unsecured-sme-loans/zed-bank.yaml:17:34: /SMELoan/0/SMELoanMarketingState/0/LoanInterest/LoanInterestTierBandSet/0/LoanInterestTierBand/0/MinTermPeriod: must be one of Day, Half Year, Month, Quarter, Week, Year (found "AcademicTerm")',
      ],
      [
        "pattern",
        "rejects a RepAPR with a percent sign",
        edit(SME, 19, 19, '                  RepAPR: "7.9%"'),
        `content/unsecured-sme-loans/zed-bank.yaml:19:27: /SMELoan/0/SMELoanMarketingState/0/LoanInterest/LoanInterestTierBandSet/0/LoanInterestTierBand/0/RepAPR: ${RATE_RULE} (found "7.9%")`,
      ],
      [
        "required",
        "rejects a core product without LoanApplicationFeeChargeType, at the core product",
        edit(SME, 34, 34),
        'content/unsecured-sme-loans/zed-bank.yaml:28:11: /SMELoan/0/SMELoanMarketingState/0/CoreProduct/LoanApplicationFeeChargeType: required field "LoanApplicationFeeChargeType" is missing',
      ],
      [
        "extra field",
        "rejects OnSaleIndicator, which an SME loan does not have",
        insert(SME, 5, "    OnSaleIndicator: true"),
        'content/unsecured-sme-loans/zed-bank.yaml:6:5: /SMELoan/0/OnSaleIndicator: "OnSaleIndicator" is not a field here; the fields allowed here are Name, Identification, Segment, OtherSegment, SMELoanMarketingState',
      ],
      [
        "item count",
        "rejects an empty Segment list",
        edit(SME, 5, 5, "    Segment: []"),
        "content/unsecured-sme-loans/zed-bank.yaml:5:14: /SMELoan/0/Segment: must list at least 1 item (it has 0)",
      ],
      [
        "date",
        "rejects a FirstMarketedDate written day first",
        edit(SME, 9, 9, '        FirstMarketedDate: "01/01/2026"'),
        'content/unsecured-sme-loans/zed-bank.yaml:9:28: /SMELoan/0/SMELoanMarketingState/0/FirstMarketedDate: must be a date as YYYY-MM-DD, like 2026-01-31 (found "01/01/2026")',
      ],
      [
        "integer",
        "rejects MaxAmount 4.5 officers",
        edit(SME, 25, 25, "              MaxAmount: 4.5"),
        [
          "content/unsecured-sme-loans/zed-bank.yaml:25:26: /SMELoan/0/SMELoanMarketingState/0/Eligibility/OfficerEligibility/0/MaxAmount: must be a whole number (found 4.5)",
          "content/unsecured-sme-loans/zed-bank.yaml:25:26: /SMELoan/0/SMELoanMarketingState/0/Eligibility/OfficerEligibility/0/MaxAmount: must be a whole number from -2147483648 to 2147483647 (found 4.5)",
        ],
      ],
      [
        "number",
        "rejects a TierValueMinTerm written as text",
        edit(SME, 16, 16, '                  TierValueMinTerm: "1"'),
        'content/unsecured-sme-loans/zed-bank.yaml:16:37: /SMELoan/0/SMELoanMarketingState/0/LoanInterest/LoanInterestTierBandSet/0/LoanInterestTierBand/0/TierValueMinTerm: must be a number (found "1")',
      ],
      [
        "boolean",
        'rejects EarlyPaymentFeeApplicable "no"',
        edit(SME, 32, 32, '          EarlyPaymentFeeApplicable: "no"'),
        'content/unsecured-sme-loans/zed-bank.yaml:32:38: /SMELoan/0/SMELoanMarketingState/0/CoreProduct/EarlyPaymentFeeApplicable: must be true or false (found "no"; write true or false without quotes)',
      ],
    ],
  ],
  [
    "commercial-credit-cards",
    CCC,
    [
      [
        "length",
        "rejects a product Name of 351 characters",
        edit(CCC, 3, 3, `  - Name: "${"N".repeat(351)}"`),
        "content/commercial-credit-cards/zed-bank.yaml:3:11: /CCC/0/Name: must be at most 350 characters long (it has 351)",
      ],
      [
        "enum",
        "rejects MasterCard, which the CCC list spells Mastercard",
        edit(CCC, 25, 25, '          CardScheme: ["MasterCard"]'),
        'content/commercial-credit-cards/zed-bank.yaml:25:24: /CCC/0/CCCMarketingState/0/CoreProduct/CardScheme/0: must be one of Mastercard, Other, Visa (found "MasterCard"); did you mean "Mastercard"?',
      ],
      [
        "pattern",
        "rejects an APR with a decimal comma",
        edit(CCC, 27, 27, '          APR: "19,9"'),
        `content/commercial-credit-cards/zed-bank.yaml:27:16: /CCC/0/CCCMarketingState/0/CoreProduct/APR: ${AMOUNT_RULE} (found "19,9")`,
      ],
      [
        "required",
        "rejects a core product without APR, at the core product",
        edit(CCC, 27, 27),
        'content/commercial-credit-cards/zed-bank.yaml:20:11: /CCC/0/CCCMarketingState/0/CoreProduct/APR: required field "APR" is missing',
      ],
      [
        "extra field",
        "rejects CreditInterest, which a card's marketing state does not have",
        insert(CCC, 9, "        CreditInterest: {}"),
        'content/commercial-credit-cards/zed-bank.yaml:10:9: /CCC/0/CCCMarketingState/0/CreditInterest: "CreditInterest" is not a field here; the fields allowed here are Identification, PredecessorID, MarketingState, FirstMarketedDate, LastMarketedDate, StateTenureLength, StateTenurePeriod, Notes, Repayment, Eligibility, FeaturesAndBenefits, OtherFeesCharges, CoreProduct',
      ],
      [
        "item count",
        "rejects an empty CardScheme list",
        edit(CCC, 25, 25, "          CardScheme: []"),
        "content/commercial-credit-cards/zed-bank.yaml:25:23: /CCC/0/CCCMarketingState/0/CoreProduct/CardScheme: must list at least 1 item (it has 0)",
      ],
      [
        "date",
        "rejects a FirstMarketedDate without leading zeros",
        edit(CCC, 9, 9, '        FirstMarketedDate: "2026-1-5"'),
        'content/commercial-credit-cards/zed-bank.yaml:9:28: /CCC/0/CCCMarketingState/0/FirstMarketedDate: must be a date as YYYY-MM-DD, like 2026-01-31 (found "2026-1-5")',
      ],
      [
        "integer",
        "rejects an interest-free period of 56.5 days",
        edit(CCC, 22, 22, "          MaxPurchaseInterestFreeLengthDays: 56.5"),
        [
          "content/commercial-credit-cards/zed-bank.yaml:22:46: /CCC/0/CCCMarketingState/0/CoreProduct/MaxPurchaseInterestFreeLengthDays: must be a whole number (found 56.5)",
          "content/commercial-credit-cards/zed-bank.yaml:22:46: /CCC/0/CCCMarketingState/0/CoreProduct/MaxPurchaseInterestFreeLengthDays: must be a whole number from -2147483648 to 2147483647 (found 56.5)",
        ],
      ],
      [
        "boolean",
        'rejects ContactlessIndicator "yes"',
        edit(CCC, 26, 26, '          ContactlessIndicator: "yes"'),
        'content/commercial-credit-cards/zed-bank.yaml:26:33: /CCC/0/CCCMarketingState/0/CoreProduct/ContactlessIndicator: must be true or false (found "yes"; write true or false without quotes)',
      ],
    ],
  ],
];

describe.each(MATRIX)("the %s schema", (id, valid, cases) => {
  it("accepts the minimal brand file the cases start from", () => {
    expect(report(id, valid)).toEqual([]);
  });

  describe.each(cases)("%s", (_family, _name, lines, expected) => {
    it(`${_name}`, () => {
      expect(report(id, lines)).toEqual(typeof expected === "string" ? [expected] : expected);
    });
  });
});

describe("PCA content written in the old shape", () => {
  // open-data-api-v2.2-products.md: these six objects are fields of each PCAMarketingState item.
  it.each([
    "CreditInterest",
    "Overdraft",
    "Eligibility",
    "FeaturesAndBenefits",
    "OtherFeesCharges",
    "CoreProduct",
  ])("says where %s now belongs, at its line on the product", (field) => {
    expect(report("personal-current-accounts", insert(PCA, 6, `    ${field}: {}`))).toEqual([
      `content/personal-current-accounts/zed-bank.yaml:7:5: /PCA/0/${field}: "${field}" now belongs in each marketing state: move it under PCAMarketingState (the standard's structure, open-data-api-v2.2-products.md)`,
    ]);
  });

  it("still calls a field that never belonged to a product not a field here", () => {
    expect(report("personal-current-accounts", insert(PCA, 6, "    Cashback: {}"))).toEqual([
      'content/personal-current-accounts/zed-bank.yaml:7:5: /PCA/0/Cashback: "Cashback" is not a field here; the fields allowed here are Name, Identification, Segment, OnSaleIndicator, Notes, PCAMarketingState',
    ]);
  });

  it("does not send a business account's stray Overdraft to PCAMarketingState", () => {
    expect(report("business-current-accounts", insert(BCA, 8, "    Overdraft: {}"))).toEqual([
      'content/business-current-accounts/zed-bank.yaml:9:5: /BCA/0/Overdraft: "Overdraft" is not a field here; the fields allowed here are Name, Identification, Segment, OnSaleIndicator, FeeFreeLength, FeeFreeLengthPeriod, Notes, BCAMarketingState',
    ]);
  });

  it("fails the build of the sample content with the moved message at the old field's line", async () => {
    const oldShape = [
      "# yaml-language-server: $schema=../../schemas/pca-brand.schema.json",
      'BrandName: "Zed Bank"',
      "PCA:",
      '  - Name: "Zed Everyday"',
      '    Identification: "ZED-PCA-1"',
      "    PCAMarketingState:",
      '      - Identification: "ZED-PCA-1-REG"',
      '        MarketingState: "Regular"',
      "        OtherFeesCharges:",
      "          FeeChargeDetail:",
      '            - FeeCategory: "Servicing"',
      '              FeeType: "ServiceCAccountFeeMonthly"',
      '              ApplicationFrequency: "Monthly"',
      '              CalculationFrequency: "Monthly"',
      "    CreditInterest:",
      "      TierBandSet:",
      '        - TierBandMethod: "Whole"',
      "          TierBand:",
      '            - TierValueMinimum: "0"',
      '              CalculationFrequency: "Daily"',
      '              ApplicationFrequency: "Yearly"',
      '              FixedVariableInterestRateType: "Variable"',
      '              AER: "0.50"',
      "",
    ].join("\n");
    const fixture = await sampleFixture({ "personal-current-accounts/zed-bank.yaml": oldShape });
    try {
      const result = await buildFixture(fixture, { write: false, cacheDir: await warmCache() });
      expect(result.diagnostics.map(formatDiagnostic)).toEqual([
        `content/personal-current-accounts/zed-bank.yaml:15:5: /PCA/0/CreditInterest: "CreditInterest" now belongs in each marketing state: move it under PCAMarketingState (the standard's structure, open-data-api-v2.2-products.md)`,
      ]);
    } finally {
      await fixture.cleanup();
    }
  });
});

describe("the shapes 2.2.1 defines where later versions differ (open-data-api-v2.2-products.md)", () => {
  const PCA_FILE = "content/personal-current-accounts/zed-bank.yaml";
  const BCA_FILE = "content/business-current-accounts/zed-bank.yaml";
  const SME_FILE = "content/unsecured-sme-loans/zed-bank.yaml";
  /** The PCA file with a card whose Scheme is written as `scheme` (from line 23). */
  const withScheme = (...scheme: string[]) =>
    insert(
      PCA,
      19,
      "        FeaturesAndBenefits:",
      "          Card:",
      '            - Type: "DebitCard"',
      ...scheme,
      "              ContactlessIndicator: true",
    );
  /** The PCA file with the residency eligibility written as `residency` (from line 22). */
  const withResidency = (...residency: string[]) =>
    insert(PCA, 19, "        Eligibility:", "          ResidencyEligibility:", ...residency);

  describe("PCA card Scheme: one value (MasterCard, Other or Visa)", () => {
    it("accepts a single Scheme", () => {
      expect(
        report("personal-current-accounts", withScheme('              Scheme: "Visa"')),
      ).toEqual([]);
    });

    it("rejects a one-item list and says what to write and which command rewrites it", () => {
      expect(
        report(
          "personal-current-accounts",
          withScheme("              Scheme:", '                - "Visa"'),
        ),
      ).toEqual([
        `${PCA_FILE}:24:17: /PCA/0/PCAMarketingState/0/FeaturesAndBenefits/Card/0/Scheme: Scheme is one value in 2.2.1, not a list: write Scheme: "Visa" (npm run migrate rewrites old content in place)`,
      ]);
    });

    it("rejects a list of two schemes and says that 2.2.1 cannot say it", () => {
      expect(
        report(
          "personal-current-accounts",
          withScheme('              Scheme: ["Visa", "MasterCard"]'),
        ),
      ).toEqual([
        `${PCA_FILE}:23:23: /PCA/0/PCAMarketingState/0/FeaturesAndBenefits/Card/0/Scheme: Scheme is one value in 2.2.1, not a list, and this lists 2 ("Visa", "MasterCard"), which 2.2.1 cannot say: describe each scheme's card as its own Card item, or keep only the scheme the card is issued on; npm run migrate stops here rather than drop one`,
      ]);
    });

    it("rejects a scheme outside the list", () => {
      expect(
        report("personal-current-accounts", withScheme('              Scheme: "Amex"')),
      ).toEqual([
        `${PCA_FILE}:23:23: /PCA/0/PCAMarketingState/0/FeaturesAndBenefits/Card/0/Scheme: must be one of MasterCard, Other, Visa (found "Amex")`,
      ]);
    });
  });

  describe("PCA ResidencyEligibility: one object", () => {
    it("accepts a single residency object", () => {
      const one = withResidency(
        '            ResidencyType: "Householder"',
        '            ResidencyIncluded: ["GB"]',
      );
      expect(report("personal-current-accounts", one)).toEqual([]);
    });

    it("rejects a one-item list and says what to write instead", () => {
      expect(
        report(
          "personal-current-accounts",
          withResidency('            - ResidencyIncluded: ["GB"]'),
        ),
      ).toEqual([
        `${PCA_FILE}:22:13: /PCA/0/PCAMarketingState/0/Eligibility/ResidencyEligibility: ResidencyEligibility is one set of fields in 2.2.1, not a list: write its fields (ResidencyIncluded, …) directly under ResidencyEligibility, without the “- ” (npm run migrate rewrites old content in place)`,
      ]);
    });

    it("rejects a list of two and asks for them to be merged", () => {
      const two = withResidency(
        '            - ResidencyIncluded: ["GB"]',
        '            - ResidencyIncluded: ["IE"]',
      );
      expect(report("personal-current-accounts", two)).toEqual([
        `${PCA_FILE}:22:13: /PCA/0/PCAMarketingState/0/Eligibility/ResidencyEligibility: ResidencyEligibility is one set of fields in 2.2.1, not a list, and this lists 2 ({"ResidencyIncluded":["GB"]}, {"ResidencyIncluded":["IE"]}), which 2.2.1 cannot say: merge them into one, with every country in its ResidencyIncluded; npm run migrate stops here rather than drop one`,
      ]);
    });
  });

  describe("PCA and BCA OtherFeesCharges: required only of a product on sale (rule 9)", () => {
    const RULE_9 =
      "has no OtherFeesCharges, which a product on sale (OnSaleIndicator: true) must give in each marketing state: add its fees, or set OnSaleIndicator: false if the product is no longer sold";

    it("accepts a back-book PCA without OtherFeesCharges", () => {
      const backBook = edit(edit(PCA, 13, 19), 6, 6, "    OnSaleIndicator: false");
      expect(report("personal-current-accounts", backBook)).toEqual([]);
    });

    it("rejects an on-sale PCA without OtherFeesCharges, at the marketing state", () => {
      expect(report("personal-current-accounts", edit(PCA, 13, 19))).toEqual([
        `${PCA_FILE}:8:9: /PCA/0/PCAMarketingState/0: marketing state "ZED-PCA-1-REG" ${RULE_9}`,
      ]);
    });

    it("accepts a back-book BCA without OtherFeesCharges", () => {
      const backBook = edit(edit(BCA, 17, 24), 6, 6, "    OnSaleIndicator: false");
      expect(report("business-current-accounts", backBook)).toEqual([]);
    });

    it("rejects an on-sale BCA without OtherFeesCharges, at the marketing state", () => {
      expect(report("business-current-accounts", edit(BCA, 17, 24))).toEqual([
        `${BCA_FILE}:10:9: /BCA/0/BCAMarketingState/0: marketing state "ZED-BCA-1-REG" ${RULE_9}`,
      ]);
    });

    it("rejects an empty BCA OtherFeesCharges list, even on a back-book product", () => {
      const empty = edit(
        edit(BCA, 17, 24, "        OtherFeesCharges: []"),
        6,
        6,
        "    OnSaleIndicator: false",
      );
      expect(report("business-current-accounts", empty)).toEqual([
        `${BCA_FILE}:17:27: /BCA/0/BCAMarketingState/0/OtherFeesCharges: must list at least 1 item (it has 0)`,
      ]);
    });
  });

  describe("SME loans: no RepaymentType Other, one OtherSegment on the product", () => {
    it("rejects RepaymentType Other", () => {
      expect(
        report("unsecured-sme-loans", edit(SME, 21, 21, '          - RepaymentType: "Other"')),
      ).toEqual([
        `${SME_FILE}:21:28: /SMELoan/0/SMELoanMarketingState/0/Repayment/0/RepaymentType: must be one of Balloon, Bullet, CapitalAndInterest, CustomSchedule, EarlyRepayment, FixedCapitalFullyAmortising, FixedCapitalWithBullet, FixedCapitalAndInterestReducingBalance, InterestOnly, PrepaymentFee, RepaymentWithBullet, StraightLineInterestOnly (found "Other")`,
      ]);
    });

    it("accepts an OtherRepaymentType in place of RepaymentType", () => {
      const standalone = edit(
        SME,
        21,
        21,
        "          - OtherRepaymentType:",
        '              Name: "Seasonal"',
        '              Description: "Repayments follow the seasons"',
      );
      expect(report("unsecured-sme-loans", standalone)).toEqual([]);
    });

    it("rejects an OtherRepaymentType beside a RepaymentType, at both", () => {
      const both = insert(
        SME,
        21,
        "            OtherRepaymentType:",
        '              Name: "Seasonal"',
        '              Description: "Repayments follow the seasons"',
      );
      const message =
        'OtherRepaymentType is given beside RepaymentType "CapitalAndInterest"; RepaymentType has no code "Other" in 2.2.1, so OtherRepaymentType stands instead of it: remove RepaymentType if the kind is not in its list, otherwise remove OtherRepaymentType';
      expect(report("unsecured-sme-loans", both)).toEqual([
        `${SME_FILE}:23:15: /SMELoan/0/SMELoanMarketingState/0/Repayment/0/OtherRepaymentType: ${message}; the other is at ${SME_FILE}:21:28`,
        `${SME_FILE}:21:28: /SMELoan/0/SMELoanMarketingState/0/Repayment/0/RepaymentType: ${message}; the other is at ${SME_FILE}:23:15`,
      ]);
    });

    it("accepts one OtherSegment code object on the product", () => {
      const other = edit(
        SME,
        5,
        5,
        '    Segment: ["Business", "Other"]',
        "    OtherSegment:",
        '      Code: "RURL"',
        '      Name: "Rural enterprise"',
        '      Description: "Businesses run from a farm"',
      );
      expect(report("unsecured-sme-loans", other)).toEqual([]);
    });

    it("rejects a list of OtherSegment objects", () => {
      const list = edit(
        SME,
        5,
        5,
        '    Segment: ["Other"]',
        "    OtherSegment:",
        '      - Name: "Rural enterprise"',
      );
      expect(report("unsecured-sme-loans", list)).toEqual([
        `${SME_FILE}:7:7: /SMELoan/0/OtherSegment: must be a set of fields (found a list of 1 item)`,
      ]);
    });
  });
});
