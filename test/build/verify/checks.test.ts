/**
 * What verify asks a deployment for, from a manifest: each data set and its aliases, each
 * document, one near-me query per indexed data set, with the validators the build wrote. Written
 * against a small manifest spelled out here, so the expectations are literal.
 */
import { describe, expect, it } from "vitest";
import type { Manifest, ManifestEntry } from "../../../contract/manifest.js";
import type { NearEntry } from "../../../contract/near.js";
import { nearQueryPath, pathChecks } from "../../../build/verify/checks.js";

const HEX_A = "a".repeat(64);
const HEX_B = "b".repeat(64);
const HEX_I = "1".repeat(64);
const DATE = "Mon, 21 Sep 2026 14:13:20 GMT";

function entry(dataset: string, path: string, hex: string, aliases: string[] = []): ManifestEntry {
  return {
    dataset,
    path,
    mediaType: "application/prs.openbanking.opendata.v2.2+json",
    lastModified: DATE,
    lastModifiedMs: 1_790_000_000_000,
    lastUpdated: "2026-09-21T14:13:20Z",
    totalResults: 2,
    brands: 1,
    aliases: aliases.map((alias) => ({ path: alias, mediaType: "application/json" })),
    variants: {
      identity: { asset: `${path}.json`, etag: `"${hex}"`, length: 10 },
      br: { asset: `${path}.json.br`, etag: `"${"c".repeat(64)}"`, length: 5 },
    },
  };
}

function near(dataset: string, filters: NearEntry["filters"], segments: string[] = []): NearEntry {
  return {
    dataset,
    filters,
    segments,
    index: { asset: `/_near/${dataset}.json`, etag: `"${HEX_I}"`, length: 100 },
  };
}

const manifest: Manifest = {
  formatVersion: 1,
  datasets: [
    entry("atms", "/std/v2.2/atms", HEX_A, ["/open-banking/v2.2/atms"]),
    entry("personal-current-accounts", "/std/v2.2/personal-current-accounts", HEX_B),
  ],
  documents: [
    {
      path: "/openapi.json",
      mediaType: "application/openapi+json",
      lastModified: DATE,
      lastModifiedMs: 1_790_000_000_000,
      variants: { identity: { asset: "/openapi.json", etag: `"${"d".repeat(64)}"`, length: 9 } },
    },
  ],
  near: [near("atms", ["country", "geo-location", "postcode"])],
};

describe("the paths verify checks", () => {
  it("lists each data set, then its aliases, then the documents, then the near-me queries", () => {
    expect(pathChecks(manifest).map((c) => [c.path, c.what, c.dataset])).toEqual([
      ["/std/v2.2/atms", "data set atms", "atms"],
      ["/open-banking/v2.2/atms", "data set atms, alias", "atms"],
      [
        "/std/v2.2/personal-current-accounts",
        "data set personal-current-accounts",
        "personal-current-accounts",
      ],
      ["/openapi.json", "document", undefined],
      ["/x-std/v2.2/atms/country/GB", "data set atms, near me", "atms"],
    ]);
  });

  it("expects 200, the identity ETag, Last-Modified and the SHA-256 the ETag quotes", () => {
    const [atms, alias] = pathChecks(manifest);
    const expected = {
      status: 200,
      etag: { exact: `"${HEX_A}"` },
      lastModified: DATE,
      sha256: HEX_A,
    };
    expect(atms!.expected).toEqual(expected);
    expect(alias!.expected).toEqual(expected);
  });

  it("expects a near-me answer's tag to name the index it was cut from, and knows no body hash", () => {
    expect(pathChecks(manifest).at(-1)!.expected).toEqual({
      status: 200,
      etag: { prefix: `"near.1.${HEX_I}.` },
      lastModified: DATE,
    });
  });

  it("asks each changes endpoint and its alias since the current version, which every deployment answers", () => {
    const answer = {
      since: "2026-09-21T14:13:20Z",
      totalResults: 0,
      variants: {
        identity: { asset: "/_changes/atms/e.json", etag: `"${"e".repeat(64)}"`, length: 80 },
      },
      tokens: ["2026-09-21T14:13:20Z", HEX_A],
    };
    const older = { ...answer, since: "2026-08-01T09:00:00Z", tokens: ["2026-08-01T09:00:00Z"] };
    const withChanges: Manifest = {
      ...manifest,
      changes: [
        {
          dataset: "atms",
          path: "/x-std/v2.2/atms/changes",
          mediaType: "application/prs.openbanking.opendata.v2.2+json",
          aliases: [{ path: "/x-open-banking/v2.2/atms/changes", mediaType: "application/json" }],
          plan: "open-data",
          lastModified: DATE,
          lastModifiedMs: 1_790_000_000_000,
          answers: [answer, older],
        },
      ],
    };
    const checks = pathChecks(withChanges).slice(-2);
    expect(checks.map((c) => [c.path, c.what, c.dataset])).toEqual([
      ["/x-std/v2.2/atms/changes?since=2026-09-21T14%3A13%3A20Z", "data set atms, changes", "atms"],
      [
        "/x-open-banking/v2.2/atms/changes?since=2026-09-21T14%3A13%3A20Z",
        "data set atms, changes, alias",
        "atms",
      ],
    ]);
    expect(checks[0]!.expected).toEqual({
      status: 200,
      etag: { exact: `"${"e".repeat(64)}"` },
      lastModified: DATE,
      sha256: "e".repeat(64),
    });
  });

  it("checks a manifest without near-me indexes", () => {
    const { near: _, ...older } = manifest;
    expect(pathChecks(older).map((c) => c.path)).not.toContain("/x-std/v2.2/atms/country/GB");
  });
});

describe("the near-me query of a data set", () => {
  const atms = entry("atms", "/std/v2.2/atms", HEX_A);
  const pca = entry("personal-current-accounts", "/std/v2.2/personal-current-accounts", HEX_B);
  it.each([
    [
      "a country where it filters by country",
      atms,
      near("atms", ["country", "geo-location"]),
      "/x-std/v2.2/atms/country/GB",
    ],
    [
      "its first segment where it filters by segment",
      pca,
      near("personal-current-accounts", ["segment"], ["Basic", "Student"]),
      "/x-std/v2.2/personal-current-accounts/segment/Basic",
    ],
    [
      "a point and radius where it only filters by place",
      atms,
      near("atms", ["geo-location", "postcode"]),
      "/x-std/v2.2/atms/geo-location/lat/51.5074/long/-0.1278?radius=10",
    ],
    ["none where it offers none of these", atms, near("atms", ["postcode", "sortcode"]), undefined],
    [
      "none for a data set outside /std/v2.2/",
      entry("service-metrics-pca", "/std/v1.0/reg-service-metrics/pca", HEX_B),
      near("service-metrics-pca", ["country"]),
      undefined,
    ],
  ])("asks for %s", (_, dataset, index, path) => {
    expect(nearQueryPath(dataset, index)).toBe(path);
  });
});
