/**
 * Where the map puts its marks: records at one site set apart so each is seen, records whose
 * coordinates fall outside the map left out (and counted), and the name each mark is given.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  layoutMarks,
  loadOutline,
  markName,
  siteOffsets,
  type Outline,
} from "../../../../build/documents/landing/map.js";
import type { LocatedRecord } from "../../../../build/assemble/locations.js";

// docs/decisions.md, "Map marks": a mark is 8 SVG units wide (a branch's circle; an ATM's square
// is 7), so marks whose centres are 8 or more apart do not cover each other.
const MARK_WIDTH = 8;

let outline: Outline;
beforeAll(async () => {
  outline = await loadOutline();
});

const record = (over: Partial<LocatedRecord>): LocatedRecord => ({
  kind: "Branches",
  record: "Branch",
  brand: "Aardvark Bank",
  latitude: 54.1237,
  longitude: -1.73418,
  ...over,
});

const closest = (points: readonly { x: number; y: number }[]) => {
  let min = Infinity;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      min = Math.min(min, Math.hypot(points[i]!.x - points[j]!.x, points[i]!.y - points[j]!.y));
    }
  }
  return min;
};

describe("marks at one site", () => {
  for (const n of [2, 3, 4, 6, 7, 10, 25, 60]) {
    it(`sets ${n} marks at one place at least a mark's width apart`, () => {
      const offsets = siteOffsets(n);
      expect(offsets).toHaveLength(n);
      expect(closest(offsets.map(([x, y]) => ({ x, y })))).toBeGreaterThanOrEqual(MARK_WIDTH);
    });
  }

  it("draws a lone record where it is", () => {
    expect(siteOffsets(1)).toEqual([[0, 0]]);
  });

  it("sets a branch and its ATM 10 metres apart side by side, around a dot at their site", () => {
    const layout = layoutMarks(outline, [
      record({}),
      record({ kind: "ATMs", record: "ATM", latitude: 54.12372, longitude: -1.73411 }),
    ]);
    expect(layout.marks).toHaveLength(2);
    expect(closest(layout.marks)).toBeGreaterThanOrEqual(MARK_WIDTH);
    expect(layout.sites).toHaveLength(1);
    const [site] = layout.sites;
    for (const mark of layout.marks) {
      expect(Math.hypot(mark.x - site!.x, mark.y - site!.y)).toBeLessThan(2 * MARK_WIDTH);
    }
  });

  it("leaves records in towns apart where they are, with no site dot", () => {
    const layout = layoutMarks(outline, [
      record({}),
      record({ latitude: 51.44102, longitude: -1.12733 }),
    ]);
    expect(layout.sites).toEqual([]);
    expect(closest(layout.marks)).toBeGreaterThan(100);
  });

  it("keeps every record and its order within a site of many", () => {
    const many = Array.from({ length: 12 }, (_, i) => record({ identification: `ATM-${i}` }));
    const layout = layoutMarks(outline, many);
    expect(layout.marks.map((m) => m.record.identification)).toEqual(
      many.map((r) => r.identification),
    );
    expect(closest(layout.marks)).toBeGreaterThanOrEqual(MARK_WIDTH);
  });
});

describe("records the map cannot show", () => {
  it("leaves out a record whose latitude and longitude are swapped, and names it", () => {
    const swapped = record({ identification: "SWAPPED", latitude: -1.73418, longitude: 54.1237 });
    const layout = layoutMarks(outline, [record({}), swapped]);
    expect(layout.marks.map((m) => m.record)).toEqual([record({})]);
    expect(layout.outside).toEqual([swapped]);
  });

  it("draws every mark inside the drawing", () => {
    // Shetland, Scilly, Belfast and Lowestoft: the corners of the United Kingdom.
    const corners = [
      [60.8, -0.85],
      [49.91, -6.31],
      [54.6, -5.93],
      [52.48, 1.76],
    ];
    const layout = layoutMarks(
      outline,
      corners.map(([latitude, longitude]) => record({ latitude, longitude })),
    );
    expect(layout.outside).toEqual([]);
    for (const { x, y } of layout.marks) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(360);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(560);
    }
  });
});

describe("a mark's name", () => {
  it("says where the record is and whose record it is", () => {
    expect(
      markName(
        record({
          kind: "ATMs",
          record: "ATM",
          brand: "Thistlecombe Bank",
          identification: "TB-ATM-PEL-2",
          name: "Pellingford station",
          town: "Pellingford",
        }),
      ),
    ).toEqual({ where: "Pellingford station", what: "Thistlecombe Bank ATM TB-ATM-PEL-2" });
  });

  it("gives the town after a name that does not say it, and a town once", () => {
    expect(markName(record({ name: "High Street", town: "Lynmoor" })).where).toBe(
      "High Street, Lynmoor",
    );
    expect(markName(record({ name: "Lynmoor", town: "LYNMOOR" })).where).toBe("Lynmoor");
  });

  it("names a record with neither name nor town by whose it is alone", () => {
    expect(markName(record({ identification: "AA-1" }))).toEqual({
      where: "",
      what: "Aardvark Bank branch AA-1",
    });
  });
});
