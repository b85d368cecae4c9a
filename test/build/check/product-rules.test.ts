import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { checkFile } from "../../../build/check/one-file.js";
import { checkProductRules } from "../../../build/check/product-rules.js";
import type { ProductRecordsKey } from "../../../build/core/datasets.js";
import { buildFixture, sampleFixture } from "../../helpers/fixtures.js";
import { warmCache } from "../../helpers/sample-build.js";

// The products spec's "Rules across fields", one rejected and one accepted case each. The rules
// are checked on plain values here; the schemas are checked elsewhere.

type Product = Record<string, unknown>;

function brand(key: ProductRecordsKey, product: Product) {
  return { BrandName: "Test Bank", [key]: [product] };
}

function pca(states: Product[], extra: Product = {}): Product {
  return { Name: "Account", Identification: "P1", PCAMarketingState: states, ...extra };
}

const regular = {
  Identification: "MS1",
  MarketingState: "Regular",
  OtherFeesCharges: {},
  CoreProduct: { MonthlyMaximumCharge: "20.00" },
};

/** Findings as `pointer rule` lines, the form every expectation below is written in. */
function found(key: ProductRecordsKey, product: Product): string[] {
  return checkProductRules(brand(key, product), key).map(
    (f) => `${f.pointer} ${f.rule}` + (f.related ? ` (and ${f.related})` : ""),
  );
}

describe("rule 1: PredecessorID names another marketing state of the same product", () => {
  it("rejects a PredecessorID that names no marketing state", () => {
    const states = [regular, { ...regular, Identification: "MS2", PredecessorID: "MS9" }];
    expect(found("PCA", pca(states))).toEqual([
      "/PCA/0/PCAMarketingState/1/PredecessorID predecessor",
    ]);
  });

  it("rejects a PredecessorID that names its own marketing state", () => {
    const states = [{ ...regular, PredecessorID: "MS1" }];
    expect(found("PCA", pca(states))).toEqual([
      "/PCA/0/PCAMarketingState/0/PredecessorID predecessor",
    ]);
  });

  it("rejects a PredecessorID that names a marketing state of another product", () => {
    const value = {
      BrandName: "Test Bank",
      BCA: [
        { Identification: "B1", BCAMarketingState: [{ Identification: "A" }] },
        { Identification: "B2", BCAMarketingState: [{ Identification: "B", PredecessorID: "A" }] },
      ],
    };
    expect(checkProductRules(value, "BCA").map((f) => f.pointer)).toEqual([
      "/BCA/1/BCAMarketingState/0/PredecessorID",
    ]);
  });

  it("accepts a PredecessorID that names an earlier or a later marketing state", () => {
    const states = [
      { ...regular, PredecessorID: "MS2" },
      { ...regular, Identification: "MS2" },
      { ...regular, Identification: "MS3", PredecessorID: "MS1" },
    ];
    expect(found("PCA", pca(states))).toEqual([]);
  });
});

describe("rule 2: marketing state Identification values are unique within their product", () => {
  it("rejects a repeated Identification and names both places", () => {
    const value = {
      SMELoanMarketingState: [
        { Identification: "S" },
        { Identification: "T" },
        { Identification: "S" },
      ],
    };
    expect(found("SMELoan", value)).toEqual([
      "/SMELoan/0/SMELoanMarketingState/2/Identification marketing-state-id (and /SMELoan/0/SMELoanMarketingState/0/Identification)",
    ]);
  });

  it("accepts the same marketing state Identification in two products", () => {
    const value = {
      BrandName: "Test Bank",
      CCC: [
        { Identification: "C1", CCCMarketingState: [{ Identification: "M" }] },
        { Identification: "C2", CCCMarketingState: [{ Identification: "M" }] },
      ],
    };
    expect(checkProductRules(value, "CCC")).toEqual([]);
  });
});

