/**
 * Placing a postcode (build/near/postcodes.ts): the centroid file's columns and rows, and the
 * table of units, sectors and districts (docs/decisions.md#placing-a-postcode).
 */
import { describe, expect, it } from "vitest";
import { parsePostcodeCentroids, postcodeTable } from "../../../build/near/postcodes.js";

describe("placing postcodes", () => {
  it("reads the ONS Postcode Directory's columns and skips rows with no position", () => {
    const text =
      'pcd,pcds,lat,long\n"AB1 0AA","AB1 0AA",57.101474,-2.242851\nX,"AB1 0AB",99.999999,0.000000\n';
    const { points, problems } = parsePostcodeCentroids(text, "content/postcode-centroids.csv");
    expect(problems).toEqual([]);
    expect(points).toEqual([{ unit: "AB10AA", latitude: 57.101474, longitude: -2.242851 }]);
  });

  it("reads plain column names in any case, and skips a row that is no postcode", () => {
    const text = "Postcode,Latitude,Longitude\nwx1 9qq,54.2,-1.8\nBFPO 123,51.5,-1.2\n\n";
    const { points } = parsePostcodeCentroids(text, "content/postcode-centroids.csv");
    expect(points).toEqual([{ unit: "WX19QQ", latitude: 54.2, longitude: -1.8 }]);
  });

  it("says which columns a header without them must name", () => {
    const { problems } = parsePostcodeCentroids("code,x,y\n", "content/postcode-centroids.csv");
    expect(problems).toHaveLength(1);
    expect(problems[0]!.file).toBe("content/postcode-centroids.csv");
    expect(problems[0]!.message).toMatch(/postcode, latitude and longitude.*"code,x,y"/);
  });

  it("keeps units from the publisher's records only, and counts the file's points in sectors and districts", () => {
    const table = postcodeTable(
      [{ unit: "WX14AB", latitude: 54, longitude: -1 }],
      [
        { unit: "WX14AB", latitude: 60, longitude: -1 },
        { unit: "WX19ZZ", latitude: 56, longitude: -3 },
      ],
    );
    expect(table.unit).toEqual({ WX14AB: [54, -1] });
    expect(table.sector).toEqual({ WX14: [57, -1], WX19: [56, -3] });
    expect(table.district).toEqual({ WX1: [56.666667, -1.666667] });
  });

  it("places GIR 0AA, the postcode outside the pattern, as any other", () => {
    const table = postcodeTable([{ unit: "GIR0AA", latitude: 52.4, longitude: -2.1 }], []);
    expect(table).toEqual({
      unit: { GIR0AA: [52.4, -2.1] },
      sector: { GIR0: [52.4, -2.1] },
      district: { GIR: [52.4, -2.1] },
    });
  });
});
