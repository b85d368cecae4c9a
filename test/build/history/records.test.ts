/**
 * The pure parts of a change answer (build/history/records.ts): what counts as added, changed and
 * removed, and the answer's exact bytes, written out literally from the shape.
 */
import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import {
  answerBytes,
  bodyRecords,
  changeCount,
  changesFrom,
  indexVersion,
  publishedRecord,
  recordLabel,
  slicedRecords,
  type BrandChange,
  type VersionRecords,
} from "../../../build/history/records.js";
import { serializeBody } from "../../../build/encode/body.js";
import { publication } from "../../../build/history/publications.js";
import { at, parseEnvelope, parseJson } from "../../helpers/json.js";

const atms = DATASETS.find((d) => d.id === "atms")!;
const branches = DATASETS.find((d) => d.id === "branches")!;

const atm = (id: string, town = "Wexbury") =>
  ({ Identification: id, Location: { PostalAddress: { TownName: town } } }) as const;
// What the feed counts: records added, changed and removed.
const counted = async (from: VersionRecords, to: VersionRecords) => {
  const told = await publication(
    atms,
    { lastUpdated: "2026-02-02T00:00:00Z", records: to },
    { lastUpdated: "2026-02-01T00:00:00Z", records: from },
  );
  return { added: told.added, changed: told.changed, removed: told.removed };
};
// The changes from one version to another, the newer indexed once as the history does.
const changesBetween = (from: VersionRecords, to: VersionRecords) =>
  changesFrom(from, indexVersion(to));
const brand = (name: string, ...records: Record<string, unknown>[]): VersionRecords[number] => ({
  name,
  records: records.map((r) => publishedRecord(String(r.Identification), JSON.stringify(r))),
});

describe("changes from one version to another", () => {
  it("lists a record added, a record changed, whole, and names the one removed", async () => {
    const from = [brand("Bank", atm("A"), atm("B"), atm("C"))];
    const to = [brand("Bank", atm("A"), atm("B", "Ottersey"), atm("D"))];
    const changes = changesBetween(from, to);
    expect(changes).toEqual([
      {
        name: "Bank",
        listed: [
          publishedRecord("B", JSON.stringify(atm("B", "Ottersey"))),
          publishedRecord("D", JSON.stringify(atm("D"))),
        ],
        added: 1,
        removed: ["C"],
      },
    ]);
    expect(changeCount(changes)).toBe(3);
    expect(await counted(from, to)).toEqual({ added: 1, changed: 1, removed: 1 });
  });

  it("leaves out a brand with no change, and lists nothing when nothing changed", () => {
    const same = [brand("Bank", atm("A")), brand("Other", atm("X"))];
    expect(changesBetween(same, same)).toEqual([]);
    const to = [brand("Bank", atm("A")), brand("Other", atm("X", "Lynmoor"))];
    expect(changesBetween(same, to).map((c) => c.name)).toEqual(["Other"]);
  });

  it("lists every record of a brand that appears, and removes every one of a brand that goes", () => {
    const from = [brand("Old", atm("O1"), atm("O2"))];
    const to = [brand("New", atm("N1"))];
    expect(changesBetween(from, to)).toEqual([
      {
        name: "New",
        listed: [publishedRecord("N1", JSON.stringify(atm("N1")))],
        added: 1,
        removed: [],
      },
      { name: "Old", listed: [], added: 0, removed: ["O1", "O2"] },
    ]);
  });

  it("treats a record moved to another brand as removed from one and added to the other", () => {
    const from = [brand("A", atm("X")), brand("B")];
    const to = [brand("A"), brand("B", atm("X"))];
    const changes = changesBetween(from, to);
    expect(changes.map((c) => [c.name, c.listed.length, c.removed])).toEqual([
      ["A", 0, ["X"]],
      ["B", 1, []],
    ]);
  });

  it("lists every branch record of an Identification when one of its sequences changes, and counts the one changed", async () => {
    const b = (id: string, seq: string, name = "Main") => ({
      Identification: id,
      SequenceNumber: seq,
      Name: name,
    });
    const from = [brand("Bank", b("1", "0"), b("1", "1"), b("2", "0"))];
    const to = [brand("Bank", b("1", "0"), b("1", "1", "Annexe"), b("2", "0"))];
    const [change] = changesBetween(from, to);
    expect(change!.listed.map((r) => parseJson(r.json!))).toEqual([
      b("1", "0"),
      b("1", "1", "Annexe"),
    ]);
    expect(await counted(from, to)).toEqual({ added: 0, changed: 1, removed: 0 });
  });

  it("counts a sequence added to or taken from a shared Identification as one record added or removed", async () => {
    const b = (id: string, seq: string, name = "Main") => ({
      Identification: id,
      SequenceNumber: seq,
      Name: name,
    });
    const two = [brand("Bank", b("1", "0"), b("1", "1"))];
    const three = [brand("Bank", b("1", "0"), b("1", "1"), b("1", "2"))];
    expect(await counted(two, three)).toEqual({ added: 1, changed: 0, removed: 0 });
    expect(await counted(three, two)).toEqual({ added: 0, changed: 0, removed: 1 });
    // Both sequences gone, with the brand: two records removed, though one Identification.
    expect(await counted(two, [])).toEqual({ added: 0, changed: 0, removed: 2 });
    expect(await counted(two, two)).toEqual({ added: 0, changed: 0, removed: 0 });
  });
});