describe("rule 3: a code value Other comes with its companion code object, and only then", () => {
  const fee = (detail: Product) => ({
    CCCMarketingState: [{ Identification: "M", OtherFeesCharges: { FeeChargeDetail: [detail] } }],
  });
  const at = "/CCC/0/CCCMarketingState/0/OtherFeesCharges/FeeChargeDetail/0";
  const code = { Name: "Paper statement" };

  describe("rejects", () => {
    it.each([
      ["FeeType", "OtherFeeType"],
      ["FeeCategory", "OtherFeeCategory"],
      ["FeeRateType", "OtherFeeRateType"],
      ["ApplicationFrequency", "OtherApplicationFrequency"],
      ["CalculationFrequency", "OtherCalculationFrequency"],
    ])("%s: Other without %s, at the code value", (field) => {
      expect(found("CCC", fee({ [field]: "Other" }))).toEqual([`${at}/${field} other-code`]);
    });

    it("a companion without Other in its field, at the companion and the field", () => {
      expect(found("CCC", fee({ FeeType: "Annual", OtherFeeType: code }))).toEqual([
        `${at}/OtherFeeType other-code (and ${at}/FeeType)`,
      ]);
    });

    it("a companion whose field is missing, at the companion", () => {
      expect(found("CCC", fee({ OtherFeeCategory: code }))).toEqual([
        `${at}/OtherFeeCategory other-code`,
      ]);
    });

    it("Other in a list of codes (a fee cap's FeeType) without the companion list", () => {
      const cap = {
        OtherFeesCharges: { FeeChargeCap: [{ FeeType: ["Other"], OtherFeeType: [] }] },
      };
      const value = { PCAMarketingState: [{ Identification: "M", ...cap }] };
      expect(found("PCA", value)).toEqual([
        "/PCA/0/PCAMarketingState/0/OtherFeesCharges/FeeChargeCap/0/OtherFeeType other-code",
      ]);
    });

    it.each([
      ["BankInterestRateType", "OtherBankInterestType"],
      ["LoanProviderInterestRateType", "OtherLoanProviderInterestRateType"],
      ["Scheme", "OtherScheme"],
      ["CardScheme", "OtherCardScheme"],
      ["TariffType", "OtherTariffType"],
      ["RepaymentFrequency", "OtherRepaymentFrequency"],
      ["AmountType", "OtherAmountType"],
      ["ResidencyType", "OtherResidencyType"],
      ["TradingType", "OtherTradingType"],
      ["LegalStructure", "OtherLegalStructure"],
      ["OfficerType", "OtherOfficerType"],
      ["Type", "OtherType"],
    ])("%s with %s but without Other", (field, companion) => {
      const value = {
        BCAMarketingState: [{ Identification: "M", X: { [field]: "A", [companion]: code } }],
      };
      expect(found("BCA", value)).toEqual([
        `/BCA/0/BCAMarketingState/0/X/${companion} other-code (and /BCA/0/BCAMarketingState/0/X/${field})`,
      ]);
    });
  });

  describe("accepts", () => {
    it("Other with its companion", () => {
      expect(found("CCC", fee({ FeeType: "Other", OtherFeeType: code }))).toEqual([]);
    });

    it("Other in a list of codes with a non-empty companion list", () => {
      const value = {
        CCCMarketingState: [
          { CoreProduct: { CardScheme: ["Visa", "Other"], OtherCardScheme: [code] } },
        ],
      };
      expect(found("CCC", value)).toEqual([]);
    });

    it.each(["Segment", "OverdraftType", "Period", "CappingPeriod"])(
      "Other in %s, for which the standard defines no companion",
      (field) => {
        const value = {
          Segment: ["Other"],
          PCAMarketingState: [{ Identification: "M", X: { [field]: "Other" } }],
        };
        expect(found("PCA", value)).toEqual([]);
      },
    );

    it("a FeeCategory of Other inside the OtherFeeType companion, which has no companion of its own", () => {
      const detail = { FeeType: "Other", OtherFeeType: { ...code, FeeCategory: "Other" } };
      expect(found("CCC", fee(detail))).toEqual([]);
    });
  });
});

describe("rule 3 for RepaymentType, which has no code Other in 2.2.1", () => {
  const code = { Name: "Seasonal", Description: "Repayments follow the seasons." };
  const repayment = (r: Product) => ({
    SMELoanMarketingState: [{ Identification: "M", Repayment: [r] }],
  });
  const at = "/SMELoan/0/SMELoanMarketingState/0/Repayment/0";

  it("accepts OtherRepaymentType standing in place of RepaymentType", () => {
    expect(found("SMELoan", repayment({ OtherRepaymentType: code }))).toEqual([]);
  });

  it("rejects OtherRepaymentType beside a RepaymentType, at both", () => {
    expect(
      found("SMELoan", repayment({ RepaymentType: "Bullet", OtherRepaymentType: code })),
    ).toEqual([`${at}/OtherRepaymentType other-code (and ${at}/RepaymentType)`]);
  });

  it("leaves RepaymentType Other to the schema, which does not list it", () => {
    expect(
      found("SMELoan", repayment({ RepaymentType: "Other", OtherRepaymentType: code })),
    ).toEqual([]);
    expect(found("SMELoan", repayment({ RepaymentType: "Other" }))).toEqual([]);
  });
});

