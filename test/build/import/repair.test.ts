import { describe, expect, it } from "vitest";
import { createAjv, readSchemas, validatorFor } from "../../../build/check/schemas.js";
import { readFeed } from "../../../build/import/envelope.js";
import { ImportError } from "../../../build/import/errors.js";
import { languageCode, plainAmount, repairBrand } from "../../../build/import/repair.js";
import { repairLines, type FileRepair } from "../../../build/import/repair-report.js";

const validateAtms = validatorFor(createAjv(readSchemas()), "atm-brand.schema.json");

/** A schema-valid ATM, with `extra` fields merged in (Location replaced when given). */
function atm(id: string, extra: Record<string, unknown> = {}) {
  return {
    Identification: id,
    SupportedCurrencies: ["GBP"],
    Location: { PostalAddress: { TownName: "Ashcombe", Country: "GB" } },
    ...extra,
  };
}
const brandOf = (...atms: Record<string, unknown>[]) => ({
  BrandName: "Fernbrook Bank",
  ATM: atms,
});

describe("ISO 639-2 language codes to ISO 639-1", () => {
  // ISO 639-2 lists a bibliographic (B) and a terminology (T) code where they differ.
  const table: [string, string | undefined][] = [
    ["eng", "en"],
    ["spa", "es"],
    ["ger", "de"],
    ["deu", "de"],
    ["fre", "fr"],
    ["fra", "fr"],
    ["wel", "cy"],
    ["cym", "cy"],
    ["gla", "gd"],
    ["gle", "ga"],
    ["pol", "pl"],
    ["chi", "zh"],
    ["zho", "zh"],
    ["pan", "pa"],
    ["urd", "ur"],
    ["ENG", "en"],
    // Scots (sco) has no two-letter form; a two-letter or a long text is not an ISO 639-2 code.
    ["sco", undefined],
    ["kw", undefined],
    ["english", undefined],
    ["xyz", undefined],
  ];
  it.each(table)("%s is %s", (code, expected) => {
    expect(languageCode(code)).toBe(expected);
  });
});

describe("an amount without its currency", () => {
  const table: [string, string[], string | undefined][] = [
    ["£10", ["GBP"], "10"],
    ["£ 10.50", ["GBP"], "10.50"],
    ["GBP 10", ["GBP"], "10"],
    ["10 GBP", ["GBP"], "10"],
    ["10GBP", ["GBP"], "10"],
    ["£1,000", ["GBP"], "1000"],
    ["€20", ["EUR"], "20"],
    // Not the record's only currency: which currency the amount is in would be lost or guessed.
    ["€10", ["GBP"], undefined],
    ["£10", ["GBP", "EUR"], undefined],
    ["£10", [], undefined],
    // Not an amount with a currency.
    ["£1,00", ["GBP"], undefined],
    ["ten pounds", ["GBP"], undefined],
    ["10", ["GBP"], undefined],
  ];
  it.each(table)("%s with currencies %j is %s", (text, currencies, expected) => {
    expect(plainAmount(text, currencies)).toBe(expected);
  });
});

