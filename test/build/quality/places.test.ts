/**
 * The place rules (build/quality/places.ts) on crafted ATMs and branches beside the sample
 * content: Country codes, coordinates that are zero, swapped, sign-flipped, outside the Country or
 * shared by far-apart postcode areas, and postcodes out of the Royal Mail format. Each warns at
 * the line and column of the value it is about; the near miss beside it does not.
 */
import { describe, expect, it } from "vitest";
import {
  ATMS_SHOWN,
  BRANCHES_SHOWN,
  QUALITY_ATMS,
  QUALITY_BRANCHES,
  at,
  atm,
  branch,
  brandFile,
  coordinates,
  onlyWarning,
  qualityOf,
  warningAt,
  warningsOf,
} from "../../helpers/quality.js";

const one = (lat: string, lon: string, country = "GB") =>
  brandFile("ATM", [atm("QA-1", [`Country: "${country}"`, ...coordinates(lat, lon)])]);

describe("coordinates against the record's Country", () => {
  it.each([
    ["coordinates-zero", "0.0", "0.0", "GB"],
    ["coordinates-swapped", "-1.9", "52.4", "GB"],
    ["coordinates-outside-country", "48.85", "2.35", "GB"],
  ])("%s: warns at Latitude %s, Longitude %s in %s", async (rule, lat, lon, country) => {
    const text = one(lat, lon, country);
    expect(await warningsOf({ [QUALITY_ATMS]: text })).toEqual([
      warningAt(rule, ATMS_SHOWN, at(text, "Latitude")),
    ]);
  });

  it.each([
    ["on the Greenwich meridian", "51.47", "0.0", "GB"],
    ["the right way round", "52.4", "-1.9", "GB"],
    ["in Paris with Country FR", "48.85", "2.35", "FR"],
    ["in St Helier with Country JE", "49.18", "-2.11", "JE"],
  ])("stays quiet %s", async (_, lat, lon, country) => {
    expect(await warningsOf({ [QUALITY_ATMS]: one(lat, lon, country) })).toEqual([]);
  });

  it("coordinates-outside-country: names the Crown dependency and its code, once for all its records", async () => {
    const text = brandFile("ATM", [
      atm("QA-1", ['Country: "GB"', ...coordinates("49.18", "-2.11")]),
      atm("QA-2", ['Country: "GB"', ...coordinates("49.19", "-2.10")]),
    ]);
    const { where, message } = await onlyWarning({ [QUALITY_ATMS]: text });
    expect(where).toEqual(
      warningAt("coordinates-outside-country", ATMS_SHOWN, at(text, "Latitude")),
    );
    expect(message).toBe(
      "2 records with Country GB are in Jersey (QA-1, QA-2): Country should be JE",
    );
  });
});

describe("positions placed by the file's own postcode areas", () => {
  // Three ATMs place postcode area CH at Chester, HX at Halifax and EX at Exeter.
  const area = (code: string, lat: string, lon: string) =>
    [1, 2, 3].map((n) =>
      atm(`QA-${code}${n}`, [
        `PostCode: "${code}${n} 1AA"`,
        'Country: "GB"',
        ...coordinates(`${lat}${n}`, lon),
      ]),
    );
  const with_ = (...records: string[][]) =>
    brandFile("ATM", [
      ...area("CH", "53.19", "-2.89"),
      ...area("HX", "53.72", "-1.86"),
      ...area("EX", "50.72", "-3.53"),
      ...records,
    ]);

  it("coordinates-sign-flipped: warns at a longitude whose other sign lands in its postcode area, giving it", async () => {
    const text = with_(
      atm("QA-1", ['PostCode: "CH7 1AR"', 'Country: "GB"', ...coordinates("53.167", "3.142")]),
    );
    const { where, message } = await onlyWarning({ [QUALITY_ATMS]: text });
    expect(where).toEqual(
      warningAt("coordinates-sign-flipped", ATMS_SHOWN, at(text, "Latitude", 10)),
    );
    expect(message).toBe(
      'Longitude 3.142 looks sign-flipped: the other sign puts it with the other records in postcode area CH; write Longitude "-3.142"',
    );
  });

  it("says only outside, not flipped, when the other sign lands far from the postcode area", async () => {
    const text = with_(
      atm("QA-1", ['PostCode: "HX3 0TD"', 'Country: "GB"', ...coordinates("51.4549", "2.592")]),
    );
    const { where, message } = await onlyWarning({ [QUALITY_ATMS]: text });
    expect(where).toEqual(
      warningAt("coordinates-outside-country", ATMS_SHOWN, at(text, "Latitude", 10)),
    );
    expect(message).toBe(
      "Latitude 51.4549, Longitude 2.592 is outside GB, the record's Country; give its real position",
    );
  });

  it("coordinates-shared: warns at a position given to records in postcode areas far apart, not at one shared within an area", async () => {
    const text = with_(
      atm("QA-1", ['PostCode: "EX4 3NZ"', 'Country: "GB"', ...coordinates("50.7247", "-3.5293")]),
      atm("QA-2", ['PostCode: "CH2 1FB"', 'Country: "GB"', ...coordinates("50.7247", "-3.5293")]),
      atm("QA-3", ['PostCode: "CH1 2AB"', 'Country: "GB"', ...coordinates("53.195", "-2.89")]),
      atm("QA-4", ['PostCode: "CH3 3CD"', 'Country: "GB"', ...coordinates("53.195", "-2.89")]),
    );
    const { where, message } = await onlyWarning({ [QUALITY_ATMS]: text });
    expect(where).toEqual(warningAt("coordinates-shared", ATMS_SHOWN, at(text, "Latitude", 10)));
    // The areas' centres are their records' medians: EX at 50.723, -3.53 and CH at 53.193,
    // -2.89, 278 km apart on the great circle.
    expect(message).toMatch(
      /^Latitude 50\.7247, Longitude -3\.5293 is the position of 2 records in postcode areas about 278 km apart: EX \(QA-1\) and CH \(QA-2\); a placeholder or a mistake: give each record its own position$/,
    );
  });
});

