/**
 * duplicate-location and duplicate-product (build/quality/duplicates.ts): records one brand
 * publishes twice, beside the sample content; ATMs at one site and a mobile branch's stop are not.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../build/core/paths.js";
import {
  BRANCHES_SHOWN,
  QUALITY_ATMS,
  QUALITY_BRANCHES,
  at,
  atm,
  branch,
  brandFile,
  coordinates,
  indent,
  onlyWarning,
  warningAt,
  warningsOf,
} from "../../helpers/quality.js";

const site = (lon: string) => [
  '      StreetName: "Quay Street"',
  '      TownName: "Quayside"',
  ...indent(6, coordinates("53.4", lon)),
];

describe("duplicate-location", () => {
  it("warns at the second branch at the same address and coordinates, not at one a few metres away", async () => {
    const text = brandFile("Branch", [
      [...branch("QB-1"), ...site("-2.2")],
      [...branch("QB-2"), ...site("-2.2")],
      [...branch("QB-3"), ...site("-2.2001")],
    ]);
    const { where, message } = await onlyWarning({ [QUALITY_BRANCHES]: text });
    expect(where).toEqual(
      warningAt("duplicate-location", BRANCHES_SHOWN, at(text, 'Identification: "QB-2"')),
    );
    const place = (id: string) => {
      const { line, column } = at(text, `Identification: "${id}"`);
      return `${BRANCHES_SHOWN}:${line}:${column}`;
    };
    expect(message).toBe(
      `2 branches of Quality Bank have the same address and coordinates: QB-1 at ${place("QB-1")}, QB-2 at ${place("QB-2")}; publish each branch once`,
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
    expect(await warningsOf({ [QUALITY_ATMS]: atms, [QUALITY_BRANCHES]: branches })).toEqual([]);
  });

  it("compares within a brand: two brands' branches at one address are not duplicates", async () => {
    const ours = brandFile("Branch", [[...branch("QB-1"), ...site("-2.2")]]);
    const theirs = brandFile("Branch", [[...branch("QX-1"), ...site("-2.2")]], "Other Bank");
    expect(
      await warningsOf({ [QUALITY_BRANCHES]: ours, "branches/other-bank.yaml": theirs }),
    ).toEqual([]);
  });
});

describe("duplicate-product", () => {
  it("warns at a second product the same in all but Identification, not at one marketed from another date", async () => {
    const file = "personal-current-accounts/pennyfold-building-society.yaml";
    const original = await readFile(join(PROJECT_ROOT, "content", file), "utf8");
    const start = original.indexOf('  - Name: "Pennyfold Basic Account"');
    const end = original.indexOf("\n  - Name:", start + 1);
    const product = original.slice(start, end < 0 ? undefined : end + 1);
    const copy = (id: string, first: string) =>
      product
        .replace('Identification: "PBS-CA-BASIC"', `Identification: "${id}"`)
        .replace('FirstMarketedDate: "2016-01-01"', `FirstMarketedDate: "${first}"`);
    const text = `${original.trimEnd()}\n${copy("PBS-CA-BASIC-2", "2016-01-01")}${copy("PBS-CA-BASIC-3", "2017-01-01")}`;
    const { where, message } = await onlyWarning({ [file]: text });
    expect(where).toEqual(
      warningAt(
        "duplicate-product",
        `content/${file}`,
        at(text, 'Name: "Pennyfold Basic Account"', 2),
      ),
    );
    expect(message).toMatch(
      /^2 products of Pennyfold Building Society named "Pennyfold Basic Account" are the same in all but Identification: PBS-CA-BASIC at .*, PBS-CA-BASIC-2 at .*; publish it once$/,
    );
  });
});
