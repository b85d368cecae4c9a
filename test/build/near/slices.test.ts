/** The byte ranges of a published body (build/encode/body.ts), checked by rebuilding the body. */
import { jsonBytes } from "../../helpers/json.js";
import { describe, expect, it } from "vitest";

import { bodySlices } from "../../../build/encode/body.js";

describe("the byte ranges of a body", () => {
  const body = {
    meta: { LastUpdated: "2026-11-20T10:00:00Z", TotalResults: 3, Agreement: "Ŵ £" },
    data: [
      {
        Brand: [
          { ATM: [{ Identification: "é1" }, { Identification: "2" }], BrandName: "Ünsworth" },
          { BrandName: "B", ATM: [{ Identification: "3 €" }] },
        ],
      },
    ],
  };
  const bytes = jsonBytes(body);

  it("point at each record's exact bytes, in UTF-8, wherever the record list sits in its brand", () => {
    const slices = bodySlices(bytes, body, "ATM")!;
    const text = (range: readonly [number, number]) =>
      bytes.subarray(range[0], range[1]).toString("utf8");
    expect(slices.records.map((r) => text(r.range))).toEqual([
      '{"Identification":"é1"}',
      '{"Identification":"2"}',
      '{"Identification":"3 €"}',
    ]);
    expect(slices.records.map((r) => r.brand)).toEqual([0, 0, 1]);
    expect(text(slices.head)).toBe('{"meta":{"LastUpdated":"2026-11-20T10:00:00Z","TotalResults":');
    expect(text(slices.metaTail)).toBe(',"Agreement":"Ŵ £"},"data":');
    const [p0, p1, s0, s1] = slices.brands[0]!;
    expect(text([p0, p1])).toBe('{"ATM":[');
    expect(text([s0, s1])).toBe('],"BrandName":"Ünsworth"}');
  });

  it("refuse bytes that the body does not serialise to", () => {
    expect(() => bodySlices(jsonBytes({ ...body, extra: 1 }), body, "ATM")).toThrow(
      /do not rebuild/,
    );
  });
});
