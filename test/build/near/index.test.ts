/**
 * The near-me indexes (build/near/index.ts): what each record is filed under, the parts kept in
 * the build cache, and the property the endpoints rest on: for random points, radii, towns and
 * postcodes, the Worker's selection over the index equals the reference filter over the full
 * list, on the sample (through a real build, with a centroid file) and on a generated set of
 * 50,000 ATMs (indexed directly).
 */
import { jsonBytes } from "../../helpers/json.js";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, assert, beforeAll, describe, expect, it } from "vitest";
import type { NearIndex } from "../../../contract/near.js";
import { BuildCache } from "../../../build/core/cache.js";
import { findDataset } from "../../../build/core/datasets.js";
import { readSchemas } from "../../../build/check/schemas.js";
import type { Envelope } from "../../../build/assemble/envelope.js";
import { entityTag } from "../../../build/encode/variants.js";
import { DatasetBody } from "../../../build/encode/dataset-body.js";
import type { DatasetDefinition } from "../../../build/core/datasets.js";
import { indexPart, nearIndexes } from "../../../build/near/index.js";
import { answerBytes } from "../../../worker/near/body.js";
import { loadIndex, selectRecords, type LoadedIndex } from "../../../worker/near/select.js";
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
} from "../../helpers/near-reference.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";

/** A field read as text: the string it is, or "" (the records are valid, so a string or absent). */
const textOf = (value: unknown) => (typeof value === "string" ? value : "");

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

/** A body known by its bytes alone, as the cache gives it back: parsed when the index asks. */
function storedBody(dataset: DatasetDefinition, bytes: Buffer, etag = entityTag(bytes)) {
  return DatasetBody.stored({
    dataset,
    bytes,
    tag: etag,
    updated: { seconds: 1_795_000_000, source: "SOURCE_DATE_EPOCH" },
    summary: { totalResults: 0, brands: 0 },
    located: [],
    brandNames: [],
  });
}

/** A data set's body as step 5 gives it, for a body of `records` under one brand each. */
function encoded(datasetId: string, brands: readonly Record<string, unknown>[]): DatasetBody {
  const dataset = findDataset(datasetId)!;
  const records = brands.reduce(
    (n, b) => n + ((b[dataset.recordsKey!] as unknown[]) ?? []).length,
    0,
  );
  const body = {
    meta: { LastUpdated: "2026-11-20T10:00:00Z", TotalResults: records, Agreement: "x" },
    data: [{ Brand: brands }],
  };
  return storedBody(dataset, jsonBytes(body));
}

const located = (lat: string, lon: string) => ({
  GeoLocation: { GeographicCoordinates: { Latitude: lat, Longitude: lon } },
});

describe("what the index files each record under", () => {
  const atms = [
    {
      Identification: "A0",
      Location: {
        PostalAddress: {
          TownName: " Wexby  Vale ",
          Country: "GB",
          PostCode: "wx1 4ab",
          ...located("54.1", "-1.7"),
        },
      },
    },
    {
      Identification: "A1",
      Location: {
        PostalAddress: { TownName: "WEXBY VALE", Country: "UK", ...located("99.999999", "0.0") },
      },
    },
    {
      Identification: "A2",
      Location: { PostalAddress: { TownName: "Athens", Country: "EL", PostCode: "105 57" } },
    },
    {
      Identification: "A3",
      Location: {
        PostalAddress: { TownName: "Nowhere", Country: "XK", ...located("42.6", "21.2") },
      },
    },
  ];

  it("files records by the country their Country means, towns as compared, and only positions on Earth", () => {
    const { index, own } = indexPart(encoded("atms", [{ BrandName: "B", ATM: atms }]));
    expect(index.country).toEqual({ GB: [0, 1], GR: [2] });
    expect(index.town).toEqual({ "GB/wexby vale": [0, 1], "GR/athens": [2] });
    // By latitude: A0 at 54.1, then A3 at 42.6; A1's 99.999999 is no position.
    expect(index.located).toEqual([42.6, 21.2, 3, 54.1, -1.7, 0]);
    expect(own).toEqual([{ unit: "WX14AB", latitude: 54.1, longitude: -1.7 }]);
  });

  it("files branches by their sort codes' digits, and products by their segments", () => {
    const branches = indexPart(
      encoded("branches", [
        {
          BrandName: "B",
          Branch: [
            { Identification: "B0", SortCode: ["40-12-34", "401234", "12"] },
            { Identification: "B1", SortCode: ["401234"] },
          ],
        },
      ]),
    );
    expect(branches.index.sortcode).toEqual({ "401234": [0, 1] });
    const products = indexPart(
      encoded("personal-current-accounts", [
        {
          BrandName: "B",
          PCA: [
            { Identification: "P0", Segment: ["Basic", "General"] },
            { Identification: "P1", Segment: ["Basic"] },
          ],
        },
      ]),
    );
    expect(products.index.segment).toEqual({ Basic: [0, 1], General: [0] });
  });
});

describe("the index's byte ranges", () => {
  it("are the serialiser's when the build assembled the body, and the same as the published body parsed again", async () => {
    const fixture = await sampleFixture();
    try {
      const result = await buildFixture(fixture, { write: false });
      assert(result.ok);
      const indexed = result.datasets.filter((r) => r.dataset.path.startsWith("/std/v2.2/"));
      expect(indexed.length).toBe(6);
      for (const made of indexed) {
        // Made by this build: its slices are the serialiser's, found without parsing its bytes.
        expect(made.body.slices(), made.dataset.id).toBeDefined();
        const reread = storedBody(made.dataset, made.body.bytes);
        expect(JSON.stringify(indexPart(made.body)), made.dataset.id).toBe(
          JSON.stringify(indexPart(reread)),
        );
      }
    } finally {
      await fixture.cleanup();
    }
  });
});