describe("rule 3 for an SME loan's Segment, whose companion is one OtherSegment", () => {
  const code = { Name: "Rural enterprise", Description: "Businesses run from a farm." };
  const loan = (fields: Product) => ({
    Identification: "L1",
    SMELoanMarketingState: [],
    ...fields,
  });

  it("rejects Segment Other without OtherSegment, at Segment", () => {
    expect(found("SMELoan", loan({ Segment: ["Business", "Other"] }))).toEqual([
      "/SMELoan/0/Segment other-code",
    ]);
  });

  it("rejects OtherSegment without Other in Segment, at both", () => {
    expect(found("SMELoan", loan({ Segment: ["Business"], OtherSegment: code }))).toEqual([
      "/SMELoan/0/OtherSegment other-code (and /SMELoan/0/Segment)",
    ]);
  });

  it("accepts Segment Other with its OtherSegment", () => {
    expect(found("SMELoan", loan({ Segment: ["Other"], OtherSegment: code }))).toEqual([]);
  });
});

describe("rule 4: an on-sale product has a Segment", () => {
  it("rejects OnSaleIndicator true without a Segment, at OnSaleIndicator", () => {
    expect(found("BCA", { OnSaleIndicator: true, BCAMarketingState: [] })).toEqual([
      "/BCA/0/OnSaleIndicator segment",
    ]);
  });

  it("accepts an on-sale product with a Segment and a back-book product without one", () => {
    expect(found("BCA", { OnSaleIndicator: true, Segment: ["General"] })).toEqual([]);
    expect(found("BCA", { OnSaleIndicator: false })).toEqual([]);
  });
});

describe("rule 5: eligibility criteria say something", () => {
  const eligibility = (e: Product) => ({
    SMELoanMarketingState: [{ Identification: "M", Eligibility: e }],
  });
  const at = "/SMELoan/0/SMELoanMarketingState/0/Eligibility";

  it("rejects an age eligibility with neither MinimumAge nor MaximumAge", () => {
    expect(found("SMELoan", eligibility({ AgeEligibility: { Notes: ["Adults"] } }))).toEqual([
      `${at}/AgeEligibility age-eligibility`,
    ]);
  });

  it("rejects a MinimumAge above the MaximumAge, at both", () => {
    expect(
      found("SMELoan", eligibility({ AgeEligibility: { MinimumAge: 30, MaximumAge: 18 } })),
    ).toEqual([
      `${at}/AgeEligibility/MinimumAge age-eligibility (and ${at}/AgeEligibility/MaximumAge)`,
    ]);
  });

  it.each([{ MinimumAge: 18 }, { MaximumAge: 25 }, { MinimumAge: 16, MaximumAge: 25 }])(
    "accepts the age eligibility %j",
    (age) => {
      expect(found("SMELoan", eligibility({ AgeEligibility: age }))).toEqual([]);
    },
  );

  it("rejects an other eligibility with none of Amount, Indicator or Textual", () => {
    const other = [
      { Name: "Turnover", Type: "Turnover", Amount: "100000" },
      { Name: "Start-up", Type: "StartUp" },
    ];
    expect(found("SMELoan", eligibility({ OtherEligibility: other }))).toEqual([
      `${at}/OtherEligibility/1 other-eligibility`,
    ]);
  });

  it.each([{ Amount: "1000" }, { Indicator: false }, { Textual: "Trading for two years" }])(
    "accepts an other eligibility that gives %j",
    (given) => {
      expect(
        found(
          "SMELoan",
          eligibility({
            OtherEligibility: [{ Name: "N", Type: "Other", OtherType: { Name: "N" }, ...given }],
          }),
        ),
      ).toEqual([]);
    },
  );
});

