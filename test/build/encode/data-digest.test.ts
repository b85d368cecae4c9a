/**
 * What tells one version of a data set from another (build/encode/data-digest.ts): each record's
 * hash, a body's Data without its LastUpdated, and the bytes a body is published as.
 */
import { jsonBytes } from "../../helpers/json.js";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import { envelope } from "../../../build/assemble/envelope.js";
import type { SiteSettings } from "../../../build/read/site.js";
import { madeBody } from "../../helpers/bodies.js";
import { dataDigest, recordHash } from "../../../build/encode/data-digest.js";
import { bodyData } from "../../../build/encode/dataset-body.js";

const atms = DATASETS.find((d) => d.id === "atms")!;
const pca = DATASETS.find((d) => d.recordsKey === null)!;
const settings: SiteSettings = {
  License: "https://example.org/licence",
  TermsOfUse: "https://example.org/terms",
};
const SPEC_AGREEMENT =
  "Use of the APIs and any related data will be subject to the terms of the Open Licence and subject to terms and conditions";

const atm = (id: string, town = "Wexbury") => ({
  Identification: id,
  Location: { PostalAddress: { TownName: town } },
});

/** A body as step 5 makes it, with its slices. */
function made(dataset: typeof atms, brands: Record<string, unknown>[], lastUpdated: string) {
  return madeBody(dataset, envelope(dataset, brands, settings, lastUpdated));
}

describe("the published form", () => {
  it("is compact JSON in the envelope's order, as JSON.stringify writes it, UTF-8 unescaped", () => {
    const brand = {
      BrandName: "Wexbury Bank",
      ATM: [
        {
          Identification: "W-1",
          SupportedLanguages: ["en"],
          Location: { PostalAddress: { TownName: "Wexbury" } },
        },
        { Identification: "W-2", Note: 'Ŵ £ "quoted"' },
      ],
    };
    const bytes = jsonBytes(envelope(atms, [brand], settings, "2026-11-29T09:00:00Z"));
    expect(bytes.toString("utf8")).toBe(
      `{"meta":{"LastUpdated":"2026-11-29T09:00:00Z","TotalResults":2,"Agreement":"${SPEC_AGREEMENT}",` +
        `"License":"https://example.org/licence","TermsOfUse":"https://example.org/terms"},` +
        `"data":[{"Brand":[{"BrandName":"Wexbury Bank","ATM":[` +
        `{"Identification":"W-1","SupportedLanguages":["en"],"Location":{"PostalAddress":{"TownName":"Wexbury"}}},` +
        `{"Identification":"W-2","Note":"Ŵ £ \\"quoted\\""}]}]}]}`,
    );
  });
});

describe("a record's hash", () => {
  it("is the first 22 characters of the base64url SHA-256 of the record's exact text", () => {
    const text = '{"Identification":"W-1"}';
    const full = createHash("sha256").update(text).digest("base64url");
    expect(recordHash(text)).toBe(full.slice(0, 22));
    expect(recordHash(text)).toHaveLength(22);
    expect(recordHash('{"Identification":"W-1" }')).not.toBe(recordHash(text));
  });
});

describe("a body's Data digest", () => {
  it("is the same for bodies that differ only in LastUpdated", () => {
    const one = made(
      atms,
      [{ BrandName: "Bank", ATM: [atm("A"), atm("B")] }],
      "2026-01-01T00:00:00Z",
    );
    const two = made(
      atms,
      [{ BrandName: "Bank", ATM: [atm("A"), atm("B")] }],
      "2026-02-01T00:00:00Z",
    );
    expect(one.bytes.equals(two.bytes)).toBe(false);
    expect(dataDigest(bodyData(one))).toBe(dataDigest(bodyData(two)));
  });

  it("moves with a record's bytes, the records' order, a brand's name and the meta", () => {
    const date = "2026-01-01T00:00:00Z";
    const base = dataDigest(
      bodyData(made(atms, [{ BrandName: "Bank", ATM: [atm("A"), atm("B")] }], date)),
    );
    const others = [
      made(atms, [{ BrandName: "Bank", ATM: [atm("A"), atm("B", "Lynmoor")] }], date),
      made(atms, [{ BrandName: "Bank", ATM: [atm("B"), atm("A")] }], date),
      made(atms, [{ BrandName: "Other Bank", ATM: [atm("A"), atm("B")] }], date),
      made(
        atms,
        [
          { BrandName: "Bank", ATM: [atm("A")] },
          { BrandName: "More", ATM: [atm("B")] },
        ],
        date,
      ),
    ];
    const digests = others.map((body) => dataDigest(bodyData(body)));
    expect(new Set([base, ...digests]).size).toBe(5);
  });

  it("counts each service metrics brand object as one record", () => {
    const date = "2026-01-01T00:00:00Z";
    const brand = (score: number) => ({ BrandName: "Bank", Metric: [{ Score: score }] });
    const a = made(pca, [brand(1)], date);
    const b = made(pca, [brand(2)], "2026-03-01T00:00:00Z");
    const c = made(pca, [brand(1)], "2026-03-01T00:00:00Z");
    expect(bodyData(a).brands).toEqual([
      { shell: "", records: [{ hash: recordHash(JSON.stringify(brand(1))) }] },
    ]);
    expect(dataDigest(bodyData(a))).not.toBe(dataDigest(bodyData(b)));
    expect(dataDigest(bodyData(a))).toBe(dataDigest(bodyData(c)));
  });
});
