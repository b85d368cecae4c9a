/**
 * A build with site.yaml's Sites (issue 46): each site a whole publication from the one build,
 * under dist/sites/<Name>/, its data sets holding only its brands, its own TotalResults,
 * LastUpdated and ETags, and its documents naming its host; the manifest the Worker imports lists
 * the sites with their hosts. Three brands, a site per brand and a group site, in git, so
 * LastUpdated is each site's own Data's.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runBuild, runValidate, type PublishedCountsOf } from "../../../build/pipeline.js";
import type { Manifest, SiteEntry } from "../../../contract/manifest.js";
import { testProfile } from "../../helpers/fixtures.js";
import { atmBrandFile, scratchRepo, siteYaml, type ScratchRepo } from "../../helpers/history.js";
import { parseJson, stringAt, arrayAt } from "../../helpers/json.js";

let repo: ScratchRepo | undefined;
afterEach(async () => repo?.cleanup());

const SITES = siteYaml(
  [
    "Sites:",
    "  - Name: lloyds",
    "    Host: api.lloyds.example",
    "    Brands: [Lloyds Bank]",
    "    PublisherName: Lloyds Bank",
    "  - Name: halifax",
    "    Host: api.halifax.example",
    "    Brands: [Halifax]",
    "  - Name: bos",
    "    Host: api.bankofscotland.example",
    "    Brands: [Bank of Scotland]",
    "  - Name: group",
    "    Host: opendata.group.example",
  ].join("\n"),
);

const BRANDS = {
  "atms/lloyds-bank.yaml": atmBrandFile("Lloyds Bank", [
    { id: "LB-1", town: "Leeds", amount: 10 },
    { id: "LB-2", town: "York", amount: 10 },
  ]),
  "atms/halifax.yaml": atmBrandFile("Halifax", [{ id: "HX-1", town: "Halifax", amount: 10 }]),
  "atms/bank-of-scotland.yaml": atmBrandFile("Bank of Scotland", [
    { id: "BOS-1", town: "Perth", amount: 20 },
  ]),
};

// 2026-10-01T00:00:00Z and a day later.
const FIRST = 1790812800;
const SECOND = FIRST + 86_400;

async function build(): Promise<Manifest> {
  const result = await runBuild({
    contentDir: repo!.content,
    cwd: repo!.root,
    cacheDir: false,
    write: false,
    profile: testProfile(),
  });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result.manifest;
}

function atms(site: SiteEntry) {
  const entry = site.manifest.datasets.find((d) => d.dataset === "atms")!;
  return {
    totalResults: entry.totalResults,
    lastUpdated: entry.lastUpdated,
    etag: entry.variants.identity.etag,
    asset: entry.variants.identity.asset,
  };
}

describe("a build with a site per brand and a group site", () => {
  it("lists every site with its host, and serves nothing at a host no site names", async () => {
    repo = await scratchRepo();
    await repo.commit({ "site.yaml": SITES, ...BRANDS }, FIRST);
    const manifest = await build();
    expect(manifest.datasets).toEqual([]);
    expect(manifest.documents).toEqual([]);
    expect(manifest.sites!.map((s) => [s.name, s.host])).toEqual([
      ["lloyds", "api.lloyds.example"],
      ["halifax", "api.halifax.example"],
      ["bos", "api.bankofscotland.example"],
      ["group", "opendata.group.example"],
    ]);
  });

  it("gives each site only its brands' records, its own count and its files under its folder", async () => {
    repo = await scratchRepo();
    await repo.commit({ "site.yaml": SITES, ...BRANDS }, FIRST);
    const result = await runBuild({
      contentDir: repo.content,
      cwd: repo.root,
      cacheDir: false,
      write: false,
      profile: testProfile(),
    });
    if (!result.ok) throw new Error("build failed");
    const file = (path: string) => result.files.find((f) => f.path === path)!.bytes;
    const brandsIn = (path: string) =>
      arrayAt(parseJson(file(path)), "/data/0/Brand").map((b) => stringAt(b, "/BrandName"));
    expect(brandsIn("sites/lloyds/std/v2.2/atms.json")).toEqual(["Lloyds Bank"]);
    expect(brandsIn("sites/halifax/std/v2.2/atms.json")).toEqual(["Halifax"]);
    expect(brandsIn("sites/group/std/v2.2/atms.json")).toEqual([
      "Bank of Scotland",
      "Halifax",
      "Lloyds Bank",
    ]);
    // What the build reports per site (the CLI prints a table for each).
    expect(result.sites!.map((site) => [site.name, site.host, site.datasets.length])).toEqual([
      ["lloyds", "api.lloyds.example", 8],
      ["halifax", "api.halifax.example", 8],
      ["bos", "api.bankofscotland.example", 8],
      ["group", "opendata.group.example", 8],
    ]);
    const sites = result.manifest.sites!;
    expect(sites.map((s) => [s.name, atms(s).totalResults, atms(s).asset])).toEqual([
      ["lloyds", 2, "/sites/lloyds/std/v2.2/atms.json"],
      ["halifax", 1, "/sites/halifax/std/v2.2/atms.json"],
      ["bos", 1, "/sites/bos/std/v2.2/atms.json"],
      ["group", 4, "/sites/group/std/v2.2/atms.json"],
    ]);
    // Its documents name its host and its title.
    const openapi = parseJson(file("sites/lloyds/openapi.json"));
    expect(stringAt(openapi, "/servers/0/url")).toBe("https://api.lloyds.example");
    expect(stringAt(openapi, "/info/title")).toBe("Lloyds Bank: open banking open data");
    const store = parseJson(file("sites/halifax/participant_store.json"));
    expect(stringAt(store, "/data/0/baseUrl")).toBe("https://api.halifax.example/std");
    // Only the manifest is at the top: every other file is a site's.
    expect(result.files.filter((f) => !f.path.startsWith("sites/")).map((f) => f.path)).toEqual([
      "manifest.json",
    ]);
  });

  it("changes the ETag and LastUpdated of the edited brand's site and the group's only", async () => {
    repo = await scratchRepo();
    await repo.commit({ "site.yaml": SITES, ...BRANDS }, FIRST);
    const before = (await build()).sites!;
    await repo.commit(
      {
        "atms/halifax.yaml": atmBrandFile("Halifax", [
          { id: "HX-1", town: "Halifax", amount: 10 },
          { id: "HX-2", town: "Huddersfield", amount: 10 },
        ]),
      },
      SECOND,
    );
    const after = (await build()).sites!;
    const moved = after.map((site, i) => ({
      site: site.name,
      etag: atms(site).etag !== atms(before[i]!).etag,
      lastUpdated: atms(site).lastUpdated,
    }));
    expect(moved).toEqual([
      { site: "lloyds", etag: false, lastUpdated: "2026-10-01T00:00:00Z" },
      { site: "halifax", etag: true, lastUpdated: "2026-10-02T00:00:00Z" },
      { site: "bos", etag: false, lastUpdated: "2026-10-01T00:00:00Z" },
      { site: "group", etag: true, lastUpdated: "2026-10-02T00:00:00Z" },
    ]);
  });

  it("gives the publication guard each site's counts under its Name, in validate as in the build", async () => {
    repo = await scratchRepo();
    await repo.commit({ "site.yaml": SITES, ...BRANDS }, FIRST);
    const seen: PublishedCountsOf[] = [];
    const result = await runValidate({
      contentDir: repo.content,
      cwd: repo.root,
      cacheDir: false,
      lastCheck: (next) => {
        seen.push(next);
        return [];
      },
    });
    expect(result.ok).toBe(true);
    const atmsOf = (counts: PublishedCountsOf) =>
      counts.datasets.find((d) => d.dataset === "atms")?.totalResults;
    expect(
      seen.map((c) => [c.datasets, c.sites?.map((s) => [s.name, atmsOf(s.manifest)])]),
    ).toEqual([
      [
        [],
        [
          ["lloyds", 2],
          ["halifax", 1],
          ["bos", 1],
          ["group", 4],
        ],
      ],
    ]);
  });
});
