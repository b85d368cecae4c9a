/**
 * The place model the build and the Worker share (contract/place.ts): ISO 3166-1 alpha-2 codes
 * and the two aliases feeds write, a name as compared, a postcode's keys, and distances on the
 * mean Earth sphere (IUGG: 6371.0088 km). The Worker's reading of a postcode is held to the
 * build's (the `postcode` package, build/core/place.ts) over every shape of the format.
 */
import { describe, expect, it } from "vitest";
import { readPostcode } from "../../build/core/place.js";
import {
  COUNTRY_CODES,
  countryCode,
  distanceKm,
  distanceMiles,
  normaliseCountry,
  normaliseName,
  postcodeKeys,
} from "../../contract/place.js";

describe("country codes", () => {
  it("are the 249 assigned ISO 3166-1 alpha-2 codes, with the Crown dependencies' own", () => {
    expect(COUNTRY_CODES.size).toBe(249);
    for (const code of ["GB", "GR", "IE", "JE", "GG", "IM", "GI", "AX", "ZW"]) {
      expect(COUNTRY_CODES.has(code)).toBe(true);
    }
    for (const code of ["UK", "EL", "XK", "EU", "gb", "GBR"])
      expect(COUNTRY_CODES.has(code)).toBe(false);
  });

  it.each([
    ["GB", "GB"],
    ["gb", "GB"],
    ["UK", "GB"],
    ["uk", "GB"],
    ["EL", "GR"],
    ["FR", "FR"],
  ])("read %s as %s", (written, code) => {
    expect(countryCode(written)).toBe(code);
    expect(normaliseCountry(written)).toBe(code);
  });

  it.each(["XX", "XK", "GBR", ""])("read %j as no country", (written) => {
    expect(countryCode(written)).toBeUndefined();
  });
});

describe("a name as compared", () => {
  it.each([
    ["  Stainby   Cross ", "stainby cross"],
    ["HEREFORD", "hereford"],
    ["Tyne\tand Wear", "tyne and wear"],
    ["112  HIGH STREET", "112 high street"],
    ["St. Albans", "st. albans"],
    ["Wexby", "wexby"],
  ])("reads %j as %j", (name, compared) => {
    expect(normaliseName(name)).toBe(compared);
  });
});

describe("a postcode's keys", () => {
  it.each([
    ["wx14ab", "WX14AB", "WX14", "WX1"],
    ["SW1A1AA", "SW1A1AA", "SW1A1", "SW1A"],
    ["M1 1AE", "M11AE", "M11", "M1"],
    ["GIR0AA", "GIR0AA", "GIR0", "GIR"],
  ])("of %s are %s, %s and %s", (postcode, unit, sector, district) => {
    expect(postcodeKeys(postcode)).toEqual({ unit, sector, district });
  });

  it.each(["WX1", "12345", "BFPO123", "WX14A", "WX1 4AB1", "GIR1AA", "QQQ1AA"])(
    "of %s are none: it is no full postcode",
    (postcode) => {
      expect(postcodeKeys(postcode)).toBeUndefined();
    },
  );

  it("are the keys the build reads with the postcode package, for every shape of the format and the near misses", () => {
    // Royal Mail's six outward shapes (A9, A99, AA9, AA99, A9A, AA9A) and the inward 9AA, each
    // position tried with a letter, a digit, O and I (which the package never fixes here), in
    // both cases and with and without a space; then shapes one character short or long.
    const shapes = ["A9", "A99", "AA9", "AA99", "A9A", "AA9A", "AAA9", "9A9", "A", "AA"];
    const fill: Record<string, string[]> = { A: ["W", "o", "I"], "9": ["4", "0", "O"] };
    const inwards = ["9AA", "9A", "9AAA", "AAA", "99A"];
    const texts = new Set<string>(["GIR 0AA", "gir0aa", "GIR 1AA", ""]);
    const expand = (shape: string): string[] =>
      [...shape].reduce<string[]>(
        (acc, c) => acc.flatMap((s) => (fill[c] ?? [c]).map((x) => s + x)),
        [""],
      );
    for (const outward of shapes.flatMap(expand)) {
      for (const inward of inwards.flatMap(expand)) {
        texts.add(`${outward}${inward}`);
        texts.add(`${outward} ${inward}`);
      }
    }
    const disagree = [...texts].filter(
      (text) => JSON.stringify(postcodeKeys(text)) !== JSON.stringify(readPostcode(text)?.keys),
    );
    expect(texts.size).toBeGreaterThan(10_000);
    expect(disagree).toEqual([]);
  });
});

describe("distances", () => {
  it("are great-circle distances on the mean Earth sphere", () => {
    // One degree of a meridian: 6371.0088 km × π / 180 = 111.19508 km = 69.09341 miles.
    expect(distanceKm(0, 0, 1, 0)).toBeCloseTo(111.19508, 4);
    expect(distanceMiles(0, 0, 1, 0)).toBeCloseTo(69.09341, 4);
    // Half the circumference: 6371.0088 km × π = 20015.114 km.
    expect(distanceKm(0, 0, 0, 180)).toBeCloseTo(20015.114, 2);
    expect(distanceKm(90, 0, -90, 0)).toBeCloseTo(20015.114, 2);
  });

  it("are symmetric, and zero from a point to itself", () => {
    expect(distanceMiles(51.5074, -0.1278, 53.4808, -2.2426)).toBe(
      distanceMiles(53.4808, -2.2426, 51.5074, -0.1278),
    );
    expect(distanceKm(51.5074, -0.1278, 51.5074, -0.1278)).toBe(0);
  });

  it("of a mile is a statute mile, 1.609344 km", () => {
    const km = distanceKm(51.5074, -0.1278, 53.4808, -2.2426);
    expect(distanceMiles(51.5074, -0.1278, 53.4808, -2.2426)).toBeCloseTo(km / 1.609344, 9);
  });
});
