/**
 * The located records read from a data set's body: where each is, and what the map names it by,
 * wherever the spec puts them (open-data-api-v2.2.md: a branch's PostalAddress, an ATM's
 * Location.PostalAddress and Location.Site).
 */
import { describe, expect, it } from "vitest";
import { locatedRecords } from "../../../build/assemble/locations.js";
import { findDataset } from "../../../build/core/datasets.js";

const coordinates = (Latitude: string, Longitude: string) => ({
  GeoLocation: { GeographicCoordinates: { Latitude, Longitude } },
});

describe("located records", () => {
  it("reads a branch's Name, Identification and town beside its coordinates", () => {
    const body = {
      data: [
        {
          Brand: [
            {
              BrandName: "Aardvark Bank",
              Branch: [
                {
                  Identification: "AA-1",
                  Name: "High Street",
                  PostalAddress: { TownName: "Lynmoor", ...coordinates("54.30912", "-1.91006") },
                },
                { Identification: "AA-2", PostalAddress: { TownName: "Lynmoor" } },
              ],
            },
          ],
        },
      ],
    };
    expect(locatedRecords(findDataset("branches")!, body)).toEqual([
      {
        kind: "Branches",
        record: "Branch",
        brand: "Aardvark Bank",
        latitude: 54.30912,
        longitude: -1.91006,
        identification: "AA-1",
        name: "High Street",
        town: "Lynmoor",
      },
    ]);
  });

  it("names an ATM by its Location's Site, and leaves out what it does not give", () => {
    const body = {
      data: [
        {
          Brand: [
            {
              BrandName: "Aardvark Bank",
              ATM: [
                {
                  Identification: "AA-ATM-1",
                  Location: {
                    Site: { Name: "Pellingford station" },
                    PostalAddress: coordinates("51.43765", "-1.12018"),
                  },
                },
              ],
            },
          ],
        },
      ],
    };
    expect(locatedRecords(findDataset("atms")!, body)).toEqual([
      {
        kind: "ATMs",
        record: "ATM",
        brand: "Aardvark Bank",
        latitude: 51.43765,
        longitude: -1.12018,
        identification: "AA-ATM-1",
        name: "Pellingford station",
      },
    ]);
  });
});