describe("repairing a brand against its schema", () => {
  it("repairs three-letter language codes, keeping a code with no two-letter form", () => {
    const brand = brandOf(atm("A"), atm("B", { SupportedLanguages: ["eng", "wel", "sco"] }));
    const { value, repairs } = repairBrand(brand, validateAtms, "ATM");
    expect((value.ATM as { SupportedLanguages?: string[] }[])[1]!.SupportedLanguages).toEqual([
      "en",
      "cy",
      "sco",
    ]);
    expect(repairs).toEqual([
      {
        kind: "language",
        pointer: "/ATM/1/SupportedLanguages/0",
        field: "SupportedLanguages",
        from: "eng",
        to: "en",
      },
      {
        kind: "language",
        pointer: "/ATM/1/SupportedLanguages/1",
        field: "SupportedLanguages",
        from: "wel",
        to: "cy",
      },
    ]);
  });

  it("wraps a single value where the schema wants a list, then repairs inside it", () => {
    const brand = brandOf(
      atm("A", {
        SupportedLanguages: "eng",
        Location: { LocationCategory: "BranchInternal", PostalAddress: { Country: "GB" } },
      }),
    );
    const { value, repairs } = repairBrand(brand, validateAtms, "ATM");
    const record = (value.ATM as Record<string, Record<string, unknown>>[])[0]!;
    expect(record.Location!.LocationCategory).toEqual(["BranchInternal"]);
    expect(record.SupportedLanguages).toEqual(["en"]);
    expect(repairs.map((r) => [r.kind, r.pointer])).toEqual([
      ["wrap", "/ATM/0/SupportedLanguages"],
      ["wrap", "/ATM/0/Location/LocationCategory"],
      ["language", "/ATM/0/SupportedLanguages/0"],
    ]);
  });

  it("takes the one value out of a one-item list where the schema wants one value", () => {
    const brand = brandOf(
      atm("A", { Location: { PostalAddress: { TownName: ["Ashcombe"], Country: "GB" } } }),
    );
    const { value, repairs } = repairBrand(brand, validateAtms, "ATM");
    expect(repairs.map((r) => [r.kind, r.pointer, r.to])).toEqual([
      ["unwrap", "/ATM/0/Location/PostalAddress/TownName", "Ashcombe"],
    ]);
    expect(validateAtms(value)).toBe(true);
  });

  it("leaves a list of two where one value belongs: which one to keep is not mechanical", () => {
    const brand = brandOf(
      atm("A", { Location: { PostalAddress: { TownName: ["Ash", "Combe"], Country: "GB" } } }),
    );
    expect(repairBrand(brand, validateAtms, "ATM").repairs).toEqual([]);
  });

  it("removes a currency sign that matches the record's only currency", () => {
    const brand = brandOf(
      atm("A", { MinimumPossibleAmount: "£10" }),
      atm("B", { MinimumPossibleAmount: "£10", SupportedCurrencies: ["EUR"] }),
    );
    const { value, repairs } = repairBrand(brand, validateAtms, "ATM");
    const records = value.ATM as { MinimumPossibleAmount: string }[];
    expect(records.map((r) => r.MinimumPossibleAmount)).toEqual(["10", "£10"]);
    expect(repairs.map((r) => [r.kind, r.pointer])).toEqual([
      ["currency", "/ATM/0/MinimumPossibleAmount"],
    ]);
  });

  it("trims the spaces around a value the schema rejects for them", () => {
    const brand = brandOf(
      atm("A", {
        Location: { LocationCategory: [" BranchInternal "], PostalAddress: { Country: "GB" } },
      }),
    );
    const { value, repairs } = repairBrand(brand, validateAtms, "ATM");
    const record = (value.ATM as Record<string, Record<string, unknown>>[])[0]!;
    expect(record.Location!.LocationCategory).toEqual(["BranchInternal"]);
    expect(repairs.map((r) => r.kind)).toEqual(["whitespace"]);
  });

  it("drops an empty optional value but never an empty required one", () => {
    const brand = brandOf(
      atm("A", { Location: { PostalAddress: { TownName: "", Country: "GB" } } }),
      atm("B", { SupportedCurrencies: [] }),
    );
    const { value, repairs } = repairBrand(brand, validateAtms, "ATM");
    const records = value.ATM as Record<string, Record<string, Record<string, unknown>>>[];
    expect(records[0]!.Location!.PostalAddress).toEqual({ Country: "GB" });
    expect(records[1]!.SupportedCurrencies).toEqual([]);
    expect(repairs.map((r) => [r.kind, r.pointer, r.to])).toEqual([
      ["empty", "/ATM/0/Location/PostalAddress/TownName", undefined],
    ]);
  });

  it("changes nothing in a valid brand, nor in the object it was given", () => {
    const valid = brandOf(atm("A", { SupportedLanguages: ["en"] }));
    expect(repairBrand(valid, validateAtms, "ATM")).toEqual({ value: valid, repairs: [] });
    const broken = brandOf(atm("A", { SupportedLanguages: ["eng"] }));
    const copy = structuredClone(broken);
    repairBrand(broken, validateAtms, "ATM");
    expect(broken).toEqual(copy);
  });
});

