/**
 * The data-quality rules on crafted content: each rule warns at the line and column of the value
 * it is about, and a near miss beside it does not. Built from the sample content plus one brand,
 * "Quality Bank", with a fixed clock, so the sample's own (clean) data takes part as it would.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";
import { qualityMarkdown, qualitySummary } from "../../build/quality/report.js";
import { QUALITY_RULE_IDS } from "../../build/quality/rules.js";
import { buildFixture, sampleFixture, type Fixture } from "../helpers/fixtures.js";

// The build's "today" in these tests.
const NOW = () => new Date("2026-11-24T12:00:00Z");
const ATMS = "content/atms/quality-bank.yaml";
const BRANCHES = "content/branches/quality-bank.yaml";

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());

const indent = (n: number, lines: readonly string[]) => lines.map((l) => " ".repeat(n) + l);

/** An ATM record: the lines after Identification, and the lines of its PostalAddress. */
function atm(id: string, address: readonly string[], extra: readonly string[] = []): string[] {
  return [
    `  - Identification: "${id}"`,
    '    SupportedCurrencies: ["GBP"]',
    ...indent(4, extra),
    "    Location:",
    "      PostalAddress:",
    ...indent(8, address),
  ];
}

/** A branch record with a PostCode, and any more lines. */
function branch(id: string, extra: readonly string[] = [], postcode = "QB1 1AA"): string[] {
  return [
    `  - Identification: "${id}"`,
    '    SequenceNumber: "0"',
    "    Type: Physical",
    "    CustomerSegment: [Personal]",
    ...indent(4, extra),
    "    PostalAddress:",
    `      PostCode: "${postcode}"`,
    '      Country: "GB"',
  ];
}

const brandFile = (key: "ATM" | "Branch", records: readonly string[][]) =>
  ['BrandName: "Quality Bank"', `${key}:`, ...records.flat(), ""].join("\n");

const coordinates = (latitude: string, longitude: string) => [
  "GeoLocation:",
  "  GeographicCoordinates:",
  `    Latitude: "${latitude}"`,
  `    Longitude: "${longitude}"`,
];

const hours = (
  days: readonly [day: string, periods: [string, string][]][],
  key = "StandardAvailability",
) => [
  "Availability:",
  `  ${key}:`,
  "    Day:",
  ...days.flatMap(([day, periods]) => [
    `      - Name: "${day}"`,
    "        OpeningHours:",
    ...periods.flatMap(([open, close]) => [
      `          - OpeningTime: "${open}"`,
      `            ClosingTime: "${close}"`,
    ]),
  ]),
];

