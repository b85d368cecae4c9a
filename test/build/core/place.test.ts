/**
 * The build's side of the place model (build/core/place.ts): where a record's address and
 * coordinates are, and UK postcodes read with the `postcode` package. Expected values are Royal
 * Mail's format (BS 7666): an outward code of area and district, a space, an inward code of a
 * sector digit and two unit letters; GIR 0AA the one postcode outside it.
 */
import { describe, expect, it } from "vitest";
import {
  addressOf,
  addressPointer,
  coordinatesOf,
  isOnEarth,
  isRoyalMailForm,
  postcodeArea,
  postcodeFix,
  readPostcode,
} from "../../../build/core/place.js";

describe("a record's address and coordinates", () => {
  it("finds a branch's PostalAddress and an ATM's under its Location", () => {
    const address = { TownName: "Wexby" };
    expect(addressOf({ PostalAddress: address }, "Branch")).toBe(address);
    expect(addressOf({ Location: { PostalAddress: address } }, "ATM")).toBe(address);
    expect(addressOf({ PostalAddress: address }, "ATM")).toBeUndefined();
    expect(addressPointer("Branch", "/Branch/3")).toBe("/Branch/3/PostalAddress");
    expect(addressPointer("ATM", "/ATM/3")).toBe("/ATM/3/Location/PostalAddress");
  });

  it("reads coordinates written as decimal strings as numbers, and no coordinates from what is not one", () => {
    const at = (Latitude: unknown, Longitude: unknown) =>
      coordinatesOf({ GeoLocation: { GeographicCoordinates: { Latitude, Longitude } } });
    expect(at("53.48206", "-2.24113")).toEqual({ latitude: 53.48206, longitude: -2.24113 });
    expect(at("0.0", "0.0")).toEqual({ latitude: 0, longitude: 0 });
    expect(at("north", "-2.2")).toBeUndefined();
    expect(coordinatesOf({})).toBeUndefined();
    expect(coordinatesOf(undefined)).toBeUndefined();
  });

  it("tells a position on Earth from one out of range", () => {
    expect(isOnEarth({ latitude: -90, longitude: 180 })).toBe(true);
    expect(isOnEarth({ latitude: 99.999999, longitude: 0 })).toBe(false);
    expect(isOnEarth({ latitude: 0, longitude: -180.5 })).toBe(false);
  });
});

describe("a UK postcode", () => {
  it.each([
    ["SW1A 1AA", "SW1A 1AA", "SW1A1AA", "SW1A1", "SW1A", "SW"],
    ["m1 1ae", "M1 1AE", "M11AE", "M11", "M1", "M"],
    [" wx1  4ab ", "WX1 4AB", "WX14AB", "WX14", "WX1", "WX"],
    ["W4 5 LG", "W4 5LG", "W45LG", "W45", "W4", "W"],
    ["CR26XH", "CR2 6XH", "CR26XH", "CR26", "CR2", "CR"],
    ["GIR 0AA", "GIR 0AA", "GIR0AA", "GIR0", "GIR", undefined],
  ])("reads %j as %s", (text, normalised, unit, sector, district, area) => {
    expect(readPostcode(text)).toEqual({ normalised, keys: { unit, sector, district }, area });
  });

  it.each(["BFPO 123", "WX1", "12345", "WEST YORKSHIRE", "CO5 OLA", "SW1A 1AA."])(
    "reads %j as no postcode",
    (text) => {
      expect(readPostcode(text)).toBeUndefined();
    },
  );

  it("tells the Royal Mail's form: capitals and one space", () => {
    expect(["SW1A 1AA", "M1 1AE", "GIR 0AA"].filter(isRoyalMailForm)).toHaveLength(3);
    expect(["sw1a 1aa", "SW1A1AA", "SW1A  1AA", " SW1A 1AA", "GIR0AA"].some(isRoyalMailForm)).toBe(
      false,
    );
  });

  it("gives the fix of a mistyped postcode, and none where nothing needs fixing or nothing fixes it", () => {
    expect(postcodeFix("qb11aa")).toBe("QB1 1AA");
    expect(postcodeFix("CO5 OLA")).toBe("CO5 0LA");
    expect(postcodeFix("BT49OEP")).toBe("BT49 0EP");
    expect(postcodeFix("SW1A 1AA")).toBeUndefined();
    expect(postcodeFix("WEST YORKSHIRE")).toBeUndefined();
  });

  it("gives the area of a postcode once fixed, and none of what is no postcode", () => {
    expect(postcodeArea("CH7 1AR")).toBe("CH");
    expect(postcodeArea("CO5 OLA")).toBe("CO");
    expect(postcodeArea("GIR 0AA")).toBeUndefined();
    expect(postcodeArea("NVL")).toBeUndefined();
    expect(postcodeArea(undefined)).toBeUndefined();
  });
});