describe("a change answer's bytes", () => {
  const meta = {
    lastUpdated: "2026-11-21T10:00:00Z",
    since: "2026-11-20T09:30:00Z",
    agreement: "Use of the APIs",
    license: "https://example.org/licence",
    termsOfUse: "https://example.org/terms",
  };

  it("is the envelope with Since after LastUpdated, records under the data set's key, then Removed", () => {
    const changes = changesBetween(
      [brand("Bank", atm("A"), atm("C"))],
      [brand("Bank", atm("A", "Lynmoor"))],
    );
    const text = answerBytes(atms, meta, changes).toString("utf8");
    expect(text).toBe(
      JSON.stringify({
        meta: {
          LastUpdated: "2026-11-21T10:00:00Z",
          Since: "2026-11-20T09:30:00Z",
          TotalResults: 2,
          Agreement: "Use of the APIs",
          License: "https://example.org/licence",
          TermsOfUse: "https://example.org/terms",
        },
        data: [{ Brand: [{ BrandName: "Bank", ATM: [atm("A", "Lynmoor")], Removed: ["C"] }] }],
      }),
    );
  });

  it("says data [] and TotalResults 0 when nothing changed", () => {
    const parsed = parseEnvelope(answerBytes(branches, meta, []));
    expect(parsed.data).toEqual([]);
    expect(parsed.meta.TotalResults).toBe(0);
  });

  it("leaves out a brand's record list when it only lost records", () => {
    const changes = changesBetween([brand("Bank", atm("A"))], [brand("Bank")]);
    const parsed = parseJson(answerBytes(atms, meta, changes));
    expect(at(parsed, "/data/0/Brand/0")).toEqual({ BrandName: "Bank", Removed: ["A"] });
  });
});

describe("a published body's records", () => {
  it("are its records' exact text, brand by brand", () => {
    const body = JSON.stringify({
      meta: {},
      data: [{ Brand: [{ BrandName: "Bank", ATM: [atm("A"), { Identification: "B", X: 1.5 }] }] }],
    });
    const [only] = bodyRecords(atms, body);
    expect(only!.name).toBe("Bank");
    expect(only!.records.map((r) => r.json).join(",")).toBe(
      '{"Identification":"A","Location":{"PostalAddress":{"TownName":"Wexbury"}}},{"Identification":"B","X":1.5}',
    );
    expect(body).toContain(only!.records.map((r) => r.json).join(","));
  });
});