describe("country-code", () => {
  it("warns at Country UK, saying to write GB, not at GB; and checks a UK record as GB", async () => {
    const text = brandFile("ATM", [
      atm("QA-1", ['Country: "UK"', ...coordinates("48.85", "2.35")]),
      atm("QA-2", ['Country: "GB"', ...coordinates("52.4", "-1.9")]),
    ]);
    const { warnings } = await qualityOf({ [QUALITY_ATMS]: text });
    expect(warnings.map((w) => [w.rule, w.line, w.column])).toEqual([
      ["country-code", ...Object.values(at(text, '"UK"'))],
      ["coordinates-outside-country", ...Object.values(at(text, "Latitude"))],
    ]);
    expect(warnings[0]!.message).toBe('Country "UK" is not an ISO 3166-1 alpha-2 code; write "GB"');
  });

  it("reads EL as Greece: saying to write GR, and checking no box it has not", async () => {
    const text = brandFile("ATM", [
      atm("QA-1", ['Country: "EL"', ...coordinates("37.98", "23.73")]),
    ]);
    const { where, message } = await onlyWarning({ [QUALITY_ATMS]: text });
    expect(where).toEqual(warningAt("country-code", ATMS_SHOWN, at(text, '"EL"')));
    expect(message).toBe('Country "EL" is not an ISO 3166-1 alpha-2 code; write "GR"');
  });

  it("asks for an ISO code where a code stands for none", async () => {
    const text = brandFile("ATM", [atm("QA-1", ['Country: "XK"'])]);
    const { message } = await onlyWarning({ [QUALITY_ATMS]: text });
    expect(message).toBe(
      'Country "XK" is not an ISO 3166-1 alpha-2 code; write its ISO 3166-1 code, like "GB"',
    );
  });

  it("tells a Country shared by many records once, naming them", async () => {
    const text = brandFile("ATM", [
      atm("QA-1", ['Country: "UK"']),
      atm("QA-2", ['Country: "UK"']),
      atm("QA-3", ['Country: "GB"']),
    ]);
    const { where, message } = await onlyWarning({ [QUALITY_ATMS]: text });
    expect(where).toEqual(warningAt("country-code", ATMS_SHOWN, at(text, '"UK"')));
    expect(message).toBe(
      'Country "UK" is not an ISO 3166-1 alpha-2 code, in 2 records (QA-1, QA-2); write "GB"',
    );
  });
});

describe("postcode-format", () => {
  it("warns at a GB postcode not in the Royal Mail format, not at one that is", async () => {
    const text = brandFile("Branch", [branch("QB-1", [], "qb11aa"), branch("QB-2", [], "GIR 0AA")]);
    const { where, message } = await onlyWarning({ [QUALITY_BRANCHES]: text });
    expect(where).toEqual(warningAt("postcode-format", BRANCHES_SHOWN, at(text, '"qb11aa"')));
    expect(message).toBe(
      'PostCode "qb11aa" is not in the Royal Mail format (like "SW1A 1AA"); write it "QB1 1AA"',
    );
  });

  it("tells postcodes padded alike once, each still said how to write", async () => {
    const text = brandFile("Branch", [
      branch("QB-1", [], "QB1  1AA"),
      branch("QB-2", [], "QB2  2BB"),
      branch("QB-3", [], "QB3 3CC"),
    ]);
    const { where, message } = await onlyWarning({ [QUALITY_BRANCHES]: text });
    expect(where).toEqual(warningAt("postcode-format", BRANCHES_SHOWN, at(text, '"QB1  1AA"')));
    expect(message).toBe(
      '2 PostCodes have more spaces than one (QB-1, QB-2), such as "QB1  1AA": write each as Royal Mail does, "QB1 1AA" for this one',
    );
  });

  it("gives no fix where none makes a postcode, and checks no postcode outside the Royal Mail's countries", async () => {
    const text = brandFile("Branch", [
      branch("QB-1", [], "WEST YORKSHIRE"),
      [...branch("QB-2", [], "D02 X285").slice(0, -1), '      Country: "IE"'],
    ]);
    const { where, message } = await onlyWarning({ [QUALITY_BRANCHES]: text });
    expect(where).toEqual(
      warningAt("postcode-format", BRANCHES_SHOWN, at(text, '"WEST YORKSHIRE"')),
    );
    expect(message).toBe(
      'PostCode "WEST YORKSHIRE" is not in the Royal Mail format (like "SW1A 1AA")',
    );
  });
});
