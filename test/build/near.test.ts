/**
 * The near-me indexes: the byte ranges, the facts read from a record, the postcode table and its
 * centroid file, and the property the endpoints rest on: for random points, radii, towns and
 * postcodes, the Worker's selection over the index equals the reference filter over the full
 * list, on the sample and on a generated set of 50,000 ATMs.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NearIndex } from "../../contract/near.js";
import { findDataset } from "../../build/core/datasets.js";
import { readSchemas } from "../../build/check/schemas.js";
import type { Envelope } from "../../build/assemble/envelope.js";
import { serialize } from "../../build/encode/variants.js";
import type { DatasetResult } from "../../build/encode/manifest-entry.js";
import { nearIndexes } from "../../build/near/index.js";
import { recordFacts } from "../../build/near/facts.js";
import { parsePostcodeCentroids, postcodeTable } from "../../build/near/postcodes.js";
import { bodySlices } from "../../build/near/slices.js";
import { answerBytes } from "../../worker/near-body.js";
import { loadIndex, selectRecords, type LoadedIndex } from "../../worker/near-select.js";
import {
  addressOf,
  answerRecords,
  groupByBrand,
  listRecords,
  positionOf,
  referenceNear,
  referenceTown,
  type Body,
  type Listed,
} from "../helpers/near-reference.js";
import { buildFixture, sampleFixture, type Fixture } from "../helpers/fixtures.js";

/** A small deterministic generator (mulberry32), so every run asks the same questions. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  const bytes = serialize(body);

  it("point at each record's exact bytes, in UTF-8, wherever the record list sits in its brand", () => {
    const slices = bodySlices(bytes, body, "ATM");
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
    expect(() => bodySlices(serialize({ ...body, extra: 1 }), body, "ATM")).toThrow(
      /do not rebuild/,
    );
  });
});

describe("the facts of a record", () => {
  it.each([
    [
      "an ATM's place under Location",
      {
        Location: {
          PostalAddress: {
            TownName: "  Stainby   Cross ",
            Country: "GB",
            PostCode: "sq4 6re",
            GeoLocation: { GeographicCoordinates: { Latitude: "53.48206", Longitude: "-2.24113" } },
          },
        },
      },
      {
        latitude: 53.48206,
        longitude: -2.24113,
        country: "GB",
        town: "stainby cross",
        postcode: "SQ46RE",
        sortcodes: [],
        segments: [],
      },
    ],
    [
      "a branch's sort codes, digits only, and a postcode that is not a full UK one",
      { SortCode: ["40-12-34", "123"], PostalAddress: { PostCode: "BFPO 123" } },
      { sortcodes: ["401234"], segments: [] },
    ],
    [
      "UK, which some banks publish, as the United Kingdom's code GB",
      { PostalAddress: { Country: "UK" } },
      { country: "GB", sortcodes: [], segments: [] },
    ],
    [
      "a product's segments",
      { Segment: ["Basic", "General"] },
      { sortcodes: [], segments: ["Basic", "General"] },
    ],
    [
      "coordinates out of range as no position",
      {
        PostalAddress: {
          GeoLocation: { GeographicCoordinates: { Latitude: "99.999999", Longitude: "0.0" } },
        },
      },
      { sortcodes: [], segments: [] },
    ],
  ])("reads %s", (_, record, facts) => {
    expect(recordFacts(record)).toEqual(facts);
  });
});

describe("placing postcodes", () => {
  it("reads the ONS Postcode Directory's columns and skips rows with no position", () => {
    const text =
      'pcd,pcds,lat,long\n"AB1 0AA","AB1 0AA",57.101474,-2.242851\nX,"AB1 0AB",99.999999,0.000000\n';
    const { points, problems } = parsePostcodeCentroids(text, "content/postcode-centroids.csv");
    expect(problems).toEqual([]);
    expect(points).toEqual([{ unit: "AB10AA", latitude: 57.101474, longitude: -2.242851 }]);
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
});

describe("the index cache", () => {
  it("indexes again only the data set whose published body changed", async () => {
    const fixture = await sampleFixture();
    try {
      const cacheDir = join(fixture.root, "cache");
      const parts = async () => (await readdir(cacheDir)).filter((n) => n.endsWith(".near"));
      expect((await buildFixture(fixture, { cacheDir })).ok).toBe(true);
      const before = await parts();
      // Branches, ATMs and the four product data sets.
      expect(before).toHaveLength(6);
      const file = join(fixture.content, "atms", "pennyfold-building-society.yaml");
      const text = await readFile(file, "utf8");
      await fixture.put({
        "atms/pennyfold-building-society.yaml": text.replace('"Brackenfold"', '"Brackenford"'),
      });
      expect((await buildFixture(fixture, { cacheDir })).ok).toBe(true);
      const after = await parts();
      expect(after.filter((name) => !before.includes(name))).toHaveLength(1);
    } finally {
      await fixture.cleanup();
    }
  });
});

// The reference placement, from docs/decisions.md#placing-a-postcode: the mean position of the
// publisher's records at that postcode, else of everything known in its sector, else district.
function referencePlace(
  points: readonly { unit: string; at: [number, number]; own: boolean }[],
  postcode: string,
): [number, number] | undefined {
  const mean = (list: readonly { at: [number, number] }[]) =>
    list.length === 0
      ? undefined
      : ([
          list.reduce((s, p) => s + p.at[0], 0) / list.length,
          list.reduce((s, p) => s + p.at[1], 0) / list.length,
        ] as [number, number]);
  const unit = postcode.toUpperCase();
  return (
    mean(points.filter((p) => p.own && p.unit === unit)) ??
    mean(points.filter((p) => p.unit.slice(0, -2) === unit.slice(0, -2))) ??
    mean(points.filter((p) => p.unit.slice(0, -3) === unit.slice(0, -3)))
  );
}

function answer(
  loaded: LoadedIndex,
  query: Parameters<typeof selectRecords>[1],
): Body | "unplaced" {
  const records = selectRecords(loaded, query);
  if (records === "unplaced") return "unplaced";
  return JSON.parse(Buffer.from(answerBytes(loaded, records)).toString("utf8")) as Body;
}

const FOLD = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();

/** Random questions against a loaded index, each compared with the reference over `listed`. */
function checkAgainstReference(
  loaded: LoadedIndex,
  listed: readonly Listed[],
  recordsKey: string,
  points: readonly { unit: string; at: [number, number]; own: boolean }[],
  rnd: () => number,
  rounds: number,
  area: { lat: [number, number]; lon: [number, number] },
) {
  const towns = [...new Set(listed.map((l) => String(addressOf(l.record).TownName ?? "")))];
  const units = [...new Set(points.map((p) => p.unit))];
  let nonEmpty = 0;
  for (let i = 0; i < rounds; i++) {
    // A random point in the area, or a record's own position (so distance 0 and ties occur).
    const own = listed[Math.floor(rnd() * listed.length)]!;
    const [lat, lon] =
      rnd() < 0.3 && positionOf(own.record)
        ? positionOf(own.record)!
        : [
            area.lat[0] + rnd() * (area.lat[1] - area.lat[0]),
            area.lon[0] + rnd() * (area.lon[1] - area.lon[0]),
          ];
    const radius = 1 + Math.round(rnd() * 90) / 10;
    const geo = answer(loaded, { filter: "geo-location", latitude: lat, longitude: lon, radius });
    const expected = referenceNear(listed, lat, lon, radius);
    expect(geo !== "unplaced" && answerRecords(geo, recordsKey)).toEqual(expected);
    expect(geo !== "unplaced" && geo.meta.TotalResults).toBe(expected.length);
    if (expected.length > 0) nonEmpty++;

    const town = towns[Math.floor(rnd() * towns.length)]!;
    const asked = rnd() < 0.5 ? town.toUpperCase() : `${town} `;
    const byTown = answer(loaded, { filter: "country", country: "GB", town: FOLD(asked) });
    expect(byTown !== "unplaced" && answerRecords(byTown, recordsKey)).toEqual(
      referenceTown(listed, "GB", asked),
    );

    // A known postcode, or one whose unit, or sector too, nothing knows.
    const unit = units[Math.floor(rnd() * units.length)]!;
    const roll = rnd();
    const asking =
      roll < 0.5 ? unit : roll < 0.8 ? `${unit.slice(0, -2)}ZZ` : `${unit.slice(0, -3)}0ZZ`;
    const placed = referencePlace(points, asking);
    const match = /^([A-Z]{1,2}[0-9][A-Z0-9]?)([0-9])([A-Z]{2})$/.exec(asking)!;
    const byPostcode = answer(loaded, {
      filter: "postcode",
      unit: asking,
      sector: match[1]! + match[2]!,
      district: match[1]!,
    });
    if (!placed) expect(byPostcode).toBe("unplaced");
    else {
      expect(byPostcode !== "unplaced" && answerRecords(byPostcode, recordsKey)).toEqual(
        referenceNear(listed, placed[0], placed[1], 5),
      );
    }
  }
  return nonEmpty;
}