describe("telling the repairs", () => {
  const repair = (n: number, from: string, to: string): FileRepair => ({
    kind: "language",
    pointer: `/ATM/${n}/SupportedLanguages/0`,
    field: "SupportedLanguages",
    from,
    to,
    file: "content/atms/x.yaml",
  });
  const codes = ["eng", "spa", "ger", "fre", "wel", "eng"];
  const repairs = codes.map((c, i) => repair(i, c, languageCode(c)!));
  const at = (_: string, pointer: string) => ({
    line: 10 * Number(pointer.split("/")[2]) + 7,
    column: 9,
  });

  it("says each kind once, with its count, its distinct changes and its first places", () => {
    expect(repairLines(repairs, true, at)).toEqual([
      "repaired 6 language codes to ISO 639-1 (eng → en, spa → es, ger → de, fre → fr, wel → cy)",
      "  first at content/atms/x.yaml:7:9 /ATM/0/SupportedLanguages/0, content/atms/x.yaml:17:9 /ATM/1/SupportedLanguages/0, content/atms/x.yaml:27:9 /ATM/2/SupportedLanguages/0, …",
    ]);
  });

  it("says what it would repair when the repairs were not asked for", () => {
    expect(repairLines(repairs.slice(0, 1), false, at)).toEqual([
      "would repair 1 language code to ISO 639-1 (eng → en)",
      "  at content/atms/x.yaml:7:9 /ATM/0/SupportedLanguages/0",
    ]);
  });
});

describe("reading the shapes banks serve", () => {
  it("reads data as one object holding the Brand list", () => {
    const feed = readFeed(
      { data: { Brand: [{ BrandName: "A", Branch: [{}, {}] }] } },
      "f",
      undefined,
    );
    expect(feed.dataset.id).toBe("branches");
    expect(feed.brands.map((b) => b.where)).toEqual(["data/Brand/0"]);
    expect(feed.records).toBe(2);
  });

  it("merges Brand objects with one BrandName into one brand, records in feed order", () => {
    const envelope = {
      data: [
        {
          Brand: [
            { BrandName: "Barrow", PCA: [{ Identification: "1" }] },
            { BrandName: "Other", PCA: [{ Identification: "9" }] },
            { BrandName: "Barrow", PCA: [{ Identification: "2" }, { Identification: "3" }] },
          ],
        },
        { Brand: [{ BrandName: "Barrow", PCA: [{ Identification: "4" }] }] },
      ],
    };
    const feed = readFeed(envelope, "f", undefined);
    expect(feed.brands.map((b) => b.value)).toEqual([
      {
        BrandName: "Barrow",
        PCA: ["1", "2", "3", "4"].map((Identification) => ({ Identification })),
      },
      { BrandName: "Other", PCA: [{ Identification: "9" }] },
    ]);
    expect(feed.brands[0]!.where).toBe("data/0/Brand/0 (and 2 more Brand objects named so)");
    expect(feed.records).toBe(5);
  });

  it("refuses Brand objects with one BrandName that disagree on another field", () => {
    const envelope = {
      data: [
        {
          Brand: [
            { BrandName: "Barrow", Extra: 1, PCA: [{}] },
            { BrandName: "Barrow", Extra: 2, PCA: [{}] },
          ],
        },
      ],
    };
    expect(() => readFeed(envelope, "f", undefined)).toThrow(
      new ImportError(
        'f: data/0/Brand/1 and data/0/Brand/0 are both brand "Barrow" but give different Extra; make them agree or give the brands different names',
      ),
    );
  });

  it("still refuses what is not an envelope", () => {
    for (const value of [[1], { data: "x" }, { data: { Branch: [] } }, { meta: {} }]) {
      expect(() => readFeed(value, "f", undefined)).toThrow(/^f is not a response envelope/);
    }
  });
});
