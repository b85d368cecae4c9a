/**
 * What the build reads of one record (build/core/record-facts.ts), the one reading the
 * data-quality rules and the near-me index share.
 */
import { describe, expect, it } from "vitest";
import { recordFacts } from "../../../build/core/record-facts.js";

const none = {
  id: undefined,
  country: undefined,
  countryCode: undefined,
  town: undefined,
  postcode: undefined,
  postcodeRead: undefined,
  coordinates: undefined,
  sortcodes: [],
  segments: [],
};

describe("the facts of a record", () => {
  it.each([
    [
      "an ATM's place under Location, as written, its postcode read and its coordinates as numbers",
      "ATM",
      {
        Identification: "A1",
        Location: {
          PostalAddress: {
            TownName: "  Stainby   Cross ",
            Country: "GB",
            PostCode: "sq4 6re",
            GeoLocation: { GeographicCoordinates: { Latitude: "53.48206", Longitude: "-2.24113" } },
          },
        },
      },
      {
        ...none,
        id: "A1",
        country: "GB",
        countryCode: "GB",
        town: "  Stainby   Cross ",
        postcode: "sq4 6re",
        postcodeRead: {
          normalised: "SQ4 6RE",
          keys: { unit: "SQ46RE", sector: "SQ46", district: "SQ4" },
          area: "SQ",
        },
        coordinates: { latitude: 53.48206, longitude: -2.24113 },
      },
    ],
    [
      "a branch's sort codes, digits only, and a postcode that is not a full UK one",
      "Branch",
      { SortCode: ["40-12-34", "123"], PostalAddress: { PostCode: "BFPO 123" } },
      { ...none, postcode: "BFPO 123", sortcodes: ["401234"] },
    ],
    [
      "UK, which some banks publish, as the United Kingdom's code GB, and EL as Greece's GR",
      "Branch",
      { PostalAddress: { Country: "UK" } },
      { ...none, country: "UK", countryCode: "GB" },
    ],
    [
      "a Country that stands for no country as none",
      "Branch",
      { PostalAddress: { Country: "XK" } },
      { ...none, country: "XK" },
    ],
    [
      "a product's segments",
      "PCA",
      { Segment: ["Basic", "General"] },
      { ...none, segments: ["Basic", "General"] },
    ],
    ["a product's one segment", "BCA", { Segment: "General" }, { ...none, segments: ["General"] }],
    [
      "coordinates out of range as they are (the index and the rules each judge them)",
      "Branch",
      {
        PostalAddress: {
          GeoLocation: { GeographicCoordinates: { Latitude: "99.999999", Longitude: "0.0" } },
        },
      },
      { ...none, coordinates: { latitude: 99.999999, longitude: 0 } },
    ],
    ["an ATM's address only under its Location", "ATM", { PostalAddress: { Country: "GB" } }, none],
  ])("reads %s", (_, key, record, facts) => {
    expect(recordFacts(record, key)).toEqual(facts);
  });

  it("reads EL as Greece", () => {
    expect(recordFacts({ PostalAddress: { Country: "EL" } }, "Branch").countryCode).toBe("GR");
  });
});
