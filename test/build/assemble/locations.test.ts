/**
 * The located records read from a data set's body: where each is, and what the map names it by,
 * wherever the spec puts them (open-data-api-v2.2.md: a branch's PostalAddress, an ATM's
 * Location.PostalAddress and Location.Site).
 */
import { describe, expect, it } from "vitest";
import { locatedRecords, RecordMarks } from "../../../build/assemble/locations.js";
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

describe("located records from one build to the next", () => {
  const record = {
    Identification: "AA-1",
    PostalAddress: { TownName: "Lynmoor", ...coordinates("54.30912", "-1.91006") },
  };
  const body = (brandName: string) => ({
    data: [{ Brand: [{ BrandName: brandName, Branch: [record] }] }],
  });
  const branches = findDataset("branches")!;

  // Builds that share a memory, as the live preview's do (core/memory.ts).
  it("are the same objects while their records are, so what is made from them can be kept", () => {
    const marks = new RecordMarks();
    const [first] = locatedRecords(branches, body("Aardvark Bank"), marks);
    const [again] = locatedRecords(branches, body("Aardvark Bank"), marks);
    expect(again).toBe(first);
  });

  it("are made again when the brand they are under is another", () => {
    const marks = new RecordMarks();
    const [first] = locatedRecords(branches, body("Aardvark Bank"), marks);
    const [moved] = locatedRecords(branches, body("Badger Bank"), marks);
    expect(moved).not.toBe(first);
    expect(moved).toMatchObject({ brand: "Badger Bank", latitude: 54.30912 });
  });

  it("are made anew by a build with a memory of its own, so two builds share nothing", () => {
    const [first] = locatedRecords(branches, body("Aardvark Bank"));
    const [again] = locatedRecords(branches, body("Aardvark Bank"));
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
