/**
 * The data-quality rules on crafted content: each rule warns at the line and column of the value
 * it is about, and a near miss beside it does not. Built from the sample content plus one brand,
 * "Quality Bank", with a fixed clock, so the sample's own (clean) data takes part as it would.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../build/core/paths.js";
import { qualityMarkdown, qualitySummary } from "../../../build/quality/report.js";
import { QUALITY_RULE_IDS } from "../../../build/quality/rules.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";

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

/** The warnings of a build of the sample plus `files`. */
async function findings(files: Record<string, string>) {
  fixture = await sampleFixture(files);
  const result = await buildFixture(fixture, { write: false, now: NOW });
  expect(result.diagnostics).toEqual([]);
  return result.quality.warnings;
}

/** The warnings of a build of the sample plus `files`, as [rule, file, line, column]. */
async function warnings(files: Record<string, string>) {
  return (await findings(files)).map((w) => [w.rule, w.file, w.line, w.column]);
}

/** The one warning of a build of the sample plus `files`: where, as [rule, file, line, column], and what. */
async function onlyFinding(files: Record<string, string>) {
  const found = await findings(files);
  expect(found.map((w) => w.rule)).toHaveLength(1);
  const [w] = found;
  return { where: [w!.rule, w!.file, w!.line, w!.column], message: w!.message };
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

  describe("one finding per inconsistency", () => {
    it("tells a town's spellings once, with how often and where each is used", async () => {
      const text = brandFile("ATM", [
        atm("QA-1", ['TownName: "Hereford"', 'Country: "GB"']),
        atm("QA-2", ['TownName: "HEREFORD"', 'Country: "GB"']),
        atm("QA-3", ['TownName: "Hereford"', 'Country: "GB"']),
        atm("QA-4", ['TownName: "HEREFORD"', 'Country: "GB"']),
      ]);
      const { where, message } = await onlyFinding({ "atms/quality-bank.yaml": text });
      const place = (nth: number) => {
        const { line, column } = at(text, "TownName", nth);
        return `${ATMS}:${line}:${column + 10}`;
      };
      expect(where).toEqual(["name-spelling", ATMS, ...Object.values(at(text, '"HEREFORD"'))]);
      expect(message).toBe(
        `TownName is written 2 ways: "Hereford" 2 times (${place(1)} and 1 more), "HEREFORD" 2 times (${place(2)}, ${place(4)}); use one spelling`,
      );
    });

    it("tells a file that writes in capitals the names other files write otherwise once, not per name", async () => {
      const towns = ["Wexby", "Quayside", "Stainby Cross"];
      const atms = brandFile(
        "ATM",
        towns.map((town, i) =>
          atm(`QA-${i}`, [`TownName: "${town.toUpperCase()}"`, 'Country: "GB"']),
        ),
      );
      const branches = brandFile(
        "Branch",
        towns.map((town, i) => [...branch(`QB-${i}`), `      TownName: "${town}"`]),
      );
      const { where, message } = await onlyFinding({
        "atms/quality-bank.yaml": atms,
        "branches/quality-bank.yaml": branches,
      });
      expect(where).toEqual(["name-spelling", ATMS, ...Object.values(at(atms, '"WEXBY"'))]);
      expect(message).toMatch(
        /^TownName is in capitals in this file for 3 names that other files write otherwise: .*"WEXBY" \("Wexby" at content\/branches\/quality-bank\.yaml:\d+:\d+\).*; use one spelling for each$/,
      );
    });

    it("tells a Country shared by many records once, naming them", async () => {
      const text = brandFile("ATM", [
        atm("QA-1", ['Country: "UK"']),
        atm("QA-2", ['Country: "UK"']),
        atm("QA-3", ['Country: "GB"']),
      ]);
      const { where, message } = await onlyFinding({ "atms/quality-bank.yaml": text });
      expect(where).toEqual(["country-code", ATMS, ...Object.values(at(text, '"UK"'))]);
      expect(message).toBe(
        'Country "UK" is not an ISO 3166-1 alpha-2 code, in 2 records (QA-1, QA-2); write "GB"',
      );
    });

    it("tells postcodes padded alike once, each still said how to write", async () => {
      const text = brandFile("Branch", [
        branch("QB-1", [], "QB1  1AA"),
        branch("QB-2", [], "QB2  2BB"),
        branch("QB-3", [], "QB3 3CC"),
      ]);
      const { where, message } = await onlyFinding({ "branches/quality-bank.yaml": text });
      expect(where).toEqual([
        "postcode-format",
        BRANCHES,
        ...Object.values(at(text, '"QB1  1AA"')),
      ]);
      expect(message).toBe(
        '2 PostCodes have more spaces than one (QB-1, QB-2), such as "QB1  1AA": write each as Royal Mail does, "QB1 1AA" for this one',
      );
    });
  });

  describe("what real feeds get wrong", () => {
    it("country-code: warns at Country UK, saying to write GB, not at GB; and checks a UK record as GB", async () => {
      const text = brandFile("ATM", [
        atm("QA-1", ['Country: "UK"', ...coordinates("48.85", "2.35")]),
        atm("QA-2", ['Country: "GB"', ...coordinates("52.4", "-1.9")]),
      ]);
      const found = await findings({ "atms/quality-bank.yaml": text });
      expect(found.map((w) => [w.rule, w.line, w.column])).toEqual([
        ["country-code", ...Object.values(at(text, '"UK"'))],
        ["coordinates-outside-country", ...Object.values(at(text, "Latitude"))],
      ]);
      expect(found[0]!.message).toBe('Country "UK" is not an ISO 3166-1 alpha-2 code; write "GB"');
    });

    it('identifier-placeholder: warns at Branch.Identification "true", once for all, not at a real one, and not again as an unknown branch', async () => {
      const atms = brandFile("ATM", [
        atm("QA-1", ['Country: "GB"'], ["Branch:", '  Identification: "true"']),
        atm("QA-2", ['Country: "GB"'], ["Branch:", '  Identification: "true"']),
        atm("QA-3", ['Country: "GB"'], ["Branch:", '  Identification: "QB-1"']),
      ]);
      const { where, message } = await onlyFinding({
        "atms/quality-bank.yaml": atms,
        "branches/quality-bank.yaml": brandFile("Branch", [branch("QB-1")]),
      });
      expect(where).toEqual(["identifier-placeholder", ATMS, ...Object.values(at(atms, '"true"'))]);
      expect(message).toBe(
        'Branch.Identification "true" is not an identifier, in 2 ATMs (QA-1, QA-2); give the Identification of the branch the ATM belongs to, or leave Branch out',
      );
    });

    it("brand-spelling: warns at a BrandName written otherwise in another data set, not at another brand", async () => {
      const named = (name: string, text: string) =>
        text.replace('BrandName: "Quality Bank"', `BrandName: "${name}"`);
      const atms = named("Quality Bank PLC", brandFile("ATM", [atm("QA-1", ['Country: "GB"'])]));
      const branches = brandFile("Branch", [branch("QB-1")]);
      const business = named("Quality Business Bank", brandFile("Branch", [branch("QX-1")]));
      const { where, message } = await onlyFinding({
        "atms/quality-bank.yaml": atms,
        "branches/quality-bank.yaml": branches,
        "branches/quality-business-bank.yaml": business,
      });
      expect(where).toEqual([
        "brand-spelling",
        ATMS,
        ...Object.values(at(atms, '"Quality Bank PLC"')),
      ]);
      expect(message).toMatch(
        /^one brand is written 2 ways across data sets: "Quality Bank" in branches \(content\/branches\/quality-bank\.yaml:1:12\); "Quality Bank PLC" in atms/,
      );
    });

    describe("places", () => {
      // Three ATMs place postcode area CH at Chester and HX at Halifax.
      const chester = [1, 2, 3].map((n) =>
        atm(`QA-CH${n}`, [
          `PostCode: "CH${n} 1AA"`,
          'Country: "GB"',
          ...coordinates(`53.19${n}`, "-2.89"),
        ]),
      );
      const halifax = [1, 2, 3].map((n) =>
        atm(`QA-HX${n}`, [
          `PostCode: "HX${n} 1AA"`,
          'Country: "GB"',
          ...coordinates(`53.72${n}`, "-1.86"),
        ]),
      );
      const exeter = [1, 2, 3].map((n) =>
        atm(`QA-EX${n}`, [
          `PostCode: "EX${n} 1AA"`,
          'Country: "GB"',
          ...coordinates(`50.72${n}`, "-3.53"),
        ]),
      );
      const with_ = (...records: string[][]) =>
        brandFile("ATM", [...chester, ...halifax, ...exeter, ...records]);

      it("coordinates-sign-flipped: warns at a longitude whose other sign lands in its postcode area, giving it", async () => {
        const text = with_(
          atm("QA-1", ['PostCode: "CH7 1AR"', 'Country: "GB"', ...coordinates("53.167", "3.142")]),
        );
        const { where, message } = await onlyFinding({ "atms/quality-bank.yaml": text });
        expect(where).toEqual([
          "coordinates-sign-flipped",
          ATMS,
          ...Object.values(at(text, "Latitude", 10)),
        ]);
        expect(message).toBe(
          'Longitude 3.142 looks sign-flipped: the other sign puts it with the other records in postcode area CH; write Longitude "-3.142"',
        );
      });

      it("says only outside, not flipped, when the other sign lands far from the postcode area", async () => {
        const text = with_(
          atm("QA-1", ['PostCode: "HX3 0TD"', 'Country: "GB"', ...coordinates("51.4549", "2.592")]),
        );
        const { where, message } = await onlyFinding({ "atms/quality-bank.yaml": text });
        expect(where[0]).toBe("coordinates-outside-country");
        expect(message).toBe(
          "Latitude 51.4549, Longitude 2.592 is outside GB, the record's Country; give its real position",
        );
      });

      it("coordinates-outside-country: names the Crown dependency and its code, once for all its records", async () => {
        const text = brandFile("ATM", [
          atm("QA-1", ['Country: "GB"', ...coordinates("49.18", "-2.11")]),
          atm("QA-2", ['Country: "GB"', ...coordinates("49.19", "-2.10")]),
        ]);
        const { where, message } = await onlyFinding({ "atms/quality-bank.yaml": text });
        expect(where).toEqual([
          "coordinates-outside-country",
          ATMS,
          ...Object.values(at(text, "Latitude")),
        ]);
        expect(message).toBe(
          "2 records with Country GB are in Jersey (QA-1, QA-2): Country should be JE",
        );
      });

      it("coordinates-shared: warns at a position given to records in postcode areas far apart, not at one shared within an area", async () => {
        const text = with_(
          atm("QA-1", [
            'PostCode: "EX4 3NZ"',
            'Country: "GB"',
            ...coordinates("50.7247", "-3.5293"),
          ]),
          atm("QA-2", [
            'PostCode: "CH2 1FB"',
            'Country: "GB"',
            ...coordinates("50.7247", "-3.5293"),
          ]),
          atm("QA-3", ['PostCode: "CH1 2AB"', 'Country: "GB"', ...coordinates("53.195", "-2.89")]),
          atm("QA-4", ['PostCode: "CH3 3CD"', 'Country: "GB"', ...coordinates("53.195", "-2.89")]),
        );
        const { where, message } = await onlyFinding({ "atms/quality-bank.yaml": text });
        expect(where).toEqual([
          "coordinates-shared",
          ATMS,
          ...Object.values(at(text, "Latitude", 10)),
        ]);
        expect(message).toMatch(
          /^Latitude 50\.7247, Longitude -3\.5293 is the position of 2 records in postcode areas about \d+ km apart: (EX \(QA-1\) and CH \(QA-2\)|CH \(QA-2\) and EX \(QA-1\)); a placeholder or a mistake: give each record its own position$/,
        );
      });
    });
  });

  describe("duplicates", () => {
    const site = (lon: string) => [
      '      StreetName: "Quay Street"',
      '      TownName: "Quayside"',
      ...indent(6, coordinates("53.4", lon)),
    ];

    it("warns at the second branch at the same address and coordinates, not at one a few metres away", async () => {
      const text = brandFile("Branch", [
        [...branch("QB-1"), ...site("-2.2")],
        [...branch("QB-2"), ...site("-2.2")],
        [...branch("QB-3"), ...site("-2.2001")],
      ]);
      const { where, message } = await onlyFinding({ "branches/quality-bank.yaml": text });
      expect(where).toEqual([
        "duplicate-location",
        BRANCHES,
        ...Object.values(at(text, 'Identification: "QB-2"')),
      ]);
      expect(message).toMatch(
        /^2 branches of Quality Bank have the same address and coordinates: QB-1 at .*, QB-2 at .*; publish each branch once$/,
      );
    });

    it("stays quiet at several ATMs at one site, and a mobile branch's stop at a branch", async () => {
      const place = [
        'StreetName: "Quay Street"',
        'TownName: "Quayside"',
        'Country: "GB"',
        ...coordinates("53.4", "-2.2"),
      ];
      const atms = brandFile("ATM", [atm("QA-1", place), atm("QA-2", place), atm("QA-3", place)]);
      const mobile = [...branch("QB-2"), ...site("-2.2")].map((line) =>
        line === "    Type: Physical" ? "    Type: Mobile" : line,
      );
      const branches = brandFile("Branch", [[...branch("QB-1"), ...site("-2.2")], mobile]);
      expect(
        await warnings({ "atms/quality-bank.yaml": atms, "branches/quality-bank.yaml": branches }),
      ).toEqual([]);
    });

    it("warns at a second product the same in all but Identification, not at one marketed from another date", async () => {
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
      "brand-spelling",
      "country-code",
      "coordinates-zero",
      "coordinates-swapped",
      "coordinates-sign-flipped",
      "coordinates-outside-country",
      "coordinates-shared",
      "postcode-format",
      "identifier-placeholder",
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
