/**
 * `npm run import` on feeds shaped like the ones banks really served: `data` as one object, a
 * brand split over several Brand objects, a byte-order mark and CRLF, three-letter language codes,
 * one value where a list belongs; with and without --repair, and with thousands of one problem.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, assert, describe, expect, it } from "vitest";
import { parseYaml } from "../../build/read/yaml-source.js";
import { buildFixture, sampleFixture, type Fixture } from "../helpers/fixtures.js";
import { atm, envelopeOf, importFeeds, writeFeed } from "../helpers/import.js";

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());

const feed = (name: string, value: unknown) => writeFeed(fixture.root, name, value);
const read = (path: string) => readFile(join(fixture.content, path), "utf8");
const valueOf = async (path: string) => parseYaml(path, await read(path)).value;

const FERNBROOK = {
  BrandName: "Fernbrook Bank",
  ATM: [atm("FB-1", "Ashcombe"), atm("FB-2", "Calderwick"), atm("FB-3", "Ashcombe")],
};
/** Fernbrook's ATMs as an older feed wrote them: three-letter codes, one category not a list. */
const OLD_STYLE = {
  BrandName: "Fernbrook Bank",
  ATM: [
    atm("FB-1", "Ashcombe", { SupportedLanguages: ["eng", "wel"] }),
    atm("FB-2", undefined, {
      SupportedLanguages: ["eng"],
      Location: { LocationCategory: "BranchInternal", PostalAddress: { Country: "GB" } },
    }),
  ],
};

describe("the shapes banks serve", () => {
  it("reads data as one object, with a byte-order mark, CRLF line ends and indentation", async () => {
    fixture = await sampleFixture();
    const text = "\uFEFF" + JSON.stringify({ meta: {}, data: { Brand: [FERNBROOK] } }, null, 2);
    const run = await importFeeds(
      [await feed("f.json", text.replace(/\n/g, "\r\n"))],
      fixture.root,
    );
    expect(run.code).toBe(0);
    expect(run.stdout[0]).toBe(
      'wrote content/atms/fernbrook-bank.yaml (3 ATM records) for "Fernbrook Bank"',
    );
    expect(await valueOf("atms/fernbrook-bank.yaml")).toEqual(FERNBROOK);
  });

  it("writes a brand split over several Brand objects as one brand, records in feed order", async () => {
    fixture = await sampleFixture();
    const parts = FERNBROOK.ATM.map((record) => ({ BrandName: "Fernbrook Bank", ATM: [record] }));
    const run = await importFeeds([await feed("f.json", envelopeOf(parts))], fixture.root);
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout[0]).toBe(
      'wrote content/atms/fernbrook-bank.yaml (3 ATM records) for "Fernbrook Bank"',
    );
    expect(await valueOf("atms/fernbrook-bank.yaml")).toEqual(FERNBROOK);
  });
});

describe("repairs", () => {
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
      ...FERNBROOK,
      ATM: [atm("FB-1", "Ashcombe", { SupportedLanguages: ["eng", "sco"] })],
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
});

describe("thousands of one problem", () => {
  const unknown = {
    BrandName: "Fernbrook Bank",
    ATM: Array.from({ length: 300 }, (_, i) =>
      atm(`FB-${i}`, "Ashcombe", { SupportedLanguages: ["xyz"] }),
    ),
  };

  it("fit on a screen: the first few, one line for the rest, and the count", async () => {
    fixture = await sampleFixture();
    const run = await importFeeds([await feed("f.json", envelopeOf([unknown]))], fixture.root);
    expect(run.code).toBe(1);
    expect(run.stderr).toHaveLength(5);
    expect(run.stderr[3]).toBe(
      "  … and 297 more like these (300 in all, rule pattern at /ATM/*/SupportedLanguages/* in content/atms/fernbrook-bank.yaml); --verbose or --report FILE lists every one",
    );
    expect(run.stderr[4]).toBe(
      "\n300 problems in 1 imported file. 1 kind of problem; --verbose or --report FILE lists every one. The files are written: fix them in place, then run npm run validate.",
    );
  });

  it("are all printed with --verbose, and all written to the --report file", async () => {
    fixture = await sampleFixture();
    const name = await feed("f.json", envelopeOf([unknown]));
    const verbose = await importFeeds(["--verbose", name], fixture.root);
    expect(verbose.stderr).toHaveLength(301);
    const run = await importFeeds(["--force", "--report", "report.txt", name], fixture.root);
    const report = (await readFile(join(fixture.root, "report.txt"), "utf8")).trimEnd().split("\n");
    expect(report).toHaveLength(300);
    expect(report[299]).toMatch(
      /^content\/atms\/fernbrook-bank\.yaml:\d+:\d+: \/ATM\/299\/SupportedLanguages\/0: /,
    );
    expect(run.stderr).toHaveLength(5);
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
});

describe("records are preserved", () => {
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
    const result = await buildFixture(fixture, { write: false });
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
