import { describe, expect, it } from "vitest";
import { renderYaml } from "../../../build/import/yaml-out.js";
import { parseYaml } from "../../../build/read/yaml-source.js";
import { objectAt, parseJson } from "../../helpers/json.js";

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
    const value = objectAt(
      parseJson('{"Z":1,"A":{"y":"1","x":"2"},"24HourHelp":"Yes","true":"t","null":"n"}'),
      "",
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

  it("turns every control character and line separator in a note into a space", () => {
    // C0 (tab, CR, NUL), DEL, C1 (NEL U+0085), LINE SEPARATOR and PARAGRAPH SEPARATOR.
    const note = "a\tb\rc\u0000d\u007fe\u0085f\u2028g\u2029h";
    const text = renderYaml({ A: 1 }, "# m", [note]);
    expect(text.split("\n").slice(0, 3)).toEqual(["# m", "# a b c d e f g h", "A: 1"]);
    expect(parseYaml("f.yaml", text).value).toEqual({ A: 1 });
  });
});