/** Line and column of the nth occurrence of `marker` in `text`. */
function at(text: string, marker: string, nth = 1): { line: number; column: number } {
  let index = -1;
  for (let i = 0; i < nth; i++) index = text.indexOf(marker, index + 1);
  if (index < 0) throw new Error(`no ${marker} in the test's content`);
  const before = text.slice(0, index).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** The warnings of a build of the sample plus `files`, as [rule, file, line, column]. */
async function warnings(files: Record<string, string>) {
  fixture = await sampleFixture(files);
  const result = await buildFixture(fixture, { write: false, now: NOW });
  expect(result.diagnostics).toEqual([]);
  return result.quality.warnings.map((w) => [w.rule, w.file, w.line, w.column]);
}

const expectOnly = (
  found: unknown[][],
  rule: string,
  file: string,
  where: { line: number; column: number },
) => expect(found).toEqual([[rule, file, where.line, where.column]]);

describe("data-quality rules", () => {
  it("passes the sample content with no warning", async () => {
    expect(await warnings({})).toEqual([]);
  });

  describe("names", () => {
    it("warns at a town written with other capitals than elsewhere, not at one that only looks alike", async () => {
      const text = brandFile("ATM", [
        atm("QA-1", ['TownName: "Hereford"', 'Country: "GB"']),
        atm("QA-2", ['TownName: "Hereford"', 'Country: "GB"']),
        atm("QA-3", ['TownName: "HEREFORD"', 'Country: "GB"']),
        atm("QA-4", ['TownName: "St Albans"', 'Country: "GB"']),
        atm("QA-5", ['TownName: "St. Albans"', 'Country: "GB"']),
      ]);
      expectOnly(
        await warnings({ "atms/quality-bank.yaml": text }),
        "name-spelling",
        ATMS,
        at(text, '"HEREFORD"'),
      );
    });
  });

  describe("places", () => {
    const one = (lat: string, lon: string, country = "GB") =>
      brandFile("ATM", [atm("QA-1", [`Country: "${country}"`, ...coordinates(lat, lon)])]);

    it.each([
      ["coordinates-zero", "0.0", "0.0", "GB"],
      ["coordinates-swapped", "-1.9", "52.4", "GB"],
      ["coordinates-outside-country", "48.85", "2.35", "GB"],
    ])("%s: warns at Latitude %s, Longitude %s in %s", async (rule, lat, lon, country) => {
      const text = one(lat, lon, country);
      expectOnly(
        await warnings({ "atms/quality-bank.yaml": text }),
        rule,
        ATMS,
        at(text, "Latitude"),
      );
    });

    it.each([
      ["on the Greenwich meridian", "51.47", "0.0", "GB"],
      ["the right way round", "52.4", "-1.9", "GB"],
      ["in Paris with Country FR", "48.85", "2.35", "FR"],
      ["in St Helier with Country JE", "49.18", "-2.11", "JE"],
    ])("stays quiet %s", async (_, lat, lon, country) => {
      expect(await warnings({ "atms/quality-bank.yaml": one(lat, lon, country) })).toEqual([]);
    });

    it("warns at a GB postcode not in the Royal Mail format, not at one that is", async () => {
      const text = brandFile("Branch", [
        branch("QB-1", [], "qb11aa"),
        branch("QB-2", [], "GIR 0AA"),
      ]);
      expectOnly(
        await warnings({ "branches/quality-bank.yaml": text }),
        "postcode-format",
        BRANCHES,
        at(text, '"qb11aa"'),
      );
    });
  });

  describe("links between ATMs and branches", () => {
    it("warns at an ATM's Branch.Identification that names no branch of its brand", async () => {
      const atms = brandFile("ATM", [
        atm("QA-1", ['Country: "GB"'], ["Branch:", '  Identification: "QB-9"']),
        atm("QA-2", ['Country: "GB"'], ["Branch:", '  Identification: "QB-1"']),
      ]);
      const branches = brandFile("Branch", [branch("QB-1")]);
      const found = await warnings({
        "atms/quality-bank.yaml": atms,
        "branches/quality-bank.yaml": branches,
      });
      expectOnly(found, "atm-unknown-branch", ATMS, at(atms, '"QB-9"'));
    });

    it("hints at a branch with an ATM that no ATM points back to", async () => {
      const atms = brandFile("ATM", [
        atm("QA-1", ['Country: "GB"'], ["Branch:", '  Identification: "QB-3"']),
      ]);
      const branches = brandFile("Branch", [
        branch("QB-2", ["ServiceAndFacility: [ExternalATM]"]),
        branch("QB-3", ["ServiceAndFacility: [InternalATM]"]),
      ]);
      const found = await warnings({
        "atms/quality-bank.yaml": atms,
        "branches/quality-bank.yaml": branches,
      });
      expectOnly(found, "branch-atm-not-linked", BRANCHES, at(branches, 'Identification: "QB-2"'));
    });
  });

  describe("opening hours", () => {
    it("warns at a period that closes before it opens, not at one that closes at midnight", async () => {
      const text = brandFile("Branch", [
        branch(
          "QB-1",
          hours([
            ["Monday", [["17:00", "09:00"]]],
            ["Tuesday", [["18:00", "00:00"]]],
          ]),
        ),
      ]);
      const found = await warnings({ "branches/quality-bank.yaml": text });
      expectOnly(
        found,
        "hours-closing-not-after-opening",
        BRANCHES,
        at(text, 'OpeningTime: "17:00"'),
      );
    });

    it("warns at a period that overlaps the one before, not at one that starts as it ends", async () => {
      const text = brandFile("Branch", [
        branch(
          "QB-1",
          hours([
            [
              "Monday",
              [
                ["09:00", "13:00"],
                ["12:00", "17:00"],
              ],
            ],
            [
              "Tuesday",
              [
                ["09:00", "12:00"],
                ["12:00", "17:00"],
              ],
            ],
          ]),
        ),
      ]);
      expectOnly(
        await warnings({ "branches/quality-bank.yaml": text }),
        "hours-overlap",
        BRANCHES,
        at(text, 'OpeningTime: "12:00"'),
      );
    });

    it("warns at a day listed twice, not at the next day", async () => {
      const text = brandFile("Branch", [
        branch(
          "QB-1",
          hours([
            ["Monday", [["09:00", "12:00"]]],
            ["Tuesday", [["09:00", "12:00"]]],
            ["Monday", [["13:00", "17:00"]]],
          ]),
        ),
      ]);
      expectOnly(
        await warnings({ "branches/quality-bank.yaml": text }),
        "hours-day-twice",
        BRANCHES,
        at(text, 'Name: "Monday"', 2),
      );
    });

    it("hints at a 24-hour ATM whose note speaks of hours, not at one that is not 24-hour", async () => {
      const note = (open: boolean) => [
        `Access24HoursIndicator: ${open}`,
        "Note:",
        '  - "Open 9am to 5pm"',
      ];
      const text = brandFile("ATM", [
        atm("QA-1", ['Country: "GB"'], note(true)),
        atm("QA-2", ['Country: "GB"'], note(false)),
      ]);
      expectOnly(
        await warnings({ "atms/quality-bank.yaml": text }),
        "atm-24-hours-note",
        ATMS,
        at(text, '"Open 9am to 5pm"'),
      );
    });

    it("warns at a non-standard availability that has ended, not at one still to come", async () => {
      const ended = (id: string, end: string) =>
        branch(id, [
          "Availability:",
          "  StandardAvailability:",
          "    Day:",
          '      - Name: "Monday"',
          '        OpeningHours: [{ OpeningTime: "09:00", ClosingTime: "17:00" }]',
          "  NonStandardAvailability:",
          '    Name: "Works"',
          `    EndDate: "${end}"`,
        ]);
      const text = brandFile("Branch", [ended("QB-1", "2026-11-23"), ended("QB-2", "2026-11-24")]);
      expectOnly(
        await warnings({ "branches/quality-bank.yaml": text }),
        "availability-ended",
        BRANCHES,
        at(text, '"2026-11-23"'),
      );
    });
  });

  describe("duplicates", () => {
    it("warns at the second record at the same address and coordinates, not at one a few metres away", async () => {
      const place = (lon: string) => [
        'StreetName: "Quay Street"',
        'TownName: "Quayside"',
        'Country: "GB"',
        ...coordinates("53.4", lon),
      ];
      const text = brandFile("ATM", [
        atm("QA-1", place("-2.2")),
        atm("QA-2", place("-2.2")),
        atm("QA-3", place("-2.2001")),
      ]);
      expectOnly(
        await warnings({ "atms/quality-bank.yaml": text }),
        "duplicate-location",
        ATMS,
        at(text, 'Identification: "QA-2"'),
      );
    });

    it("warns at a second product with the same name and marketing dates, not at one marketed from another date", async () => {
      const path = join(
        PROJECT_ROOT,
        "content",
        "personal-current-accounts",
        "pennyfold-building-society.yaml",
      );
      const original = await readFile(path, "utf8");
      const start = original.indexOf('  - Name: "Pennyfold Basic Account"');
      const end = original.indexOf("\n  - Name:", start + 1);
      const product = original.slice(start, end < 0 ? undefined : end + 1);
      const copy = (id: string, first: string) =>
        product
          .replace('Identification: "PBS-CA-BASIC"', `Identification: "${id}"`)
          .replace('FirstMarketedDate: "2016-01-01"', `FirstMarketedDate: "${first}"`);
      const text = `${original.trimEnd()}\n${copy("PBS-CA-BASIC-2", "2016-01-01")}${copy("PBS-CA-BASIC-3", "2017-01-01")}`;
      const found = await warnings({
        "personal-current-accounts/pennyfold-building-society.yaml": text,
      });
      expectOnly(
        found,
        "duplicate-product",
        "content/personal-current-accounts/pennyfold-building-society.yaml",
        at(text, 'Name: "Pennyfold Basic Account"', 2),
      );
    });
  });
});

describe("data quality in the build", () => {
  const badPostcode = brandFile("Branch", [branch("QB-1", [], "qb11aa")]);

  it("publishes despite warnings, and reports them with their rule, data set and count", async () => {
    fixture = await sampleFixture({ "branches/quality-bank.yaml": badPostcode });
    const result = await buildFixture(fixture, { now: NOW });
    expect(result.ok).toBe(true);
    expect(result.quality.counts).toEqual([
      { rule: "postcode-format", dataset: "branches", count: 1 },
    ]);
    expect(result.quality.warnings[0]).toMatchObject({
      severity: "warning",
      message:
        'PostCode "qb11aa" is not in the Royal Mail format (like "SW1A 1AA"); write it "QB1 1AA"',
    });
  });

  it.each([["postcode-format"], ["all"]])(
    "fails without writing when site.yaml's QualityErrors lists %s",
    async (listed) => {
      const site = await readFile(join(PROJECT_ROOT, "content", "site.yaml"), "utf8");
      fixture = await sampleFixture({
        "branches/quality-bank.yaml": badPostcode,
        "site.yaml": `${site}QualityErrors: ["${listed}"]\n`,
      });
      const result = await buildFixture(fixture, { now: NOW });
      expect(result.ok).toBe(false);
      expect(result.diagnostics.map((d) => [d.rule, d.file, d.severity])).toEqual([
        ["postcode-format", BRANCHES, undefined],
      ]);
    },
  );

  it("lists exactly the rules it has in site.yaml's schema, and all", async () => {
    const schema = JSON.parse(
      await readFile(join(PROJECT_ROOT, "schemas", "site.schema.json"), "utf8"),
    );
    expect(schema.properties.QualityErrors.items.enum).toEqual([
      "all",
      "name-spelling",
      "coordinates-zero",
      "coordinates-swapped",
      "coordinates-outside-country",
      "postcode-format",
      "atm-unknown-branch",
      "branch-atm-not-linked",
      "hours-closing-not-after-opening",
      "hours-overlap",
      "hours-day-twice",
      "atm-24-hours-note",
      "duplicate-location",
      "duplicate-product",
      "availability-ended",
    ]);
    expect(["all", ...QUALITY_RULE_IDS]).toEqual(schema.properties.QualityErrors.items.enum);
  });
});

describe("the data-quality report", () => {
  const finding = {
    file: "content/atms/a.yaml",
    line: 7,
    column: 9,
    pointer: "/ATM/0/Location/PostalAddress/PostCode",
    message: 'PostCode "x" is not in the Royal Mail format',
    rule: "postcode-format",
    severity: "warning" as const,
  };
  const counts = [{ rule: "postcode-format", dataset: "atms", count: 1 }];

  it("sums up per rule and data set, and says so when there is nothing", () => {
    expect(qualitySummary(counts)[1]).toMatch(/^\s+1\s+postcode-format\s+atms$/);
    expect(qualitySummary([])).toEqual(["Data quality: no warnings."]);
  });

  it("writes Markdown with the counts and each finding at file:line:column", () => {
    const markdown = qualityMarkdown(counts, [finding]);
    expect(markdown).toContain("| `postcode-format` | atms | 1 |");
    expect(markdown).toContain(
      '- `content/atms/a.yaml:7:9: warning: /ATM/0/Location/PostalAddress/PostCode: PostCode "x" is not in the Royal Mail format [postcode-format]`',
    );
  });
});