describe("rule 6: a fee applicable range gives its minimum and maximum as a pair", () => {
  const range = (r: Product) => ({
    PCAMarketingState: [
      { Identification: "M", OtherFeesCharges: { FeeChargeDetail: [{ FeeApplicableRange: r }] } },
    ],
  });
  const at = "/PCA/0/PCAMarketingState/0/OtherFeesCharges/FeeChargeDetail/0/FeeApplicableRange";

  it.each([
    [{ MinimumAmount: "10" }, "MinimumAmount"],
    [{ MaximumAmount: "10" }, "MaximumAmount"],
    [{ MinimumRate: "1.5" }, "MinimumRate"],
    [{ MaximumRate: "1.5", MinimumAmount: "1", MaximumAmount: "2" }, "MaximumRate"],
  ])("rejects %j at the half given", (given, field) => {
    expect(found("PCA", range(given))).toEqual([`${at}/${field} fee-range`]);
  });

  it("rejects a minimum above the maximum, at both", () => {
    expect(found("PCA", range({ MinimumAmount: "500.00", MaximumAmount: "25.00" }))).toEqual([
      `${at}/MinimumAmount fee-range (and ${at}/MaximumAmount)`,
    ]);
  });

  it("accepts both pairs given, in order", () => {
    const full = {
      MinimumAmount: "0",
      MaximumAmount: "25.00",
      MinimumRate: "0.5",
      MaximumRate: "2.75",
    };
    expect(found("PCA", range(full))).toEqual([]);
  });
});

describe("rule 7: FirstMarketedDate is not after LastMarketedDate", () => {
  it("rejects a first date after the last, at both", () => {
    const state = {
      Identification: "M",
      FirstMarketedDate: "2026-03-01",
      LastMarketedDate: "2026-02-28",
    };
    expect(found("CCC", { CCCMarketingState: [state] })).toEqual([
      "/CCC/0/CCCMarketingState/0/FirstMarketedDate marketed-dates (and /CCC/0/CCCMarketingState/0/LastMarketedDate)",
    ]);
  });

  it.each([
    ["2026-03-01", "2026-03-01"],
    ["1900-01-01", "2026-03-01"],
    ["2026-03-01", "9999-12-31"],
  ])("accepts %s to %s", (first, last) => {
    const state = { Identification: "M", FirstMarketedDate: first, LastMarketedDate: last };
    expect(found("CCC", { CCCMarketingState: [state] })).toEqual([]);
  });
});

describe("rule 8: an on-sale personal current account publishes its monthly maximum charge", () => {
  const withoutCharge = { ...regular, CoreProduct: { ProductURL: "https://example.org" } };

  it("rejects an on-sale PCA with no MonthlyMaximumCharge in any marketing state", () => {
    const product = pca([withoutCharge, { ...withoutCharge, Identification: "MS2" }], {
      OnSaleIndicator: true,
      Segment: ["Basic"],
    });
    expect(found("PCA", product)).toEqual(["/PCA/0/OnSaleIndicator monthly-maximum-charge"]);
  });

  it("accepts it in one marketing state of several", () => {
    const product = pca([withoutCharge, { ...regular, Identification: "MS2" }], {
      OnSaleIndicator: true,
      Segment: ["Basic"],
    });
    expect(found("PCA", product)).toEqual([]);
  });

  it("leaves a PCA without marketing states to the schema's own error", () => {
    expect(found("PCA", pca([], { OnSaleIndicator: true, Segment: ["Basic"] }))).toEqual([]);
  });

  it("does not ask it of a back-book PCA or of a business current account", () => {
    expect(found("PCA", pca([withoutCharge], { OnSaleIndicator: false }))).toEqual([]);
    const bca = { OnSaleIndicator: true, Segment: ["General"], BCAMarketingState: [withoutCharge] };
    expect(found("BCA", bca)).toEqual([]);
  });
});