describe("how the feed names a record", () => {
  it.each([
    [{ Identification: "A1", Location: { PostalAddress: { TownName: "Leeds" } } }, "A1 (Leeds)"],
    [{ Identification: "B1", PostalAddress: { TownName: " York " } }, "B1 (York)"],
    [{ Identification: "P1", Name: "Everyday Account" }, "P1 (Everyday Account)"],
    [{ Identification: "Z9" }, "Z9"],
  ])("names %j as %s", (record, label) => {
    expect(recordLabel(JSON.stringify(record))).toBe(label);
  });
});

describe("a version's records", () => {
  it("are the same from the serialiser's byte ranges as from the body parsed again", () => {
    const body = {
      meta: { LastUpdated: "2026-11-20T10:00:00Z", TotalResults: 3 },
      data: [
        {
          Brand: [
            { BrandName: "Bank", ATM: [atm("A"), atm("B", "Ŵexby €")] },
            { BrandName: "Other", ATM: [] },
            { BrandName: "Third", ATM: [atm("C")] },
          ],
        },
      ],
    };
    const { bytes, slices } = serializeBody(body, "ATM");
    expect(slicedRecords(atms, body, bytes, slices!)).toEqual(bodyRecords(atms, bytes));
    expect(bodyRecords(atms, bytes)).toEqual([
      brand("Bank", atm("A"), atm("B", "Ŵexby €")),
      brand("Other"),
      brand("Third", atm("C")),
    ]);
  });
});

describe("a brand's changes shared by the sites that publish it", () => {
  const memo = () => {
    const kept = new Map<string, BrandChange | null>();
    return {
      kept,
      get: (k: string) => kept.get(k),
      set: (k: string, c: BrandChange | null) => void kept.set(k, c),
    };
  };
  const past = (name: string, source: string, ...records: Record<string, unknown>[]) => ({
    ...brand(name, ...records),
    source,
  });

  it("are the same through the memo as without it, and worked out once per brand and past files", () => {
    const from = [past("Bank", "blob-1", atm("A"), atm("B")), past("Other", "blob-2", atm("X"))];
    const bank = brand("Bank", atm("A"), atm("B", "Ottersey"), atm("C"));
    const other = brand("Other", atm("X"));
    const shared = memo();
    // The group's site, then the brand's own: the brand's change is made once.
    const group = changesFrom(from, indexVersion([bank, other]), shared);
    expect(group).toEqual(changesBetween(from, [bank, other]));
    expect(shared.kept.size).toBe(2);
    expect([...shared.kept.values()]).toContainEqual(null);
    const own = changesFrom([from[0]!], indexVersion([bank]), shared);
    expect(own).toEqual(changesBetween([from[0]!], [bank]));
    expect(shared.kept.size).toBe(2);
  });

  it("are worked out again when the brand's records or its past files differ", () => {
    const shared = memo();
    const from = [past("Bank", "blob-1", atm("A"))];
    changesFrom(from, indexVersion([brand("Bank", atm("A"), atm("B"))]), shared);
    const edited = changesFrom(from, indexVersion([brand("Bank", atm("A", "Ottersey"))]), shared);
    expect(edited).toEqual(changesBetween(from, [brand("Bank", atm("A", "Ottersey"))]));
    const otherFiles = [past("Bank", "blob-9", atm("A"), atm("B"))];
    expect(
      changesFrom(otherFiles, indexVersion([brand("Bank", atm("A"), atm("B"))]), shared),
    ).toEqual([]);
    expect(shared.kept.size).toBe(3);
  });

  it("are not kept for a past version whose files are not known, or that names a brand twice", () => {
    const shared = memo();
    const twice = [past("Bank", "blob-1", atm("A")), past("Bank", "blob-2", atm("B"))];
    const to = [brand("Bank", atm("A"), atm("C"))];
    expect(changesFrom(twice, indexVersion(to), shared)).toEqual(changesBetween(twice, to));
    changesFrom([brand("Bank", atm("A"))], indexVersion(to), shared);
    expect(shared.kept.size).toBe(0);
  });
});
