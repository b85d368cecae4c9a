/**
 * A data set's body serialised piece by piece (build/encode/body.ts): the bytes must be exactly
 * JSON.stringify's, and each range must point at its piece, so the near-me index can take them
 * without parsing the body again.
 */
import { describe, expect, it } from "vitest";
import type { Envelope } from "../../../build/assemble/envelope.js";
import { serializeBody } from "../../../build/encode/body.js";
import { DATASETS } from "../../../build/core/datasets.js";
import { sampleBuild } from "../../helpers/sample-build.js";

const meta = { LastUpdated: "2026-11-20T10:00:00Z", TotalResults: 3, Agreement: "Ŵ £" };
const text = (bytes: Buffer, range: readonly [number, number]) =>
  bytes.subarray(range[0], range[1]).toString("utf8");

describe("a body serialised piece by piece", () => {
  it("is byte for byte what JSON.stringify writes, for every data set of the sample", async () => {
    const sample = sampleBuild();
    const manifest = await sample.manifest();
    for (const entry of manifest.datasets) {
      const published = await sample.read(entry.variants.identity.asset);
      const body = JSON.parse(published) as Envelope;
      const dataset = DATASETS.find((d) => d.id === entry.dataset)!;
      const { bytes, slices } = serializeBody(body, dataset.recordsKey);
      expect(bytes.toString("utf8"), entry.dataset).toBe(published);
      expect(slices === undefined, entry.dataset).toBe(dataset.recordsKey === null);
      // Each range holds its record's own text, ASCII-only bodies and others alike.
      const records = body.data.flatMap((d) =>
        d.Brand.flatMap((b) => (b[dataset.recordsKey ?? ""] ?? []) as unknown[]),
      );
      expect(slices?.records.map((r) => JSON.parse(text(bytes, r.range)) as unknown)).toEqual(
        dataset.recordsKey === null ? undefined : records,
      );
    }
  });

  it("points at each record's exact bytes in UTF-8 (two, three and four bytes a character), wherever the list sits in its brand", () => {
    const body: Envelope = {
      meta,
      data: [
        {
          Brand: [
            { ATM: [{ Identification: "é1" }, { Identification: "2" }], BrandName: "Ünsworth" },
            { BrandName: "B", ATM: [{ Identification: "3 €", Note: '"ATM":[] 🏦' }] },
            { BrandName: "C", ATM: [] },
          ],
        },
      ],
    };
    const { bytes, slices } = serializeBody(body, "ATM");
    expect(bytes.toString("utf8")).toBe(JSON.stringify(body));
    expect(slices!.records.map((r) => text(bytes, r.range))).toEqual([
      '{"Identification":"é1"}',
      '{"Identification":"2"}',
      '{"Identification":"3 €","Note":"\\"ATM\\":[] 🏦"}',
    ]);
    expect(slices!.records.map((r) => r.brand)).toEqual([0, 0, 1]);
    expect(text(bytes, slices!.head)).toBe(
      '{"meta":{"LastUpdated":"2026-11-20T10:00:00Z","TotalResults":',
    );
    expect(text(bytes, slices!.metaTail)).toBe(',"Agreement":"Ŵ £"},"data":');
    const [p0, p1, s0, s1] = slices!.brands[0]!;
    expect(text(bytes, [p0, p1])).toBe('{"ATM":[');
    expect(text(bytes, [s0, s1])).toBe('],"BrandName":"Ünsworth"}');
    const [q0, q1, t0, t1] = slices!.brands[2]!;
    expect(text(bytes, [q0, q1]) + text(bytes, [t0, t1])).toBe('{"BrandName":"C","ATM":[]}');
  });

  it("points at each record's bytes in a body that is all ASCII", () => {
    const body: Envelope = {
      meta: { ...meta, Agreement: "plain" },
      data: [
        { Brand: [{ BrandName: "A", ATM: [{ Identification: "1" }, { Identification: "22" }] }] },
      ],
    };
    const { bytes, slices } = serializeBody(body, "ATM");
    expect(slices!.records.map((r) => text(bytes, r.range))).toEqual([
      '{"Identification":"1"}',
      '{"Identification":"22"}',
    ]);
    expect(text(bytes, slices!.metaTail)).toBe(',"Agreement":"plain"},"data":');
  });

  it("writes an empty data set as data: [] with its ranges", () => {
    const body: Envelope = { meta: { ...meta, TotalResults: 0 }, data: [] };
    const { bytes, slices } = serializeBody(body, "ATM");
    expect(bytes.toString("utf8")).toBe(JSON.stringify(body));
    expect(slices!.records).toEqual([]);
  });

  it("still writes JSON.stringify's bytes, without ranges, for a body of another shape", () => {
    const one = { ATM: [{ Identification: "1" }], BrandName: "A" };
    const shapes: Envelope[] = [
      // The list's key again, empty, deeper in the brand: no one place to cut.
      { meta, data: [{ Brand: [{ ...one, Other: { ATM: [] } }] }] },
      // Two data items.
      { meta, data: [{ Brand: [one] }, { Brand: [one] }] },
      // A brand without its list.
      { meta, data: [{ Brand: [{ BrandName: "A" }] }] },
    ];
    for (const body of shapes) {
      const { bytes, slices } = serializeBody(body, "ATM");
      expect(bytes.toString("utf8")).toBe(JSON.stringify(body));
      expect(slices).toBeUndefined();
    }
  });
});