describe("rule-book findings in a content file", () => {
  const acceptAnything = new Ajv().compile({});
  const rules = { validate: acceptAnything, recordsKey: "BCA", identity: ["Identification"] };
  const text = [
    "BrandName: Test Bank",
    "BCA:",
    "  - Name: Business account",
    "    Identification: B1",
    "    BCAMarketingState:",
    "      - Identification: M1",
    "        MarketingState: Regular",
    "        FirstMarketedDate: 2026-05-01",
    "        LastMarketedDate: 2026-04-30",
    "      - Identification: M2",
    "        PredecessorID: M7",
    "",
  ].join("\n");

  it("are reported at their line and column, a disagreeing pair at both values", () => {
    const checked = checkFile("content/business-current-accounts/test.yaml", text, rules);
    expect(checked.valid).toBe(false);
    expect(
      checked.diagnostics.map((d) => `${d.line}:${d.column} ${d.pointer} ${d.rule}: ${d.message}`),
    ).toEqual([
      "8:28 /BCA/0/BCAMarketingState/0/FirstMarketedDate marketed-dates: FirstMarketedDate 2026-05-01 is after LastMarketedDate 2026-04-30; for an unknown start use 1900-01-01, for no end 9999-12-31; the other is at content/business-current-accounts/test.yaml:9:27",
      "9:27 /BCA/0/BCAMarketingState/0/LastMarketedDate marketed-dates: FirstMarketedDate 2026-05-01 is after LastMarketedDate 2026-04-30; for an unknown start use 1900-01-01, for no end 9999-12-31; the other is at content/business-current-accounts/test.yaml:8:28",
      '11:24 /BCA/0/BCAMarketingState/1/PredecessorID predecessor: PredecessorID "M7" names no marketing state of this product; its marketing states are "M1", "M2"',
    ]);
  });

  it("are not looked for in data sets that are not products", () => {
    const checked = checkFile("content/atms/test.yaml", text.replace("BCA:", "ATM:"), {
      ...rules,
      recordsKey: "ATM",
    });
    expect(checked.diagnostics).toEqual([]);
  });
});

describe("the rule book in a build of the sample content", () => {
  it("fails the build at the file, line and column of a PredecessorID that names no marketing state", async () => {
    const file = "business-current-accounts/thistlecombe-bank.yaml";
    const fixture = await sampleFixture();
    try {
      const text = await readFile(join(fixture.content, file), "utf8");
      const broken = text.replace(
        'PredecessorID: "TB-BUSINESS-REG"',
        'PredecessorID: "TB-BUSINES-REG"',
      );
      expect(broken).not.toBe(text);
      await fixture.put({ [file]: broken });
      const lines = broken.split("\n");
      const line = lines.findIndex((l) => l.includes('"TB-BUSINES-REG"')) + 1;
      const column = lines[line - 1]!.indexOf('"TB-BUSINES-REG"') + 1;
      const result = await buildFixture(fixture, { write: false, cacheDir: await warmCache() });
      expect(result.ok).toBe(false);
      expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.rule}`)).toEqual([
        `content/${file}:${line}:${column} predecessor`,
      ]);
    } finally {
      await fixture.cleanup();
    }
  });
});

describe("rule 9: each marketing state of an on-sale current account has OtherFeesCharges", () => {
  const fees = { FeeChargeDetail: [{ FeeCategory: "Servicing" }] };
  const state = (id: string, extra: Product = {}) => ({
    Identification: id,
    MarketingState: "Regular",
    CoreProduct: { MonthlyMaximumCharge: "20.00" },
    ...extra,
  });
  const onSale = { OnSaleIndicator: true, Segment: ["General"] };

  describe.each([
    ["PCA", "PCAMarketingState", { OtherFeesCharges: fees }],
    ["BCA", "BCAMarketingState", { OtherFeesCharges: [fees] }],
  ] as const)("%s", (key, stateKey, withFees) => {
    it("rejects an on-sale product's marketing state without it, at that marketing state", () => {
      const product = {
        Identification: "P1",
        ...onSale,
        [stateKey]: [state("MS1", withFees), state("MS2")],
      };
      expect(found(key, product)).toEqual([`/${key}/0/${stateKey}/1 other-fees-charges`]);
    });

    it("accepts a back-book product's marketing states without it", () => {
      const product = { Identification: "P1", OnSaleIndicator: false, [stateKey]: [state("MS1")] };
      expect(found(key, product)).toEqual([]);
    });

    it("accepts a product that says nothing about being on sale without it", () => {
      expect(found(key, { Identification: "P1", [stateKey]: [state("MS1")] })).toEqual([]);
    });

    it("accepts an on-sale product with it in every marketing state", () => {
      const product = { Identification: "P1", ...onSale, [stateKey]: [state("MS1", withFees)] };
      expect(found(key, product)).toEqual([]);
    });
  });

  it("does not ask it of SME loans or commercial credit cards, whose schemas decide", () => {
    expect(found("SMELoan", { ...onSale, SMELoanMarketingState: [state("MS1")] })).toEqual([]);
    expect(found("CCC", { ...onSale, CCCMarketingState: [state("MS1")] })).toEqual([]);
  });
});
