/**
 * The importer's repairs of feeds shaped like the ones banks really served (three-letter language
 * codes, one value where a list belongs, a currency sign in an amount): each repair as a pure
 * function, then `npm run import` with and without --repair, saying what it repairs at its line.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, assert, describe, expect, it } from "vitest";
import { validatorFor } from "../../../build/check/schemas.js";
import {
  languageCode,
  numberText,
  plainAmount,
  repairBrand,
  scalarAs,
} from "../../../build/import/repair.js";
import { parseYaml } from "../../../build/read/yaml-source.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { atm as importedAtm, envelopeOf, importFeeds, writeFeed } from "../../helpers/import.js";
import { cachePerTest } from "../../helpers/sample-build.js";
import { schemaAjv } from "../../helpers/schemas.js";

const validateAtms = validatorFor(schemaAjv(), "atm-brand.schema.json");

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

/** A 20-digit identifier as JSON parsing gives it: rounded, since it is past 2^53. */
const ROUNDED = JSON.parse("12345678901234567890") as number;

describe("a number where the schema wants text", () => {
  // [number, its text, or null where the text could differ from what the feed wrote]
  const table: [number, string | null][] = [
    [902127, "902127"],
    [51.5, "51.5"],
    [-0.127758, "-0.127758"],
    [0, "0"],
    // Past 2^53 JSON parsing has already rounded the feed's digits.
    [2 ** 53, null],
    [ROUNDED, null],
    // JavaScript writes these with an exponent, which no pattern of the spec takes.
    [1e21, null],
    [1e-7, null],
  ];
  it.each(table)("%d is %j", (value, expected) => {
    expect(numberText(value)).toBe(expected ?? undefined);
  });
});

