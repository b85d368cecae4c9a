/**
 * Quality's part of checking one file (build/quality/per-file.ts): what the rules across files
 * keep of each record, at its lines and columns, and the findings of the rules about one record
 * and about the file, in line order.
 */
import { describe, expect, it } from "vitest";
import { parseYaml } from "../../../build/read/yaml-source.js";
import { extractFacts } from "../../../build/quality/per-file.js";
import { at, atm, branch, brandFile, coordinates } from "../../helpers/quality.js";

const facts = (text: string, key: string | null) => {
  const source = parseYaml("content/x.yaml", text);
  return extractFacts(source, source.value, key);
};

describe("quality's part of checking a file", () => {
  it("keeps what the rules across files read of each record, at its lines and columns", () => {
    const text = brandFile("ATM", [
      atm(
        "QA-1",
        ['StreetName: "Quay Street"', 'TownName: "Quayside"', "CountrySubDivision: [Westshire]"],
        ["Branch:", '  Identification: "QB-1"'],
      ),
    ]);
    const place = (marker: string, offset = 0) => {
      const { line, column } = at(text, marker);
      return { line, column: column + offset };
    };
    expect(facts(text, "ATM")!.records).toEqual([
      {
        pointer: "/ATM/0",
        ...place("Identification"),
        id: "QA-1",
        texts: [
          { field: "TownName", value: "Quayside", ...place('"Quayside"') },
          { field: "StreetName", value: "Quay Street", ...place('"Quay Street"') },
          { field: "CountrySubDivision", value: "Westshire", index: 0, ...place("Westshire") },
        ],
        branchRef: { value: "QB-1", ...place('"QB-1"') },
        hasAtm: false,
        endDate: undefined,
        product: undefined,
      },
    ]);
  });

  it("keeps a fixed branch's address and position for duplicates, not a mobile branch's", () => {
    const located = (id: string, type: string) =>
      branch(id, [], "QB1 1AA")
        .map((line) => (line === "    Type: Physical" ? `    Type: ${type}` : line))
        .concat([
          '      StreetName: "Quay Street"',
          ...coordinates("53.4", "-2.2").map((l) => `      ${l}`),
        ]);
    const records = facts(
      brandFile("Branch", [located("QB-1", "Physical"), located("QB-2", "Mobile")]),
      "Branch",
    )!.records;
    expect(records.map((r) => r.site)).toEqual(["|quay street||qb1 1aa@53.4,-2.2", undefined]);
  });

  it("tells the findings of the rules about a record and about the file in line order", () => {
    // Two records at one position in postcode areas far apart, each placing its own area, the
    // second with Country UK.
    const text = brandFile("ATM", [
      atm("QA-1", ['PostCode: "EX4 3NZ"', 'Country: "GB"', ...coordinates("50.7247", "-3.5293")]),
      atm("QA-2", ['PostCode: "CH2 1FB"', 'Country: "UK"', ...coordinates("50.7247", "-3.5293")]),
      atm("QA-3", ['PostCode: "CH1 1AA"', 'Country: "GB"', ...coordinates("53.19", "-2.89")]),
    ]);
    const found = facts(text, "ATM")!.warnings.map((w) => [w.rule, w.line]);
    expect(found).toEqual([
      ["coordinates-shared", at(text, "Latitude").line],
      ["country-code", at(text, '"UK"').line],
    ]);
  });

  it("holds nothing for a file with no records, such as service metrics", () => {
    expect(facts("BrandName: x\n", null)).toBeUndefined();
  });
});
