import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseYaml } from "../../../build/read/yaml-source.js";
import { digestFolder, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { sampleBuild } from "../../helpers/sample-build.js";
import { atm, envelopeOf, IMPORTED_AT, importFeeds, writeFeed } from "../../helpers/import.js";
import { runImport } from "../../../build/cli/import-run.js";
import { runNode } from "../../helpers/cli.js";
import { PROJECT_ROOT } from "../../../build/core/paths.js";

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());

const feed = (name: string, value: unknown) => writeFeed(fixture.root, name, value);

/** The body the sample content publishes for data set `id`, as the run built it. */
async function published(id: string): Promise<unknown> {
  const sample = sampleBuild();
  const entry = (await sample.manifest()).datasets.find((d) => d.dataset === id)!;
  return JSON.parse(await sample.read(entry.variants.identity.asset));
}

const read = (path: string) => readFile(join(fixture.content, path), "utf8");
const valueOf = async (path: string) => parseYaml(path, await read(path)).value;
/** Everything under content/, to prove a refused import changed nothing. */
const snapshot = () => digestFolder(fixture.content);

const FERNBROOK = {
  BrandName: "Fernbrook Bank",
  ATM: [atm("FB-1", "Ashcombe"), atm("FB-2", "Calderwick"), atm("FB-3", "Ashcombe")],
};

