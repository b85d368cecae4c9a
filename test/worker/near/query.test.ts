/**
 * The extension endpoints inside workerd: the path parser as a table of pure calls, the ETag, and
 * whole requests over a two-ATM data set whose index is written out here by hand, so the answer's
 * exact bytes can be stated literally.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Manifest, ManifestEntry } from "../../../contract/manifest.js";
import type { NearEntry, NearIndex } from "../../../contract/near.js";
import type { Deps } from "../../../worker/deps.js";
import { handle } from "../../../worker/handler.js";
import { nearDeps, nearEntityTag } from "../../../worker/near/answer.js";
import { matchNear, nearRoutes, queryKey, type NearRoute } from "../../../worker/near/query.js";
import { MemoryAssets } from "../../fakes/platform.js";
import { DECIDED, specErrorBody } from "../../helpers/spec-values.js";
import { makeFixture, makeWorker, ORIGIN, type Fixture } from "../support/fixture.js";

// Two ATMs of one brand: A at Wexbury, B about 3.4 miles north of it; both at GB/Wexbury.
const A = '{"Identification":"A","Location":{"PostalAddress":{"TownName":"Wexbury"}}}';
const B = '{"Identification":"B","Location":{"PostalAddress":{"TownName":"Wexbury"}}}';
const META_HEAD = '{"meta":{"LastUpdated":"2026-11-20T10:00:00Z","TotalResults":';
const META_TAIL = ',"Agreement":"x"},"data":';
const BRAND_HEAD = '{"BrandName":"Wexbury Bank","ATM":[';
const BRAND_TAIL = "]}";
const BODY = `${META_HEAD}2${META_TAIL}[{"Brand":[${BRAND_HEAD}${A},${B}${BRAND_TAIL}]}]}`;
const at = (text: string, from = 0) => BODY.indexOf(text, from);
const end = (text: string, from = 0) => at(text, from) + text.length;

const INDEX: NearIndex = {
  formatVersion: 1,
  dataset: "atms",
  body: { asset: "/std/v2.2/atms.json", etag: '"body"', length: BODY.length },
  head: [0, META_HEAD.length],
  metaTail: [at(META_TAIL), end(META_TAIL)],
  brands: [at(BRAND_HEAD), end(BRAND_HEAD), at(BRAND_TAIL, end(B)), end(BRAND_TAIL, end(B))],
  records: [0, at(A), end(A), 0, at(B), end(B)],
  // Sorted by latitude: A, then B.
  located: [54.1, -1.7, 0, 54.15, -1.7, 1],
  country: { GB: [0, 1] },
  town: { "GB/wexbury": [0, 1] },
  sortcode: {},
  segment: {},
  postcodes: { unit: { WX14AB: [54.1, -1.7] }, sector: {}, district: { LQ7: [54.15, -1.7] } },
};
const INDEX_TEXT = JSON.stringify(INDEX);

let fixture: Fixture;
let manifest: Manifest;
beforeAll(async () => {
  const base = await makeFixture();
  const near = (dataset: string, filters: NearEntry["filters"], segments: string[] = []) => ({
    dataset,
    filters,
    segments,
    index: { asset: `/_near/${dataset}.json`, etag: `"index-of-${dataset}"`, length: 0 },
  });
  manifest = {
    ...base.manifest,
    near: [
      {
        ...near("atms", ["country", "geo-location", "postcode"]),
        index: {
          asset: "/_near/atms.json",
          etag: '"index-of-atms"',
          length: INDEX_TEXT.length,
        },
      },
      near("branches", ["country", "geo-location", "postcode", "sortcode"]),
      near("personal-current-accounts", ["segment"], ["Basic", "General"]),
    ],
  };
  const files = new Map(base.files);
  const encoder = new TextEncoder();
  files.set("/std/v2.2/atms.json", encoder.encode(BODY));
  files.set("/_near/atms.json", encoder.encode(INDEX_TEXT));
  fixture = { manifest, files };
});

describe("the extension paths, parsed", () => {
  let routes: ReadonlyMap<string, NearRoute>;
  beforeAll(() => {
    routes = nearRoutes(manifest);
  });
  const parse = (url: string) => {
    const u = new URL(url, ORIGIN);
    const match = matchNear(u.pathname, u.searchParams, routes);
    if (!match) return "404";
    return match.query === "bad" ? "400" : queryKey(match.query);
  };

  describe("normalise what they ask", () => {
    it.each([
      ["/x-std/v2.2/atms/country/GB", "country/GB"],
      ["/x-std/v2.2/atms/country/gb", "country/GB"],
      ["/x-std/v2.2/atms/country/UK", "country/GB"],
      ["/x-std/v2.2/atms/country/GB/town/Wexbury", "country/GB/town/wexbury"],
      ["/x-std/v2.2/atms/country/GB/town/%20Stainby%20%20Cross", "country/GB/town/stainby%20cross"],
      ["/x-std/v2.2/atms/geo-location/lat/51.5074/long/-0.1278", "geo-location/51.5074/-0.1278/1"],
      [
        "/x-std/v2.2/atms/geo-location/lat/51.50740/long/-0.1278?radius=2",
        "geo-location/51.5074/-0.1278/2",
      ],
      ["/x-std/v2.2/atms/geo-location/lat/-90/long/180?radius=10", "geo-location/-90/180/10"],
      ["/x-std/v2.2/atms/geo-location/lat/0/long/0?radius=1.5&other=x", "geo-location/0/0/1.5"],
      ["/x-std/v2.2/branches/postcode/wx14ab", "postcode/WX14AB"],
      ["/x-std/v2.2/branches/postcode/SW1A1AA", "postcode/SW1A1AA"],
      ["/x-std/v2.2/branches/sortcode/401234", "sortcode/401234"],
      ["/x-std/v2.2/personal-current-accounts/segment/basic", "segment/Basic"],
    ])("%s asks %s", (url, key) => {
      expect(parse(url)).toBe(key);
    });
  });

  describe("answer 400 to a parameter out of its range", () => {
    it.each([
      "/x-std/v2.2/atms/geo-location/lat/90.0001/long/0",
      "/x-std/v2.2/atms/geo-location/lat/0/long/-181",
      "/x-std/v2.2/atms/geo-location/lat/1e1/long/0",
      "/x-std/v2.2/atms/geo-location/lat/NaN/long/0",
      "/x-std/v2.2/atms/geo-location/lat/+51/long/0",
      "/x-std/v2.2/atms/geo-location/lat//long/0",
      "/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=0",
      "/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=0.99",
      "/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=10.01",
      "/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=-2",
      "/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=",
      "/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=2&radius=3",
      "/x-std/v2.2/atms/country/XX",
      "/x-std/v2.2/atms/country/GBR",
      "/x-std/v2.2/atms/country/",
      "/x-std/v2.2/atms/country/GB/town/%20",
      "/x-std/v2.2/atms/country/GB/town/%E0%A4%A",
      "/x-std/v2.2/atms/postcode/WX1%204AB",
      "/x-std/v2.2/atms/postcode/WX1",
      "/x-std/v2.2/atms/postcode/12345",
      "/x-std/v2.2/branches/sortcode/40-12-34",
      "/x-std/v2.2/branches/sortcode/1234567",
      "/x-std/v2.2/personal-current-accounts/segment/Platinum",
    ])("%s", (url) => {
      expect(parse(url)).toBe("400");
    });
  });

  describe("answer 404 to a path that is not one of them", () => {
    it.each([
      "/x-std/v2.2/atms",
      "/x-std/v2.2/atms/",
      "/x-std/v2.2/atms/sortcode/401234",
      "/x-std/v2.2/atms/segment/Basic",
      "/x-std/v2.2/personal-current-accounts/country/GB",
      "/x-std/v2.2/atms/country/GB/city/Wexbury",
      "/x-std/v2.2/atms/geo-location/latitude/51/long/0",
      "/x-std/v2.2/atms/geo-location/lat/51/long/0/",
      "/x-std/v2.2/business-current-accounts/segment/Standard",
      "/x-std/v2.2/ATMS/country/GB",
      "/x-open-banking/v2.2/atms/country/GB",
      "/std/v2.2/atms/country/GB",
    ])("%s", (url) => {
      expect(parse(url)).toBe("404");
    });
  });
});

describe("the ETag of a filtered answer", () => {
  const geo = { filter: "geo-location", latitude: 51.5, longitude: -0.1, radius: 2 } as const;
  it("is strong and holds only characters an entity tag allows (RFC 9110 section 8.8.3)", () => {
    const tag = nearEntityTag('"abc"', { filter: "country", country: "GB", town: "stainby cross" });
    expect(tag).toMatch(/^"[\x21\x23-\x7e]+"$/);
  });
  it("changes with the index and with the question, and only with them", () => {
    expect(nearEntityTag('"one"', geo)).toBe(nearEntityTag('"one"', { ...geo }));
    expect(nearEntityTag('"one"', geo)).not.toBe(nearEntityTag('"two"', geo));
    expect(nearEntityTag('"one"', geo)).not.toBe(nearEntityTag('"one"', { ...geo, radius: 3 }));
  });
});

describe("whole requests to an extension path", () => {
  const make = () => {
    const worker = makeWorker(fixture);
    const deps: Deps = { ...worker.deps, near: nearDeps(manifest) };
    const fetch = (path: string, init?: RequestInit) =>
      handle(new Request(new URL(path, ORIGIN), init), deps);
    return { worker, fetch };
  };
  const geo = "/x-std/v2.2/atms/geo-location/lat/54.1/long/-1.7";

  it("answers with the published bytes of the records within the radius, nearest first", async () => {
    const { fetch } = make();
    const one = await fetch(geo);
    expect(one.status).toBe(200);
    expect(await one.text()).toBe(
      `${META_HEAD}1${META_TAIL}[{"Brand":[${BRAND_HEAD}${A}${BRAND_TAIL}]}]}`,
    );
    // From B's position with 10 miles, B is nearer than A.
    const both = await fetch("/x-std/v2.2/atms/geo-location/lat/54.15/long/-1.7?radius=10");
    expect(await both.text()).toBe(
      `${META_HEAD}2${META_TAIL}[{"Brand":[${BRAND_HEAD}${B},${A}${BRAND_TAIL}]}]}`,
    );
  });

  it("answers an empty list as the envelope with no data", async () => {
    const { fetch } = make();
    const none = await fetch("/x-std/v2.2/atms/country/FR");
    expect(none.status).toBe(200);
    expect(await none.text()).toBe(`${META_HEAD}0${META_TAIL}[]}`);
  });

  it("places a postcode by its unit, else its district, and answers 404 where nothing places it", async () => {
    const { fetch } = make();
    const unit = await fetch("/x-std/v2.2/atms/postcode/WX14AB");
    expect(((await unit.json()) as { meta: { TotalResults: number } }).meta.TotalResults).toBe(2);
    const district = await fetch("/x-std/v2.2/atms/postcode/LQ79ZZ");
    expect(district.status).toBe(200);
    const unknown = await fetch("/x-std/v2.2/atms/postcode/ZZ99ZZ");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(specErrorBody(404));
  });

  it("reads the index and body once per isolate", async () => {
    const { fetch, worker } = make();
    await fetch(geo);
    await fetch("/x-std/v2.2/atms/country/GB");
    expect(worker.assets.requests.map((r) => new URL(r.url).pathname)).toEqual([
      "/_near/atms.json",
      "/std/v2.2/atms.json",
    ]);
  });

  it("answers a bad parameter and a 304 without reading any file", async () => {
    const { fetch, worker } = make();
    const bad = await fetch("/x-std/v2.2/atms/geo-location/lat/91/long/0");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual(specErrorBody(400));
    const etag = nearEntityTag('"index-of-atms"', {
      filter: "geo-location",
      latitude: 54.1,
      longitude: -1.7,
      radius: 1,
    });
    const fresh = await fetch(geo, { headers: { "If-None-Match": etag } });
    expect(fresh.status).toBe(304);
    expect(fresh.headers.get("ETag")).toBe(etag);
    expect(worker.assets.requests).toEqual([]);
  });

  it("answers 405 to other methods and 503 in maintenance, as the standard paths do", async () => {
    const { fetch } = make();
    const post = await fetch(geo, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe(DECIDED.allow);
    const worker = makeWorker(fixture, { vars: { MAINTENANCE: "on" } });
    const deps: Deps = { ...worker.deps, near: nearDeps(manifest) };
    const closed = await handle(new Request(ORIGIN + geo), deps);
    expect(closed.status).toBe(503);
  });

  it("answers 503 with Retry-After when the assets binding fails, and 500 when a file is missing", async () => {
    const failing = make();
    (failing.worker.assets as MemoryAssets).failure = "throw";
    const unavailable = await failing.fetch(geo);
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("Retry-After")).toBe(String(DECIDED.assetsRetryAfterSeconds));
    // A failed read is not kept: the next request reads again and succeeds.
    failing.worker.assets.failure = "none";
    expect((await failing.fetch(geo)).status).toBe(200);
    const missing = make();
    missing.worker.assets.failure = "missing";
    expect((await missing.fetch(geo)).status).toBe(500);
  });
});

describe("a manifest the extension paths cannot serve", () => {
  it("is refused when the Worker starts", () => {
    const broken = {
      ...manifest,
      near: [{ ...manifest.near![0]!, dataset: "no-such-set" }],
    } as Manifest;
    expect(() => nearRoutes(broken)).toThrow(/no-such-set/);
  });
  it("gives the live prefix only to a data set with a v2.2 alias", () => {
    const entries = manifest.datasets.map((d): ManifestEntry =>
      d.dataset === "atms"
        ? { ...d, aliases: [{ path: "/open-banking/v2.2/atms", mediaType: "application/x" }] }
        : d,
    );
    const routes = nearRoutes({ ...manifest, datasets: entries });
    expect(routes.get("/x-open-banking/v2.2/atms")?.mediaType).toBe("application/x");
    expect(routes.has("/x-open-banking/v2.2/branches")).toBe(false);
  });
});
