/**
 * What the history keeps of a past file (build/history/facts.ts), and a past version made from
 * it: its Data equal to the Data of the body the build would make of the same files, its bytes
 * exactly that body's.
 */
import { jsonBytes } from "../../helpers/json.js";
import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import { envelope, envelopeMeta, joinBrand } from "../../../build/assemble/envelope.js";
import { writeBody } from "../../../build/encode/body.js";
import type { SiteSettings } from "../../../build/read/site.js";
import { madeBody } from "../../helpers/bodies.js";
import { dataDigest, recordHash } from "../../../build/encode/data-digest.js";
import { bodyData } from "../../../build/encode/dataset-body.js";

import {
  fileFacts,
  readFileTask,
  versionFacts,
  type PastFileFacts,
} from "../../../build/history/facts.js";

const atms = DATASETS.find((d) => d.id === "atms")!;
const pca = DATASETS.find((d) => d.recordsKey === null)!;
const settings: SiteSettings = {
  License: "https://example.org/l",
  TermsOfUse: "https://example.org/t",
};
const DATE = "2026-05-01T08:00:00Z";

const atm = (id: string, town: string) => ({
  Identification: id,
  Location: { PostalAddress: { TownName: town } },
});

// A brand in two files, as a brand folder holds it, and a brand in one.
const folderParts = [
  { BrandName: "Wexbury Bank", ATM: [atm("W-1", "Wexbury"), atm("W-2", "Lynmoor")] },
  { BrandName: "Wexbury Bank", ATM: [atm("W-3", "Ottersey")] },
];
const single = { BrandName: "Ŵ Bank £", ATM: [atm("Y-1", "Ŵestbury")] };

function factsOf(value: unknown): PastFileFacts {
  const read = fileFacts(atms.recordsKey, value);
  if (!read.facts) throw new Error("no facts");
  return read.facts;
}

/** The body the build would make of these brands' files. */
function builtBody(dataset: typeof atms, brands: unknown[][]) {
  const brandValues = brands.map((files) => joinBrand(dataset, files));
  return madeBody(dataset, envelope(dataset, brandValues, settings, DATE));
}

describe("a past file's facts", () => {
  it("name each record by its Identification, the hash of its published text and its town", () => {
    const read = fileFacts(atms.recordsKey, folderParts[0]);
    expect(read.facts).toEqual({
      brandName: "Wexbury Bank",
      shell: '{"BrandName":"Wexbury Bank","ATM":[]}',
      records: [
        {
          id: "W-1",
          hash: recordHash(JSON.stringify(atm("W-1", "Wexbury"))),
          label: "W-1 (Wexbury)",
        },
        {
          id: "W-2",
          hash: recordHash(JSON.stringify(atm("W-2", "Lynmoor"))),
          label: "W-2 (Lynmoor)",
        },
      ],
    });
    expect(Buffer.from(read.joined!).toString("utf8")).toBe(
      '{"Identification":"W-1","Location":{"PostalAddress":{"TownName":"Wexbury"}}},' +
        '{"Identification":"W-2","Location":{"PostalAddress":{"TownName":"Lynmoor"}}}',
    );
  });

  it("are none for a file no build could have published", () => {
    expect(fileFacts(atms.recordsKey, { BrandName: "B" }).facts).toBeUndefined();
    expect(
      fileFacts(atms.recordsKey, { BrandName: "B", ATM: [{ Name: "x" }] }).facts,
    ).toBeUndefined();
    expect(fileFacts(atms.recordsKey, ["not", "a", "brand"]).facts).toBeUndefined();
    expect(fileFacts(pca.recordsKey, { Metric: [] }).facts).toBeUndefined();
  });

  it("are read from YAML as the build reads it, and a file that does not parse has none", () => {
    const yaml =
      "BrandName: Wexbury Bank\nATM:\n  - Identification: W-1\n    Location:\n      PostalAddress:\n        TownName: Wexbury\n";
    const read = readFileTask({ text: yaml, name: "one.yaml", kind: { recordsKey: "ATM" } });
    expect("facts" in read && read.facts?.records.map((r) => r.label)).toEqual(["W-1 (Wexbury)"]);
    const broken = readFileTask({
      text: "ATM: [\n",
      name: "bad.yaml",
      kind: { recordsKey: "ATM" },
    });
    expect(broken).toEqual({ facts: undefined, joined: undefined });
    expect(
      readFileTask({ text: "License: L\nTermsOfUse: T\n", name: "site.yaml", kind: "site" }),
    ).toEqual({
      settings: { License: "L", TermsOfUse: "T" },
    });
  });
});

describe("a past version made from its files' facts", () => {
  it("has the Data digest of the body the build would make of the same files", () => {
    const version = versionFacts(atms, [folderParts.map(factsOf), [factsOf(single)]], settings);
    const body = builtBody(atms, [folderParts, [single]]);
    expect(dataDigest(version!.data)).toBe(dataDigest(bodyData(body)));
    expect(version!.records.map((b) => [b.name, b.records.map((r) => r.id)])).toEqual([
      ["Wexbury Bank", ["W-1", "W-2", "W-3"]],
      ["Ŵ Bank £", ["Y-1"]],
    ]);
  });

  it("is byte for byte the body the build would publish, for brands in folders, none, and the service metrics", () => {
    // As history/version.ts makes a past body: each brand's shell and its files' records' texts.
    const texts = (value: { ATM: unknown[] }) => value.ATM.map((r) => JSON.stringify(r));
    const pastBody = (
      dataset: typeof atms,
      brands: { shell: string; records: string[] }[],
      count: number,
    ) =>
      writeBody({ meta: envelopeMeta(count, settings, DATE), brands }, dataset.recordsKey)!.bytes;
    const made = pastBody(
      atms,
      [
        { shell: factsOf(folderParts[0]).shell, records: folderParts.flatMap(texts) },
        { shell: factsOf(single).shell, records: texts(single) },
      ],
      4,
    );
    expect(made.toString("utf8")).toBe(
      builtBody(atms, [folderParts, [single]]).bytes.toString("utf8"),
    );
    expect(pastBody(atms, [], 0).equals(jsonBytes(envelope(atms, [], settings, DATE)))).toBe(true);
    const metrics = { BrandName: "Bank", Metric: [{ Score: 1 }] };
    const pcaBytes = pastBody(pca, [{ shell: JSON.stringify(metrics), records: [] }], 1);
    expect(pcaBytes.equals(jsonBytes(envelope(pca, [metrics], settings, DATE)))).toBe(true);
  });

  it("is none where a brand's first file has no BrandName", () => {
    const nameless = { ...factsOf(folderParts[0]), brandName: undefined };
    expect(versionFacts(atms, [[nameless]], settings)).toBeUndefined();
  });
});
