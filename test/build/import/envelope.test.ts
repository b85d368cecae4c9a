import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import { readFeed } from "../../../build/import/envelope.js";
import { ImportError } from "../../../build/import/errors.js";

describe("telling the data set from the feed", () => {
  // Record key to data set id, as the work item lists them.
  const BY_RECORDS_KEY: Record<string, string> = {
    Branch: "branches",
    ATM: "atms",
    PCA: "personal-current-accounts",
    BCA: "business-current-accounts",
    SMELoan: "unsecured-sme-loans",
    CCC: "commercial-credit-cards",
  };

  it.each(Object.entries(BY_RECORDS_KEY))("tells a feed of %s records is %s", (key, id) => {
    const feed = readFeed(
      { data: [{ Brand: [{ BrandName: "B", [key]: [{}, {}] }] }] },
      "f",
      undefined,
    );
    expect(feed.dataset.id).toBe(id);
    expect(feed.records).toBe(2);
  });

  it("knows every data set that has a record list", () => {
    const keys = DATASETS.flatMap((d) => (d.recordsKey === null ? [] : [d.recordsKey]));
    expect(keys.sort()).toEqual(Object.keys(BY_RECORDS_KEY).sort());
  });

  it("collects the brands of every data item, in order", () => {
    const envelope = {
      data: [
        { Brand: [{ BrandName: "A", ATM: [{}] }] },
        {
          Brand: [
            { BrandName: "B", ATM: [{}] },
            { BrandName: "C", ATM: [{}, {}] },
          ],
        },
      ],
    };
    const feed = readFeed(envelope, "f", undefined);
    expect(feed.brands.map((b) => [b.value.BrandName, b.where])).toEqual([
      ["A", "data/0/Brand/0"],
      ["B", "data/1/Brand/0"],
      ["C", "data/1/Brand/1"],
    ]);
    expect(feed.records).toBe(4);
  });
});

describe("reading the shapes banks serve", () => {
  it("reads data as one object holding the Brand list", () => {
    const feed = readFeed(
      { data: { Brand: [{ BrandName: "A", Branch: [{}, {}] }] } },
      "f",
      undefined,
    );
    expect(feed.dataset.id).toBe("branches");
    expect(feed.brands.map((b) => b.where)).toEqual(["data/Brand/0"]);
    expect(feed.records).toBe(2);
  });

  // A feed converted from XML gives a list of one item as that item: at `data` (above), at
  // `Brand`, and at the record list of a brand with one product.
  it("reads a Brand list served as its one brand object", () => {
    const feed = readFeed({ data: [{ Brand: { BrandName: "A", ATM: [{}, {}] } }] }, "f", undefined);
    expect(feed.dataset.id).toBe("atms");
    expect(feed.brands.map((b) => [b.value.BrandName, b.where])).toEqual([["A", "data/0/Brand/0"]]);
    expect(feed.records).toBe(2);
  });

  it("reads a record list served as its one record, and writes it as the list holding it", () => {
    const loan = { Identification: "L1", Name: "Business Loan" };
    const feed = readFeed({ data: { Brand: { BrandName: "A", SMELoan: loan } } }, "f", undefined);
    expect(feed.dataset.id).toBe("unsecured-sme-loans");
    expect(feed.brands.map((b) => b.value)).toEqual([{ BrandName: "A", SMELoan: [loan] }]);
    expect(feed.records).toBe(1);
  });

  it("merges Brand objects with one BrandName into one brand, records in feed order", () => {
    const envelope = {
      data: [
        {
          Brand: [
            { BrandName: "Barrow", PCA: [{ Identification: "1" }] },
            { BrandName: "Other", PCA: [{ Identification: "9" }] },
            { BrandName: "Barrow", PCA: [{ Identification: "2" }, { Identification: "3" }] },
          ],
        },
        { Brand: [{ BrandName: "Barrow", PCA: [{ Identification: "4" }] }] },
      ],
    };
    const feed = readFeed(envelope, "f", undefined);
    expect(feed.brands.map((b) => b.value)).toEqual([
      {
        BrandName: "Barrow",
        PCA: ["1", "2", "3", "4"].map((Identification) => ({ Identification })),
      },
      { BrandName: "Other", PCA: [{ Identification: "9" }] },
    ]);
    expect(feed.brands[0]!.where).toBe("data/0/Brand/0 (and 2 more Brand objects named so)");
    expect(feed.records).toBe(5);
  });

  it("refuses Brand objects with one BrandName that disagree on another field", () => {
    const envelope = {
      data: [
        {
          Brand: [
            { BrandName: "Barrow", Extra: 1, PCA: [{}] },
            { BrandName: "Barrow", Extra: 2, PCA: [{}] },
          ],
        },
      ],
    };
    expect(() => readFeed(envelope, "f", undefined)).toThrow(
      new ImportError(
        'f: data/0/Brand/1 and data/0/Brand/0 are both brand "Barrow" but give different Extra; make them agree or give the brands different names',
      ),
    );
  });

  it("still refuses what is not an envelope", () => {
    for (const value of [[1], { data: "x" }, { data: { Branch: [] } }, { meta: {} }]) {
      expect(() => readFeed(value, "f", undefined)).toThrow(/^f is not a response envelope/);
    }
  });
});
