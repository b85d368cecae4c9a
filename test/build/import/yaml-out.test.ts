import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import { readFeed } from "../../../build/import/envelope.js";
import { slugify } from "../../../build/import/slug.js";
import { renderYaml } from "../../../build/import/yaml-out.js";
import { parseYaml } from "../../../build/read/yaml-source.js";

/** What the build reads back from the YAML the importer writes for `value`. */
const roundTrip = (value: unknown) =>
  parseYaml("t.yaml", renderYaml(value, "# yaml-language-server: $schema=x", ["note"])).value;

describe("writing YAML the build reads back as the feed's JSON", () => {
  // Strings the YAML 1.2 core schema would read as another type, those YAML 1.1 tools would,
  // and strings that need quoting for YAML's own syntax.
  const strings = [
    "0",
    "1.50",
    "-7",
    "+3",
    "1e3",
    "0x1F",
    "0o7",
    ".inf",
    "-.Inf",
    ".NaN",
    "true",
    "False",
    "TRUE",
    "null",
    "Null",
    "~",
    "",
    "09:00",
    "2026-01-31",
    "2026-01-31T09:00:00Z",
    "yes",
    "No",
    "on",
    "off",
    "y",
    "- item",
    "#not a comment",
    "a: b",
    "[1]",
    "{a: 1}",
    "&anchor",
    "*alias",
    "!tag",
    "|",
    ">",
    "'",
    '"',
    "%",
    "@",
    "`",
    " leading",
    "trailing ",
    "two\nlines",
    "tab\there",
    "é ünïcödé",
    "\u0007",
    "\\",
  ];

  it.each(strings.map((s) => [JSON.stringify(s), s]))("keeps the string %s a string", (_, s) => {
    expect(roundTrip({ Value: s, List: [s] })).toEqual({ Value: s, List: [s] });
  });

  it.each([
    ["a whole number", 42],
    ["a negative decimal", -0.000001],
    ["a large number", 1e21],
    ["true", true],
    ["false", false],
    ["null", null],
    ["an empty list", []],
    ["an empty object", {}],
  ])("keeps %s as that JSON value", (_, value) => {
    expect(roundTrip({ Value: value })).toEqual({ Value: value });
  });

  it("keeps keys in the feed's order, keys that look like numbers or booleans included", () => {
    const value = JSON.parse(
      '{"Z":1,"A":{"y":"1","x":"2"},"24HourHelp":"Yes","true":"t","null":"n"}',
    );
    const back = roundTrip(value) as Record<string, unknown>;
    expect(back).toEqual(value);
    expect(Object.keys(back)).toEqual(Object.keys(value));
    expect(Object.keys(back.A as object)).toEqual(["y", "x"]);
  });

  it("double-quotes every string value, as the sample content does", () => {
    const text = renderYaml({ A: "0", B: ["x"] }, "# m", []);
    expect(text).toBe('# m\nA: "0"\nB:\n  - "x"\n');
  });

  it("starts with the modeline, then one comment line per note with line breaks flattened", () => {
    const text = renderYaml({ A: 1 }, "# yaml-language-server: $schema=../s.json", [
      "from a\nb",
      "two",
    ]);
    expect(text.split("\n").slice(0, 4)).toEqual([
      "# yaml-language-server: $schema=../s.json",
      "# from a b",
      "# two",
      "A: 1",
    ]);
  });
});

describe("file names from brand names and values", () => {
  it.each([
    ["Pennyfold Building Society", "pennyfold-building-society"],
    ["Thistlecombe Bank", "thistlecombe-bank"],
    ["St. Ives", "st-ives"],
    ["Ashby-de-la-Zouch", "ashby-de-la-zouch"],
    ["  Café Zoë & Co. ", "cafe-zoe-co"],
    ["Ystrad Mynach (Caerffili)", "ystrad-mynach-caerffili"],
    ["M&S Bank", "m-s-bank"],
    ["123 Bank", "123-bank"],
    ["—", "unnamed"],
  ])("names %j %j", (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });
});

describe("telling the data set from the feed", () => {
  // Record key to data set id, as the work item lists them.
  const BY_RECORDS_KEY: Record<string, string> = {
    Branch: "branches",
    ATM: "atms",
    PCA: "personal-current-accounts",
    BCA: "business-current-accounts",
    SMELoan: "unsecured-sme-loans",
    CCC: "commercial-credit-cards",
  };

  it.each(DATASETS.filter((d) => d.recordsKey !== null).map((d) => [d.recordsKey!, d.id]))(
    "tells a feed of %s records is %s",
    (key, id) => {
      expect(BY_RECORDS_KEY[key]).toBe(id);
      const feed = readFeed(
        { data: [{ Brand: [{ BrandName: "B", [key]: [{}, {}] }] }] },
        "f",
        undefined,
      );
      expect(feed.dataset.id).toBe(id);
      expect(feed.records).toBe(2);
    },
  );

  it("collects the brands of every data item, in order", () => {
    const envelope = {
      data: [
        { Brand: [{ BrandName: "A", ATM: [{}] }] },
        {
          Brand: [
            { BrandName: "B", ATM: [{}] },
            { BrandName: "C", ATM: [{}, {}] },
          ],
        },
      ],
    };
    const feed = readFeed(envelope, "f", undefined);
    expect(feed.brands.map((b) => [b.value.BrandName, b.where])).toEqual([
      ["A", "data/0/Brand/0"],
      ["B", "data/1/Brand/0"],
      ["C", "data/1/Brand/1"],
    ]);
    expect(feed.records).toBe(4);
  });
});
