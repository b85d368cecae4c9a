/**
 * A publication as the feed tells it (build/history/publications.ts): counted and named over all
 * of a version's brands, each brand's part kept by what its two versions are made of, so a brand
 * published by two sites is compared once.
 */
import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import {
  publication,
  type BrandPublication,
  type BrandPublications,
} from "../../../build/history/publications.js";
import { publishedRecord, type VersionRecords } from "../../../build/history/records.js";

const atms = DATASETS.find((d) => d.id === "atms")!;

const atm = (id: string, town: string) =>
  publishedRecord(
    id,
    JSON.stringify({ Identification: id, Location: { PostalAddress: { TownName: town } } }),
  );

/** A memo that remembers every part, and says which keys were asked and which were made. */
function countingMemo() {
  const parts = new Map<string, BrandPublication>();
  const asked: string[] = [];
  const set: string[] = [];
  const memo: BrandPublications = {
    through: (key, make) => {
      asked.push(key);
      let part = parts.get(key);
      if (!part) {
        set.push(key);
        parts.set(key, (part = make()));
      }
      return Promise.resolve(part);
    },
  };
  return { memo, asked, set, parts };
}

const older: VersionRecords = [
  {
    name: "Bank",
    source: "b1",
    records: [atm("A", "Wexbury"), atm("B", "Ottersey"), atm("C", "Lowe")],
  },
  { name: "Other", source: "o1", records: [atm("X", "Hale")] },
  { name: "Gone", source: "g1", records: [atm("G", "Farley")] },
];
const newer: VersionRecords = [
  {
    name: "Bank",
    source: "b2",
    records: [atm("A", "Wexbury"), atm("B", "Ottersea"), atm("D", "Marsh"), atm("E", "Marsh")],
  },
  { name: "Other", source: "o2", records: [atm("X", "Hale"), atm("Y", "Hale")] },
];

describe("a publication against the one before", () => {
  it("counts what every brand added, changed and removed, and names the first three of each", async () => {
    const told = await publication(
      atms,
      { lastUpdated: "2026-02-02T00:00:00Z", records: newer },
      { lastUpdated: "2026-02-01T00:00:00Z", records: older },
    );
    expect(told).toEqual({
      dataset: "atms",
      lastUpdated: "2026-02-02T00:00:00Z",
      before: "2026-02-01T00:00:00Z",
      brands: ["Bank", "Other"],
      added: 3,
      changed: 1,
      removed: 2,
      named: {
        added: ["D (Marsh)", "E (Marsh)", "Y (Hale)"],
        changed: ["B (Ottersea)"],
        removed: ["C (Lowe)", "G (Farley)"],
      },
    });
  });

  it("tells the same through a memo, and asks it again for each brand instead of comparing", async () => {
    const { memo, asked, set, parts } = countingMemo();
    const versions = [
      { lastUpdated: "2026-02-02T00:00:00Z", records: newer },
      { lastUpdated: "2026-02-01T00:00:00Z", records: older },
    ] as const;
    const plain = await publication(atms, ...versions);
    const first = await publication(atms, ...versions, memo);
    // The brands whose two versions say what they are made of; "Gone" has no newer version.
    expect(set).toEqual(["atms\0Bank\0b1\0b2", "atms\0Other\0o1\0o2"]);
    // Another site publishing only Bank, from the same files: its part is taken, not made.
    const bankOnly = (records: VersionRecords) => records.filter((b) => b.name === "Bank");
    const second = await publication(
      atms,
      { ...versions[0], records: bankOnly(newer) },
      { ...versions[1], records: bankOnly(older) },
      memo,
    );
    expect(first).toEqual(plain);
    expect(set).toHaveLength(2);
    expect(asked.at(-1)).toBe("atms\0Bank\0b1\0b2");
    expect(second.added).toBe(2);
    expect(second.named.changed).toEqual(["B (Ottersea)"]);
    // What the memo holds is what is told: a part put there by hand comes back.
    const kept = {
      added: 7,
      changed: 0,
      removed: 0,
      named: { added: ["Q"], changed: [], removed: [] },
    };
    parts.set("atms\0Bank\0b1\0b2", kept);
    const third = await publication(
      atms,
      { ...versions[0], records: bankOnly(newer) },
      { ...versions[1], records: bankOnly(older) },
      memo,
    );
    expect([third.added, third.named.added]).toEqual([7, ["Q"]]);
  });

  it("compares a brand whose files are not known, and keeps nothing for it", async () => {
    const { memo, set } = countingMemo();
    const unsourced = newer.map(({ name, records }) => ({ name, records }));
    const told = await publication(
      atms,
      { lastUpdated: "2026-02-02T00:00:00Z", records: unsourced },
      { lastUpdated: "2026-02-01T00:00:00Z", records: older },
      memo,
    );
    expect(set).toEqual([]);
    expect([told.added, told.changed, told.removed]).toEqual([3, 1, 2]);
  });
});
