/**
 * name-spelling and brand-spelling (build/quality/names.ts), on crafted brands beside the sample
 * content: each warns at the line and column of the value it is about, and a near miss beside it
 * does not.
 */
import { describe, expect, it } from "vitest";
import {
  ATMS_SHOWN,
  QUALITY_ATMS,
  QUALITY_BRANCHES,
  at,
  atm,
  branch,
  brandFile,
  onlyWarning,
  warningAt,
  warningsOf,
} from "../../helpers/quality.js";

describe("name-spelling", () => {
  it("warns at a town written with other capitals than elsewhere, not at one that only looks alike", async () => {
    const text = brandFile("ATM", [
      atm("QA-1", ['TownName: "Hereford"', 'Country: "GB"']),
      atm("QA-2", ['TownName: "Hereford"', 'Country: "GB"']),
      atm("QA-3", ['TownName: "HEREFORD"', 'Country: "GB"']),
      atm("QA-4", ['TownName: "St Albans"', 'Country: "GB"']),
      atm("QA-5", ['TownName: "St. Albans"', 'Country: "GB"']),
    ]);
    expect(await warningsOf({ [QUALITY_ATMS]: text })).toEqual([
      warningAt("name-spelling", ATMS_SHOWN, at(text, '"HEREFORD"')),
    ]);
  });

  it("tells a town's spellings once, with how often and where each is used", async () => {
    const text = brandFile("ATM", [
      atm("QA-1", ['TownName: "Hereford"', 'Country: "GB"']),
      atm("QA-2", ['TownName: "HEREFORD"', 'Country: "GB"']),
      atm("QA-3", ['TownName: "Hereford"', 'Country: "GB"']),
      atm("QA-4", ['TownName: "HEREFORD"', 'Country: "GB"']),
    ]);
    const { where, message } = await onlyWarning({ [QUALITY_ATMS]: text });
    const place = (nth: number) => {
      const { line, column } = at(text, "TownName", nth);
      return `${ATMS_SHOWN}:${line}:${column + 10}`;
    };
    expect(where).toEqual(warningAt("name-spelling", ATMS_SHOWN, at(text, '"HEREFORD"')));
    expect(message).toBe(
      `TownName is written 2 ways: "Hereford" 2 times (${place(1)} and 1 more), "HEREFORD" 2 times (${place(2)}, ${place(4)}); use one spelling`,
    );
  });

  it("tells a file that writes in capitals the names the brand's other files write otherwise once, not per name", async () => {
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
    const { where, message } = await onlyWarning({
      [QUALITY_ATMS]: atms,
      [QUALITY_BRANCHES]: branches,
    });
    expect(where).toEqual(warningAt("name-spelling", ATMS_SHOWN, at(atms, '"WEXBY"')));
    expect(message).toMatch(
      /^TownName is in capitals in this file for 3 names that other files write otherwise: .*"WEXBY" \("Wexby" at content\/branches\/quality-bank\.yaml:\d+:\d+\).*; use one spelling for each$/,
    );
  });

  describe("compares names within one brand", () => {
    // The sample's Thistlecombe Bank has ATMs on "Market Place" and "High Street".
    const feed = (street: string) =>
      brandFile(
        "ATM",
        [atm("IB-1", [`StreetName: "${street}"`, 'TownName: "Imported Town"', 'Country: "GB"'])],
        "Imported Bank",
      );

    it("stays quiet at another brand's house style: MARKET PLACE beside the sample's Market Place", async () => {
      expect(await warningsOf({ "atms/imported-bank.yaml": feed("MARKET PLACE") })).toEqual([]);
    });

    it("warns at a double space inside one brand: 112  HIGH STREET beside its 112 HIGH STREET", async () => {
      const text = brandFile(
        "ATM",
        [
          atm("IB-1", ['StreetName: "112 HIGH STREET"', 'Country: "GB"']),
          atm("IB-2", ['StreetName: "112 HIGH STREET"', 'Country: "GB"']),
          atm("IB-3", ['StreetName: "112  HIGH STREET"', 'Country: "GB"']),
        ],
        "Imported Bank",
      );
      const { where, message } = await onlyWarning({ "atms/imported-bank.yaml": text });
      expect(where).toEqual(
        warningAt(
          "name-spelling",
          "content/atms/imported-bank.yaml",
          at(text, '"112  HIGH STREET"'),
        ),
      );
      expect(message).toMatch(/^StreetName is written 2 ways: "112 HIGH STREET" 2 times/);
    });

    it("compares one brand's data sets even where its BrandName is written two ways", async () => {
      const atms = brandFile("ATM", [atm("QA-1", ['TownName: "HEREFORD"', 'Country: "GB"'])]);
      const branches = brandFile(
        "Branch",
        [[...branch("QB-1"), '      TownName: "Hereford"']],
        "Quality Bank PLC",
      );
      const found = await warningsOf({ [QUALITY_ATMS]: atms, [QUALITY_BRANCHES]: branches });
      expect(found.map(([rule]) => rule).sort()).toEqual(["brand-spelling", "name-spelling"]);
    });
  });
});

describe("brand-spelling", () => {
  it("warns at a BrandName written otherwise in another data set, not at another brand", async () => {
    const atms = brandFile("ATM", [atm("QA-1", ['Country: "GB"'])], "Quality Bank PLC");
    const branches = brandFile("Branch", [branch("QB-1")]);
    const business = brandFile("Branch", [branch("QX-1")], "Quality Business Bank");
    const { where, message } = await onlyWarning({
      [QUALITY_ATMS]: atms,
      [QUALITY_BRANCHES]: branches,
      "branches/quality-business-bank.yaml": business,
    });
    expect(where).toEqual(warningAt("brand-spelling", ATMS_SHOWN, at(atms, '"Quality Bank PLC"')));
    expect(message).toMatch(
      /^one brand is written 2 ways across data sets: "Quality Bank" in branches \(content\/branches\/quality-bank\.yaml:1:12\); "Quality Bank PLC" in atms/,
    );
  });
});