describe("text where the schema wants a boolean or a number", () => {
  // [text, the type the schema wants, the value, or null where it is left as it is]
  const table: [string, string, boolean | number | null][] = [
    ["true", "boolean", true],
    ["false", "boolean", false],
    // Only JSON's own words: a person decides what these mean.
    ["True", "boolean", null],
    ["yes", "boolean", null],
    ["1", "boolean", null],
    ["12", "integer", 12],
    ["-3", "integer", -3],
    ["12.0", "integer", 12],
    ["1.5", "integer", null],
    ["1.50", "number", 1.5],
    ["2.5e3", "number", 2500],
    ["0.012345678901234", "number", 0.012345678901234],
    // Past 15 significant digits a double rounds what the feed wrote.
    ["12345678901234567", "integer", null],
    ["0.1234567890123456", "number", null],
    // Not JSON's form of a number.
    ["1,000", "number", null],
    ["012", "integer", null],
    ["0x10", "integer", null],
    [" 12", "integer", null],
    ["", "number", null],
  ];
  it.each(table)("%j where the schema wants %s is %j", (text, type, expected) => {
    expect(scalarAs(text, [type])).toBe(expected ?? undefined);
  });

  it("leaves text alone where the schema wants text too", () => {
    expect(scalarAs("true", ["string"])).toBeUndefined();
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

  it("writes a number as its text where the schema wants text, and nowhere else", () => {
    const brand = brandOf(
      atm("A", {
        Identification: 902127,
        MinimumPossibleAmount: 10,
        Location: {
          PostalAddress: {
            TownName: "Ashcombe",
            Country: "GB",
            GeoLocation: { GeographicCoordinates: { Latitude: 51.5, Longitude: -0.127758 } },
          },
        },
      }),
      atm("B", { Identification: ROUNDED }),
    );
    const { value, repairs } = repairBrand(brand, validateAtms, "ATM");
    const [a, b] = value.ATM as Record<string, unknown>[];
    expect(a).toMatchObject({ Identification: "902127", MinimumPossibleAmount: "10" });
    expect(a!.Location).toEqual({
      PostalAddress: {
        TownName: "Ashcombe",
        Country: "GB",
        GeoLocation: { GeographicCoordinates: { Latitude: "51.5", Longitude: "-0.127758" } },
      },
    });
    // A rounded integer stays as it was, and stays a problem.
    expect(b!.Identification).toBe(ROUNDED);
    expect(repairs.map((r) => [r.kind, r.pointer, r.to])).toEqual([
      ["scalar", "/ATM/0/Identification", "902127"],
      ["scalar", "/ATM/0/MinimumPossibleAmount", "10"],
      [
        "scalar",
        "/ATM/0/Location/PostalAddress/GeoLocation/GeographicCoordinates/Latitude",
        "51.5",
      ],
      [
        "scalar",
        "/ATM/0/Location/PostalAddress/GeoLocation/GeographicCoordinates/Longitude",
        "-0.127758",
      ],
    ]);
  });

  it('makes "true" and "false" the booleans where the schema wants one', () => {
    const brand = brandOf(
      atm("A", { Access24HoursIndicator: "true" }),
      atm("B", { Access24HoursIndicator: "false" }),
      atm("C", { Access24HoursIndicator: "yes" }),
    );
    const { value, repairs } = repairBrand(brand, validateAtms, "ATM");
    const records = value.ATM as { Access24HoursIndicator: unknown }[];
    expect(records.map((r) => r.Access24HoursIndicator)).toEqual([true, false, "yes"]);
    expect(repairs.map((r) => [r.kind, r.pointer, r.to])).toEqual([
      ["scalar", "/ATM/0/Access24HoursIndicator", true],
      ["scalar", "/ATM/1/Access24HoursIndicator", false],
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

  it("drops a null optional value but never a null required one", () => {
    const brand = brandOf(atm("A", { MinimumPossibleAmount: null }), {
      ...atm("B"),
      Identification: null,
    });
    const { value, repairs } = repairBrand(brand, validateAtms, "ATM");
    const [a, b] = value.ATM as Record<string, unknown>[];
    expect("MinimumPossibleAmount" in a!).toBe(false);
    expect(b!.Identification).toBeNull();
    expect(repairs.map((r) => [r.kind, r.pointer, r.to])).toEqual([
      ["empty", "/ATM/0/MinimumPossibleAmount", undefined],
    ]);
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

/** Fernbrook's ATMs as an older feed wrote them: three-letter codes, one category not a list. */
const OLD_STYLE = {
  BrandName: "Fernbrook Bank",
  ATM: [
    importedAtm("FB-1", "Ashcombe", { SupportedLanguages: ["eng", "wel"] }),
    importedAtm("FB-2", undefined, {
      SupportedLanguages: ["eng"],
      Location: { LocationCategory: "BranchInternal", PostalAddress: { Country: "GB" } },
    }),
  ],
};

describe("npm run import with and without --repair", () => {
  let fixture: Fixture;
  afterEach(async () => fixture?.cleanup());
  const feed = (name: string, value: unknown) => writeFeed(fixture.root, name, value);
  const read = (path: string) => readFile(join(fixture.content, path), "utf8");
  const valueOf = async (path: string) => parseYaml(path, await read(path)).value;
  const cacheDir = cachePerTest();

  it("without --repair, writes the feed as it is and says which repairs it would make and how", async () => {
    fixture = await sampleFixture();
    const run = await importFeeds([await feed("f.json", envelopeOf([OLD_STYLE]))], fixture.root);
    expect(run.code).toBe(1);
    expect(run.stdout.slice(1, 6)).toEqual([
      "would repair 3 language codes to ISO 639-1 (eng → en, wel → cy)",
      expect.stringMatching(
        /^ {2}first at content\/atms\/fernbrook-bank\.yaml:\d+:\d+ \/ATM\/0\/SupportedLanguages\/0, .*\/ATM\/0\/SupportedLanguages\/1, .*\/ATM\/1\/SupportedLanguages\/0$/,
      ),
      "would repair 1 single value into a list, where the schema wants a list (LocationCategory)",
      expect.stringMatching(
        /^ {2}at content\/atms\/fernbrook-bank\.yaml:\d+:\d+ \/ATM\/1\/Location\/LocationCategory$/,
      ),
      'These repairs lose nothing and invent nothing (docs/editing.md, "Repairs"). To make them, run the import again with --repair (and --force to replace what this run wrote).',
    ]);
    expect(await valueOf("atms/fernbrook-bank.yaml")).toEqual(OLD_STYLE);
    expect(run.stderr.at(-1)).toMatch(/^\n4 problems in 1 imported file\./);
  });

  it("places each repair at the line of the value it repairs", async () => {
    fixture = await sampleFixture();
    const run = await importFeeds([await feed("f.json", envelopeOf([OLD_STYLE]))], fixture.root);
    const [, line] = /fernbrook-bank\.yaml:(\d+):/.exec(run.stdout[2]!)!;
    const lines = (await read("atms/fernbrook-bank.yaml")).split("\n");
    expect(lines[Number(line) - 1]).toContain('"eng"');
  });

  it("with --repair, writes the repaired values, says so, and the files are valid", async () => {
    fixture = await sampleFixture();
    const run = await importFeeds(
      ["--repair", await feed("f.json", envelopeOf([OLD_STYLE]))],
      fixture.root,
    );
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout[1]).toBe("repaired 3 language codes to ISO 639-1 (eng → en, wel → cy)");
    expect(run.stdout[3]).toBe(
      "repaired 1 single value into a list, where the schema wants a list (LocationCategory)",
    );
    expect(run.stdout).toContain("1 imported file is valid.");
    const text = await read("atms/fernbrook-bank.yaml");
    expect(text.split("\n")[1]).toBe(
      "# Imported by npm run import from f.json at 2026-11-22T09:30:00Z, with 4 repairs (--repair).",
    );
    type Atm = { SupportedLanguages: string[]; Location: unknown };
    const records = (parseYaml("x", text).value as { ATM: Atm[] }).ATM;
    expect(records.map((r) => r.SupportedLanguages)).toEqual([["en", "cy"], ["en"]]);
    expect(records[1]!.Location).toEqual({
      LocationCategory: ["BranchInternal"],
      PostalAddress: { Country: "GB" },
    });
  });

  it("leaves a code with no two-letter form as a problem, after repairing the rest", async () => {
    fixture = await sampleFixture();
    const brand = {
      BrandName: "Fernbrook Bank",
      ATM: [importedAtm("FB-1", "Ashcombe", { SupportedLanguages: ["eng", "sco"] })],
    };
    const run = await importFeeds(
      ["--repair", await feed("f.json", envelopeOf([brand]))],
      fixture.root,
    );
    expect(run.code).toBe(1);
    expect(run.stdout[1]).toBe("repaired 1 language code to ISO 639-1 (eng → en)");
    expect(run.stderr[0]).toMatch(
      /^content\/atms\/fernbrook-bank\.yaml:\d+:\d+: \/ATM\/0\/SupportedLanguages\/1: must be a two-letter language code in lower case, like en or cy \(found "sco"\)$/,
    );
  });

  it("writes each repair to the --report file too, at its place", async () => {
    fixture = await sampleFixture();
    const name = await feed("f.json", envelopeOf([OLD_STYLE]));
    await importFeeds(["--report", "report.txt", name], fixture.root);
    const report = (await readFile(join(fixture.root, "report.txt"), "utf8")).split("\n");
    expect(report[0]).toMatch(
      /^content\/atms\/fernbrook-bank\.yaml:\d+:\d+: \/ATM\/0\/SupportedLanguages\/0: would repair: eng → en$/,
    );
  });

  it("a feed in old shapes imported with --repair builds with every record, in feed order", async () => {
    fixture = await sampleFixture();
    const parts = [
      { BrandName: "Fernbrook Bank", ATM: [OLD_STYLE.ATM[0]] },
      { BrandName: "Fernbrook Bank", ATM: [OLD_STYLE.ATM[1]] },
    ];
    const run = await importFeeds(
      ["--repair", await feed("f.json", { meta: {}, data: { Brand: parts } })],
      fixture.root,
    );
    expect(run.code).toBe(0);
    const result = await buildFixture(fixture, { cacheDir: cacheDir() });
    expect(result.diagnostics).toEqual([]);
    assert(result.ok);
    const atms = result.datasets.find((r) => r.dataset.id === "atms")!;
    const body = JSON.parse(Buffer.from(atms.encoded.identity.bytes).toString("utf8")) as {
      data: { Brand: { BrandName: string; ATM: { Identification: string }[] }[] }[];
    };
    const brand = body.data[0]!.Brand.find((b) => b.BrandName === "Fernbrook Bank")!;
    expect(brand.ATM.map((r) => r.Identification)).toEqual(["FB-1", "FB-2"]);
  });
});