describe("the index cache", () => {
  it("indexes again only the data set whose published body changed, and reads back what it made", async () => {
    const dir = await mkdtemp(join(tmpdir(), "opendata-edge-near-"));
    try {
      const cache = new BuildCache(dir, "a fingerprint");
      const parts = async () => (await readdir(dir)).filter((n) => n.endsWith(".near"));
      const atm = (town: string) => [
        {
          BrandName: "B",
          ATM: [
            {
              Identification: "A0",
              Location: {
                PostalAddress: {
                  TownName: town,
                  Country: "GB",
                  PostCode: "WX1 4AB",
                  ...located("54.1", "-1.7"),
                },
              },
            },
          ],
        },
      ];
      const branches = encoded("branches", [
        { BrandName: "B", Branch: [{ Identification: "B0", SortCode: ["401234"] }] },
      ]);
      const first = await nearIndexes(
        [branches, encoded("atms", atm("Brackenfold"))],
        readSchemas(),
        [],
        { cache },
      );
      const before = await parts();
      expect(before).toHaveLength(2);
      // The same bodies again: both parts read back from the cache give the same index bytes.
      const again = await nearIndexes(
        [branches, encoded("atms", atm("Brackenfold"))],
        readSchemas(),
        [],
        { cache },
      );
      expect(again.indexes.map((i) => i.bytes)).toEqual(first.indexes.map((i) => i.bytes));
      // One body changed: one part more.
      await nearIndexes([branches, encoded("atms", atm("Brackenford"))], readSchemas(), [], {
        cache,
      });
      expect((await parts()).filter((name) => !before.includes(name))).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
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

/**
 * An answer's records are the expected ones, in order, byte for byte: their identifiers compared
 * first (a readable difference), then their whole JSON (deep equality over thousands of records
 * would cost seconds and mean no more).
 */
function expectRecords(answered: Body | "unplaced", recordsKey: string, expected: unknown[]) {
  expect(answered).not.toBe("unplaced");
  const records = answerRecords(answered as Body, recordsKey);
  const ids = (list: unknown[]) =>
    list.map((r) => (r as { Identification: unknown }).Identification);
  expect(ids(records)).toEqual(ids(expected));
  expect(JSON.stringify(records)).toBe(JSON.stringify(expected));
}

const FOLD = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * Random points, radii and postcodes against a loaded index, then every town, each answer
 * compared with the reference over `listed`; how many geo-location answers were not empty.
 */
function checkAgainstReference(
  loaded: LoadedIndex,
  listed: readonly Listed[],
  recordsKey: string,
  points: readonly { unit: string; at: [number, number]; own: boolean }[],
  rnd: () => number,
  rounds: number,
  area: { lat: [number, number]; lon: [number, number] },
) {
  const towns = [...new Set(listed.map((l) => textOf(addressOf(l.record).TownName)))];
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
    expectRecords(geo, recordsKey, expected);
    expect(geo !== "unplaced" && geo.meta.TotalResults).toBe(expected.length);
    if (expected.length > 0) nonEmpty++;

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
      expectRecords(byPostcode, recordsKey, referenceNear(listed, placed[0], placed[1], 5));
    }
  }
  // Every town, asked in capitals and with spaces around and inside it.
  for (const town of towns) {
    for (const asked of [town.toUpperCase(), ` ${town.replace(" ", "  ")} `]) {
      const byTown = answer(loaded, { filter: "country", country: "GB", town: FOLD(asked) });
      expectRecords(byTown, recordsKey, referenceTown(listed, "GB", asked));
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
      assert(result.ok);
      for (const [id, key] of [
        ["atms", "ATM"],
        ["branches", "Branch"],
      ] as const) {
        const near = result.manifest.near!.find((n) => n.dataset === id)!;
        const index = JSON.parse(
          await readFile(join(fixture.out, near.index.asset), "utf8"),
        ) as NearIndex;
        const body = await readFile(join(fixture.out, index.body.asset));
        const listed = listRecords(JSON.parse(body.toString("utf8")) as Body, key);
        loaded.set(id, { loaded: loadIndex(index, body), listed });
        for (const l of listed) {
          const at = positionOf(l.record);
          const code = textOf(addressOf(l.record).PostCode).replace(/\s/g, "");
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
      expectRecords(gb, "ATM", referenceTown(listed, "GB"));
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
    const bytes = jsonBytes(body);
    const dataset = findDataset("atms")!;
    const result = storedBody(dataset, bytes, '"x"');

    it("answers random points, radii, towns and postcodes as the reference does", async () => {
      const { indexes, problems } = await nearIndexes([result], readSchemas(), []);
      expect(problems).toEqual([]);
      const index = JSON.parse(indexes[0]!.bytes.toString("utf8")) as NearIndex;
      const loaded = loadIndex(index, bytes);
      const listed = listRecords(body, "ATM");
      const points = listed.flatMap((l) => {
        const at = positionOf(l.record);
        const code = textOf(addressOf(l.record).PostCode).replace(/\s/g, "");
        return at && code ? [{ unit: code, at, own: true }] : [];
      });
      const area = { lat: [49.5, 58.5] as [number, number], lon: [-5.5, 1.5] as [number, number] };
      const nonEmpty = checkAgainstReference(loaded, listed, "ATM", points, random(11), 25, area);
      expect(nonEmpty).toBeGreaterThan(18);
      // A record list of both brands, grouped as an envelope holds them.
      const all = answer(loaded, { filter: "country", country: "GB" });
      expect(all !== "unplaced" && all.meta.TotalResults).toBe(50_000);
      expectRecords(all, "ATM", groupByBrand(listed));
    }, 240_000);
  });
});