describe("the answers against the reference filter over the full list", () => {
  describe("on the sample", () => {
    let fixture: Fixture;
    const loaded = new Map<string, { loaded: LoadedIndex; listed: Listed[] }>();
    const points: { unit: string; at: [number, number]; own: boolean }[] = [];
    beforeAll(async () => {
      fixture = await sampleFixture({
        "postcode-centroids.csv":
          "postcode,latitude,longitude\nWX1 9QQ,54.2,-1.8\nPQ3 2AA,51.5,-1.2\n",
      });
      const result = await buildFixture(fixture);
      expect(result.ok).toBe(true);
      for (const [id, key] of [
        ["atms", "ATM"],
        ["branches", "Branch"],
      ] as const) {
        const near = result.manifest!.near!.find((n) => n.dataset === id)!;
        const index = JSON.parse(
          await readFile(join(fixture.out, near.index.asset), "utf8"),
        ) as NearIndex;
        const body = await readFile(join(fixture.out, index.body.asset));
        const listed = listRecords(JSON.parse(body.toString("utf8")) as Body, key);
        loaded.set(id, { loaded: loadIndex(index, body), listed });
        for (const l of listed) {
          const at = positionOf(l.record);
          const code = String(addressOf(l.record).PostCode ?? "").replace(/\s/g, "");
          if (at && code) points.push({ unit: code, at, own: true });
        }
      }
      points.push({ unit: "WX19QQ", at: [54.2, -1.8], own: false });
      points.push({ unit: "PQ32AA", at: [51.5, -1.2], own: false });
    }, 60_000);
    afterAll(() => fixture?.cleanup());

    it.each(["atms", "branches"])("answers %s as the reference does", (id) => {
      const { loaded: index, listed } = loaded.get(id)!;
      const key = id === "atms" ? "ATM" : "Branch";
      const area = { lat: [50, 55] as [number, number], lon: [-4, 0] as [number, number] };
      const nonEmpty = checkAgainstReference(index, listed, key, points, random(7), 300, area);
      expect(nonEmpty).toBeGreaterThan(10);
    });

    it("describes every extension path in /openapi.json, with the radius as a query parameter", async () => {
      const doc = JSON.parse(await readFile(join(fixture.out, "openapi.json"), "utf8")) as {
        paths: Record<string, { get: { parameters: { $ref?: string }[] } }>;
      };
      expect(
        Object.keys(doc.paths)
          // The near-me paths: the changes paths and the feed live under /x-std/ too.
          .filter((p) => p.startsWith("/x-") && !/\/changes(\.atom)?$/.test(p))
          .sort(),
      ).toEqual([
        "/x-std/v2.2/atms/country/{country}",
        "/x-std/v2.2/atms/country/{country}/town/{town}",
        "/x-std/v2.2/atms/geo-location/lat/{latitude}/long/{longitude}",
        "/x-std/v2.2/atms/postcode/{postcode}",
        "/x-std/v2.2/branches/country/{country}",
        "/x-std/v2.2/branches/country/{country}/town/{town}",
        "/x-std/v2.2/branches/geo-location/lat/{latitude}/long/{longitude}",
        "/x-std/v2.2/branches/postcode/{postcode}",
        "/x-std/v2.2/branches/sortcode/{sortcode}",
        "/x-std/v2.2/business-current-accounts/segment/{segment}",
        "/x-std/v2.2/commercial-credit-cards/segment/{segment}",
        "/x-std/v2.2/personal-current-accounts/segment/{segment}",
        "/x-std/v2.2/unsecured-sme-loans/segment/{segment}",
      ]);
      const geo = doc.paths["/x-std/v2.2/atms/geo-location/lat/{latitude}/long/{longitude}"]!;
      expect(geo.get.parameters.map((p) => p.$ref)).toContain("#/components/parameters/NearRadius");
    });

    it("answers a whole country as the reference does", () => {
      const { loaded: index, listed } = loaded.get("atms")!;
      const gb = answer(index, { filter: "country", country: "GB" });
      expect(gb !== "unplaced" && answerRecords(gb, "ATM")).toEqual(referenceTown(listed, "GB"));
    });
  });

  describe("on 50,000 generated ATMs", () => {
    const TOWNS = ["Ashby Vale", "Brookmere", "Cold Harbour", "Dunwick", "Eastfold", "Fernley"];
    const rnd = random(2026);
    const records = Array.from({ length: 50_000 }, (_, n) => ({
      Identification: `ATM${n}`,
      SupportedCurrencies: ["GBP"],
      Location: {
        PostalAddress: {
          TownName: TOWNS[n % TOWNS.length]!,
          Country: "GB",
          ...(n % 5 === 0 ? {} : { PostCode: `Q${1 + (n % 40)} ${n % 10}${"ABCDEFGH"[n % 8]}X` }),
          // Every tenth ATM has no position; the rest spread over Great Britain's extent.
          ...(n % 10 === 3
            ? {}
            : {
                GeoLocation: {
                  GeographicCoordinates: {
                    Latitude: (50 + rnd() * 8).toFixed(6),
                    Longitude: (-5 + rnd() * 6).toFixed(6),
                  },
                },
              }),
        },
      },
    }));
    const body: Envelope = {
      meta: { LastUpdated: "2026-11-20T10:00:00Z", TotalResults: records.length, Agreement: "x" },
      data: [
        {
          Brand: [
            { BrandName: "North", ATM: records.slice(0, 30_000) },
            { BrandName: "South", ATM: records.slice(30_000) },
          ],
        },
      ],
    };
    const bytes = serialize(body);
    const dataset = findDataset("atms")!;
    const result = {
      dataset,
      entry: {
        variants: { identity: { asset: "/std/v2.2/atms.json", etag: '"x"', length: bytes.length } },
      },
      encoded: { identity: { bytes, etag: '"x"' } },
    } as unknown as DatasetResult;

    it("answers random points, radii, towns and postcodes as the reference does", async () => {
      const { indexes, problems } = await nearIndexes([result], readSchemas(), []);
      expect(problems).toEqual([]);
      const index = JSON.parse(indexes[0]!.bytes.toString("utf8")) as NearIndex;
      const loaded = loadIndex(index, bytes);
      const listed = listRecords(body as unknown as Body, "ATM");
      const points = listed.flatMap((l) => {
        const at = positionOf(l.record);
        const code = String(addressOf(l.record).PostCode ?? "").replace(/\s/g, "");
        return at && code ? [{ unit: code, at, own: true }] : [];
      });
      const area = { lat: [49.5, 58.5] as [number, number], lon: [-5.5, 1.5] as [number, number] };
      const nonEmpty = checkAgainstReference(loaded, listed, "ATM", points, random(11), 25, area);
      expect(nonEmpty).toBeGreaterThan(18);
      // A record list of both brands, grouped as an envelope holds them.
      const all = answer(loaded, { filter: "country", country: "GB" });
      expect(all !== "unplaced" && all.meta.TotalResults).toBe(50_000);
      expect(all !== "unplaced" && answerRecords(all, "ATM")).toEqual(groupByBrand(listed));
    }, 240_000);
  });
});