describe("importing a feed", () => {
  it("prints the data-quality summary of what it imported, each finding at its line", async () => {
    fixture = await sampleFixture();
    const shouting = { ...FERNBROOK, ATM: [atm("FB-1", "Ashcombe"), atm("FB-2", "ASHCOMBE")] };
    const run = await importFeeds([await feed("atms.json", envelopeOf([shouting]))], fixture.root);
    expect(run.code).toBe(0);
    expect(run.stdout.slice(1, 3)).toEqual([
      "1 imported file is valid.",
      'Data quality: 1 finding (docs/editing.md, "Data quality", says what each rule means):',
    ]);
    expect(run.stdout[3]).toMatch(/^\s+1\s+name-spelling\s+atms$/);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toMatch(
      /^content\/atms\/fernbrook-bank\.yaml:\d+:\d+: warning: \/ATM\/1\/Location\/PostalAddress\/TownName: TownName is written 2 ways: "Ashcombe" once \(.*\), "ASHCOMBE" once/,
    );
  });

  it("writes each brand as one file named from BrandName, headed by the modeline and the source and time", async () => {
    fixture = await sampleFixture();
    const run = await importFeeds([await feed("atms.json", envelopeOf([FERNBROOK]))], fixture.root);
    expect(run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toEqual([
      'wrote content/atms/fernbrook-bank.yaml (3 ATM records) for "Fernbrook Bank"',
      "1 imported file is valid.",
      "Data quality: no warnings.",
    ]);
    const text = await read("atms/fernbrook-bank.yaml");
    expect(text.split("\n").slice(0, 5)).toEqual([
      "# yaml-language-server: $schema=../../schemas/atm-brand.schema.json",
      "# Imported by npm run import from atms.json at 2026-11-22T09:30:00Z.",
      'BrandName: "Fernbrook Bank"',
      "ATM:",
      '  - Identification: "FB-1"',
    ]);
    expect(await valueOf("atms/fernbrook-bank.yaml")).toEqual(FERNBROOK);
  });

  it("keeps the feed's key order and record order", async () => {
    fixture = await sampleFixture();
    const brand = {
      ATM: [
        {
          Location: { PostalAddress: { TownName: "Z" } },
          SupportedCurrencies: ["GBP"],
          Identification: "B",
        },
        atm("A"),
      ],
      BrandName: "Order Bank",
    };
    await importFeeds([await feed("f.json", envelopeOf([brand]))], fixture.root);
    const value = (await valueOf("atms/order-bank.yaml")) as typeof brand;
    expect(Object.keys(value)).toEqual(["ATM", "BrandName"]);
    expect(Object.keys(value.ATM[0]!)).toEqual([
      "Location",
      "SupportedCurrencies",
      "Identification",
    ]);
    expect(value.ATM.map((r) => r.Identification)).toEqual(["B", "A"]);
  });

  it("keeps strings that look like numbers, booleans, null, dates or times as text", async () => {
    fixture = await sampleFixture();
    const tricky = [
      "0",
      "1.50",
      "true",
      "09:00",
      "2026-01-31",
      "null",
      "~",
      "1e3",
      "0x1F",
      "0o7",
      ".inf",
      "yes",
      "No",
      "- x",
      "#1",
    ];
    const brand = {
      BrandName: "Quote Bank",
      ATM: tricky.map((id, i) =>
        atm(id, undefined, { Note: [id], MinimumPossibleAmount: `${i}.00` }),
      ),
    };
    const run = await importFeeds([await feed("f.json", envelopeOf([brand]))], fixture.root);
    // Identifications "true" and "null" are no identifiers: the data-quality pass says so, only.
    expect(run.stderr.map((line) => /\[([a-z-]+)\]$/.exec(line)?.[1])).toEqual([
      "identifier-placeholder",
      "identifier-placeholder",
    ]);
    expect(await valueOf("atms/quote-bank.yaml")).toEqual(JSON.parse(JSON.stringify(brand)));
    const text = await read("atms/quote-bank.yaml");
    for (const value of tricky) expect(text).toContain(`Note:\n      - ${JSON.stringify(value)}\n`);
  });

  it("imports several feeds of different data sets in one run", async () => {
    fixture = await sampleFixture();
    const branches = await published("branches");
    await fixture.put({
      "branches/thistlecombe-bank": null,
      "branches/pennyfold-building-society.yaml": null,
    });
    const run = await importFeeds(
      [await feed("atms.json", envelopeOf([FERNBROOK])), await feed("branches.json", branches)],
      fixture.root,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'wrote content/branches/thistlecombe-bank.yaml (4 Branch records) for "Thistlecombe Bank"',
    );
    expect(await readdir(join(fixture.content, "branches"))).toEqual([
      "pennyfold-building-society.yaml",
      "thistlecombe-bank.yaml",
    ]);
  });
});

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
});
describe("--split-by", () => {
  it("writes a brand folder with one file per value, records in feed order, named from the value", async () => {
    fixture = await sampleFixture();
    const run = await importFeeds(
      [
        "--split-by",
        "Location.PostalAddress.TownName",
        await feed("f.json", envelopeOf([FERNBROOK])),
      ],
      fixture.root,
    );
    expect(run.code).toBe(0);
    expect(run.stdout[0]).toBe(
      'wrote content/atms/fernbrook-bank/ (2 files, 3 ATM records) for "Fernbrook Bank"',
    );
    expect((await readdir(join(fixture.content, "atms/fernbrook-bank"))).sort()).toEqual([
      "ashcombe.yaml",
      "calderwick.yaml",
    ]);
    const ashcombe = await read("atms/fernbrook-bank/ashcombe.yaml");
    expect(ashcombe.split("\n").slice(0, 3)).toEqual([
      "# yaml-language-server: $schema=../../../schemas/atm-brand.schema.json",
      "# Imported by npm run import from f.json at 2026-11-22T09:30:00Z.",
      '# Fernbrook Bank: ATM records whose Location.PostalAddress.TownName is "Ashcombe".',
    ]);
    expect(await valueOf("atms/fernbrook-bank/ashcombe.yaml")).toEqual({
      BrandName: "Fernbrook Bank",
      ATM: [atm("FB-1", "Ashcombe"), atm("FB-3", "Ashcombe")],
    });
  });

  it("puts records without the field in a file of their own and numbers values that give the same name", async () => {
    fixture = await sampleFixture();
    const brand = {
      BrandName: "Split Bank",
      ATM: [atm("1", "St. Ives"), atm("2"), atm("3", "St Ives"), atm("4", "St. Ives")],
    };
    const run = await importFeeds(
      ["--split-by", "Location.PostalAddress.TownName", await feed("f.json", envelopeOf([brand]))],
      fixture.root,
    );
    expect(run.code).toBe(0);
    const ids = async (file: string) =>
      ((await valueOf(`atms/split-bank/${file}`)) as typeof brand).ATM.map((r) => r.Identification);
    expect((await readdir(join(fixture.content, "atms/split-bank"))).sort()).toEqual([
      "_no-townname.yaml",
      "st-ives-2.yaml",
      "st-ives.yaml",
    ]);
    expect(await ids("st-ives.yaml")).toEqual(["1", "4"]);
    expect(await ids("st-ives-2.yaml")).toEqual(["3"]);
    expect(await ids("_no-townname.yaml")).toEqual(["2"]);
  });

  it("refuses a field that holds a list rather than one value", async () => {
    fixture = await sampleFixture();
    const before = await snapshot();
    const run = await importFeeds(
      ["--split-by", "SupportedCurrencies", await feed("f.json", envelopeOf([FERNBROOK]))],
      fixture.root,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([
      "import: f.json: data/0/Brand/0/ATM/0: SupportedCurrencies is a list, not one value; split by a field that holds text",
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses to split a service metrics brand, which is one object", async () => {
    fixture = await sampleFixture();
    const run = await importFeeds(
      [
        "--dataset",
        "service-metrics-pca",
        "--split-by",
        "BrandName",
        await feed("pca.json", await published("service-metrics-pca")),
      ],
      fixture.root,
    );
    expect(run.code).toBe(1);
    expect(run.stderr[0]).toBe(
      "import: --split-by works on a list of records; a service-metrics-pca brand is one object, written as one file",
    );
  });
});

describe("existing content", () => {
  const THISTLECOMBE = { BrandName: "Thistlecombe Bank", ATM: [atm("TB-NEW", "Wexbury")] };

  it("refuses a brand that already has content in the data set, and changes nothing", async () => {
    fixture = await sampleFixture();
    const before = await snapshot();
    const run = await importFeeds(
      [await feed("f.json", envelopeOf([FERNBROOK, THISTLECOMBE]))],
      fixture.root,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toEqual([
      'import: these brands already have content: content/atms/thistlecombe-bank (brand "Thistlecombe Bank"). Nothing was written. Run again with --force to replace exactly these, or move them away first',
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it("with --force replaces that brand's folder in that data set and nothing else", async () => {
    fixture = await sampleFixture();
    const before = await snapshot();
    const run = await importFeeds(
      ["--force", await feed("f.json", envelopeOf([THISTLECOMBE]))],
      fixture.root,
    );
    expect(run.code).toBe(0);
    const after = await snapshot();
    const changed = [...new Set([...before.keys(), ...after.keys()])]
      .filter((path) => before.get(path) !== after.get(path))
      .sort();
    expect(changed).toEqual([
      "atms/thistlecombe-bank.yaml",
      "atms/thistlecombe-bank/north.yaml",
      "atms/thistlecombe-bank/south.yaml",
    ]);
    expect(after.has("atms/thistlecombe-bank/north.yaml")).toBe(false);
    expect(await valueOf("atms/thistlecombe-bank.yaml")).toEqual(THISTLECOMBE);
  });

  it("with --force leaves no temporary files behind", async () => {
    fixture = await sampleFixture();
    await importFeeds(
      ["--force", "--split-by", "Identification", await feed("f.json", envelopeOf([THISTLECOMBE]))],
      fixture.root,
    );
    expect((await readdir(join(fixture.content, "atms"))).sort()).toEqual([
      "pennyfold-building-society.yaml",
      "thistlecombe-bank",
    ]);
  });
});

describe("bad input: a clear error and nothing written", () => {
  const cases: [name: string, body: unknown, args: string[], message: string][] = [
    [
      "a file that is not JSON",
      "<html>oops</html>",
      [],
      'import: f.json is not JSON: Unexpected token \'<\', "<html>oops</html>" is not valid JSON; it starts "<html>oops</html>"',
    ],
    [
      "JSON that is not an envelope",
      [1, 2],
      [],
      'import: f.json is not a response envelope: expected a JSON object whose "data" is a list of {"Brand": […]} objects (or one such object), as in {"meta": …, "data": [{"Brand": […]}]}',
    ],
    [
      "a data item without a Brand list",
      { data: [{}] },
      [],
      'import: f.json is not a response envelope: data/0 has no "Brand" list',
    ],
    [
      "a feed with no brands",
      { meta: {}, data: [] },
      [],
      'import: f.json has no brands: "data" holds none',
    ],
    [
      "a feed with no records",
      envelopeOf([{ BrandName: "Empty", ATM: [] }]),
      [],
      "import: f.json has no records: every ATM list is empty",
    ],
    [
      "a brand without BrandName",
      envelopeOf([{ ATM: [atm("1")] }]),
      [],
      "import: f.json: data/0/Brand/0 has no BrandName; every brand needs one, its file is named from it",
    ],
    [
      "a feed whose data set cannot be told",
      envelopeOf([{ BrandName: "X", Other: [] }]),
      [],
      "import: cannot tell the data set of f.json: its brands have no Branch, ATM, PCA, BCA, SMELoan, CCC list. Service metrics feeds look alike, so name it: --dataset service-metrics-pca or --dataset service-metrics-bca",
    ],
    [
      "a feed mixing two record kinds",
      envelopeOf([
        { BrandName: "X", ATM: [atm("1")] },
        { BrandName: "Y", Branch: [{}] },
      ]),
      [],
      "import: f.json mixes ATM and Branch records; a feed is one data set",
    ],
    [
      "a --dataset the feed does not match",
      envelopeOf([FERNBROOK]),
      ["--dataset", "branches"],
      "import: f.json: data/0/Brand/0 holds ATM records, but branches is made of Branch records",
    ],
    [
      "a --dataset that is not a data set",
      envelopeOf([FERNBROOK]),
      ["--dataset", "atm"],
      'import: --dataset "atm" is not a data set; use one of ',
    ],
    [
      "two brands whose names give one file name",
      envelopeOf([FERNBROOK, { ...FERNBROOK, BrandName: "Fernbrook  bank!" }]),
      [],
      'import: f.json: the brands "Fernbrook Bank" and "Fernbrook  bank!" (data/0/Brand/1) would both be written as "fernbrook-bank"; a data set\'s brands need names that differ in more than case, accents or punctuation',
    ],
    [
      "a --split-by that is not a field path",
      envelopeOf([FERNBROOK]),
      ["--split-by", "Location..TownName"],
      'import: --split-by "Location..TownName" is not a field path; write the field names inside one record joined by dots, e.g. Location.PostalAddress.TownName',
    ],
  ];

  it.each(cases)("refuses %s", async (_, body, args, message) => {
    fixture = await sampleFixture();
    const before = await snapshot();
    const run = await importFeeds([...args, await feed("f.json", body)], fixture.root);
    expect(run.code).toBe(1);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]!.startsWith(message)).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a missing file, naming it", async () => {
    fixture = await sampleFixture();
    const run = await importFeeds(["nowhere.json"], fixture.root);
    expect(run).toEqual({
      code: 1,
      stdout: [],
      stderr: ["import: cannot read nowhere.json: no such file"],
    });
  });

  it("writes nothing when the second feed of a run is bad", async () => {
    fixture = await sampleFixture();
    const before = await snapshot();
    const run = await importFeeds(
      [await feed("good.json", envelopeOf([FERNBROOK])), await feed("bad.json", "{")],
      fixture.root,
    );
    expect(run.code).toBe(1);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    [[], "no feed given"],
    [["--frobnicate", "f.json"], "Unknown option '--frobnicate'"],
    [["--timeout", "soon", "f.json"], "--timeout takes a number of seconds"],
  ])("answers usage errors %j with exit code 2, saying why on its stderr", async (args, why) => {
    fixture = await sampleFixture();
    const run = await importFeeds(args, fixture.root);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr.join("\n")).toContain(why);
    expect(run.stderr.join("\n")).toContain("usage: npm run import");
  });
});

describe("service metrics", () => {
  it("needs --dataset, and with it writes the whole brand object", async () => {
    fixture = await sampleFixture();
    const pca = (await published("service-metrics-pca")) as {
      data: { Brand: { BrandName: string }[] }[];
    };
    const brand = pca.data[0]!.Brand[0]!;
    await fixture.put({
      "service-metrics-bca/pennyfold-building-society.yaml": null,
      "service-metrics-bca/thistlecombe-bank.yaml": null,
    });
    const run = await importFeeds(
      ["--dataset", "service-metrics-bca", await feed("m.json", envelopeOf([brand]))],
      fixture.root,
    );
    expect(brand.BrandName).toBe("Pennyfold Building Society");
    expect(run.stdout[0]).toBe(
      'wrote content/service-metrics-bca/pennyfold-building-society.yaml (the brand object) for "Pennyfold Building Society"',
    );
    expect(run.code).toBe(0);
  });
});

describe("after writing", () => {
  it("reports every problem as npm run validate does, at the line in the new YAML, and exits 1", async () => {
    fixture = await sampleFixture();
    const brand = { BrandName: "Zed", ATM: [{ Identification: "A1" }, atm("A1")] };
    const run = await importFeeds([await feed("f.json", envelopeOf([brand]))], fixture.root);
    expect(run.code).toBe(1);
    expect(run.stdout).toEqual(['wrote content/atms/zed.yaml (2 ATM records) for "Zed"']);
    expect(run.stderr).toEqual([
      'content/atms/zed.yaml:5:5: /ATM/0: Identification "A1" is used by two records of this brand; the other is at content/atms/zed.yaml:6:5',
      'content/atms/zed.yaml:5:5: /ATM/0/Location: required field "Location" is missing',
      'content/atms/zed.yaml:5:5: /ATM/0/SupportedCurrencies: required field "SupportedCurrencies" is missing',
      'content/atms/zed.yaml:6:5: /ATM/1: Identification "A1" is used by two records of this brand; the other is at content/atms/zed.yaml:5:5',
      "\n4 problems in 1 imported file. The files are written: fix them in place, then run npm run validate.",
    ]);
  });

  it("also prints the problems as annotations under GitHub Actions", async () => {
    fixture = await sampleFixture();
    const brand = {
      BrandName: "Zed",
      ATM: [{ Identification: "A1", SupportedCurrencies: ["GBP"] }],
    };
    const run = await importFeeds([await feed("f.json", envelopeOf([brand]))], fixture.root, {
      GITHUB_ACTIONS: "true",
    });
    expect(run.stdout[1]).toBe(
      '::error file=content/atms/zed.yaml,line=5,col=5,title=/ATM/0/Location::required field "Location" is missing',
    );
  });
});

describe("the compiled command", () => {
  it("runs as npm run import does and exits 0 after a clean import", async () => {
    fixture = await sampleFixture();
    const run = await runNode(
      join(PROJECT_ROOT, ".out/build/cli/import.js"),
      // --no-cache: the project's .cache/build is no place for a test's files.
      ["--content", "content", "--no-cache", await feed("f.json", envelopeOf([FERNBROOK]))],
      { cwd: fixture.root },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("1 imported file is valid.");
  });
});

describe("--no-cache and --cache", () => {
  it("checks without writing the build cache, which a run without it fills", async () => {
    fixture = await sampleFixture();
    const file = await feed("f.json", envelopeOf([FERNBROOK]));
    const cacheDir = join(fixture.root, "cache");
    const io = (args: string[]) =>
      runImport(["--content", "content", ...args], {
        cwd: fixture.root,
        now: () => IMPORTED_AT,
        stdout: () => {},
        stderr: () => {},
        env: {},
        cacheDir,
      });
    expect(await io(["--no-cache", file])).toBe(0);
    expect(await readdir(cacheDir).catch(() => [])).toEqual([]);
    expect(await io(["--force", file])).toBe(0);
    expect((await readdir(cacheDir, { recursive: true })).length).toBeGreaterThan(0);
  });

  it("checks with the folder --cache names, relative to the working folder", async () => {
    fixture = await sampleFixture();
    const file = await feed("f.json", envelopeOf([FERNBROOK]));
    const code = await runImport(["--content", "content", "--cache", "own-cache", file], {
      cwd: fixture.root,
      now: () => IMPORTED_AT,
      stdout: () => {},
      stderr: () => {},
      env: {},
    });
    expect(code).toBe(0);
    expect((await readdir(join(fixture.root, "own-cache"))).length).toBeGreaterThan(0);
  });
});
