/**
 * The extension paths inside workerd: the path parser as a table of pure calls, and the routes a
 * manifest gives them, over the manifest of test/worker/support/near-fixture.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Manifest, ManifestEntry } from "../../../contract/manifest.js";
import { matchNear, nearRoutes, queryKey, type NearRoute } from "../../../worker/near/query.js";
import { ORIGIN } from "../support/fixture.js";
import { makeNearFixture } from "../support/near-fixture.js";

let manifest: Manifest;
beforeAll(async () => {
  manifest = (await makeNearFixture()).manifest;
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
    return match.query === "bad" ? `400 ${match.problem?.parameter}` : queryKey(match.query);
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
      ["/x-std/v2.2/branches/postcode/WX1%204AB", "postcode/WX14AB"],
      ["/x-std/v2.2/branches/postcode/wx1%204ab", "postcode/WX14AB"],
      ["/x-std/v2.2/branches/postcode/SW1A1AA", "postcode/SW1A1AA"],
      ["/x-std/v2.2/branches/sortcode/401234", "sortcode/401234"],
      ["/x-std/v2.2/personal-current-accounts/segment/basic", "segment/Basic"],
    ])("%s asks %s", (url, key) => {
      expect(parse(url)).toBe(key);
    });
  });

  describe("answer 400 to a parameter out of its range", () => {
    it.each([
      ["/x-std/v2.2/atms/geo-location/lat/90.0001/long/0", "lat"],
      ["/x-std/v2.2/atms/geo-location/lat/0/long/-181", "long"],
      ["/x-std/v2.2/atms/geo-location/lat/1e1/long/0", "lat"],
      ["/x-std/v2.2/atms/geo-location/lat/NaN/long/0", "lat"],
      ["/x-std/v2.2/atms/geo-location/lat/+51/long/0", "lat"],
      ["/x-std/v2.2/atms/geo-location/lat//long/0", "lat"],
      ["/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=0", "radius"],
      ["/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=0.99", "radius"],
      ["/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=10.01", "radius"],
      ["/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=-2", "radius"],
      ["/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=", "radius"],
      ["/x-std/v2.2/atms/geo-location/lat/51/long/0?radius=2&radius=3", "radius"],
      ["/x-std/v2.2/atms/country/XX", "country"],
      ["/x-std/v2.2/atms/country/GBR", "country"],
      ["/x-std/v2.2/atms/country/", "country"],
      ["/x-std/v2.2/atms/country/GB/town/%20", "town"],
      ["/x-std/v2.2/atms/country/GB/town/%E0%A4%A", "town"],
      ["/x-std/v2.2/atms/postcode/WX1%20%204AB", "postcode"],
      ["/x-std/v2.2/atms/postcode/WX1", "postcode"],
      ["/x-std/v2.2/atms/postcode/12345", "postcode"],
      ["/x-std/v2.2/branches/sortcode/40-12-34", "sortcode"],
      ["/x-std/v2.2/branches/sortcode/1234567", "sortcode"],
      ["/x-std/v2.2/personal-current-accounts/segment/Platinum", "segment"],
    ])("%s, naming %s", (url, parameter) => {
      expect(parse(url)).toBe(`400 ${parameter}`);
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
