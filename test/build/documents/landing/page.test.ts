/**
 * The landing page and its stylesheet as the build writes them: what the page shows, what it may
 * load, and that its time comes from the data, never from the build's clock.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Manifest } from "../../../../contract/manifest.js";
import {
  branchBrand,
  buildFixture,
  sampleFixture,
  type Fixture,
} from "../../../helpers/fixtures.js";
import { mapKey, type MapInput } from "../../../../build/documents/landing/page.js";
import { cachePerTest, sampleBuild } from "../../../helpers/sample-build.js";
import { SPEC_PATHS } from "../../../helpers/spec-values.js";

const LICENCE = "https://www.openbanking.org.uk/open-licence";
const TERMS = "https://www.openbanking.org.uk/terms";

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());
const cacheDir = cachePerTest();

/** The sample content with `files` laid over it, built through the test's copy of the run's cache. */
async function build(files: Record<string, string | null>) {
  fixture = await sampleFixture(files);
  const result = await buildFixture(fixture, { cacheDir: cacheDir() });
  const read = (name: string) => readFile(join(fixture.out, name), "utf8");
  return {
    result,
    page: result.ok ? await read("index.html") : "",
    manifest: result.ok ? (JSON.parse(await read("manifest.json")) as Manifest) : undefined,
  };
}

/** The sample content as the run built it once. */
async function sample() {
  const built = sampleBuild();
  return { page: await built.read("index.html"), manifest: await built.manifest() };
}

const site = (extra: string) => `License: "${LICENCE}"\nTermsOfUse: "${TERMS}"\n${extra}`;
const marks = (page: string) => page.match(/class="mark /g)?.length ?? 0;

describe("the landing page", () => {
  it("is listed in the manifest at / as UTF-8 HTML, with its stylesheet as CSS", async () => {
    const { manifest } = await sample();
    const byPath = new Map(manifest.documents.map((d) => [d.path, d.mediaType]));
    expect(byPath.get("/")).toBe("text/html; charset=utf-8");
    expect(byPath.get("/style.css")).toBe("text/css; charset=utf-8");
  });

  it("carries the newest data set's Last-Modified, not the build's clock", async () => {
    const { manifest } = await sample();
    for (const document of manifest.documents) {
      expect(document.lastModified).toBe("Mon, 21 Sep 2026 14:13:20 GMT");
      expect(document.lastModifiedMs).toBe(1_790_000_000_000);
    }
  });

  it("has no script, no inline style and no link or source on another origin but the licence and terms", async () => {
    const { page } = await sample();
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/\sstyle=/i);
    expect(page).not.toMatch(/<style/i);
    const targets = [...page.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);
    const outside = targets.filter(
      (t) => !t.startsWith("/") && !t.startsWith("#") && !t.startsWith("data:"),
    );
    expect(outside.sort()).toEqual([LICENCE, TERMS]);
    expect(targets).toContain("/openapi.json");
    expect(targets).toContain("/style.css");
  });

  it("names the publisher from site.yaml in the title and the heading", async () => {
    const { page } = await build({ "site.yaml": site('PublisherName: "Fernbrook Bank"\n') });
    expect(page).toContain("<h1>Fernbrook Bank</h1>");
    expect(page).toMatch(/<title>Fernbrook Bank[^<]*<\/title>/);
  });

  it("writes a publisher name with markup in it as text", async () => {
    const { page } = await build({
      "site.yaml": site('PublisherName: "Bank <b>&</b> Co"\n'),
    });
    expect(page).toContain("<h1>Bank &lt;b&gt;&amp;&lt;/b&gt; Co</h1>");
    expect(page).not.toContain("<b>");
  });

  it("falls back to a plain title when site.yaml names no publisher", async () => {
    const { page } = await build({ "site.yaml": site("") });
    expect(page).toContain("<h1>Open banking open data</h1>");
  });

  it("refuses an empty publisher name, at its line, in plain words", async () => {
    const { result } = await build({ "site.yaml": site('PublisherName: ""\n') });
    expect(result.ok).toBe(false);
    const problem = result.diagnostics.find((d) => d.pointer === "/PublisherName")!;
    expect(problem.file).toBe("content/site.yaml");
    expect(problem.line).toBe(3);
  });

  it("draws a mark for a located branch and none for a branch without coordinates", async () => {
    const before = marks((await sample()).page);
    const unlocated = marks(
      (await build({ "branches/zed-bank.yaml": branchBrand("Zed Bank", ["Z1", "Z2"]) })).page,
    );
    expect(unlocated).toBe(before);
    await fixture.cleanup();
    const located = branchBrand("Zed Bank", ["Z1"]).replace(
      "      PostCode: ZZ1 1ZZ",
      [
        "      PostCode: ZZ1 1ZZ",
        "      GeoLocation:",
        "        GeographicCoordinates:",
        '          Latitude: "55.95"',
        '          Longitude: "-3.19"',
      ].join("\n"),
    );
    const { page } = await build({ "branches/zed-bank.yaml": located });
    expect(marks(page)).toBe(before + 1);
    expect(page).toContain("Zed Bank");
  });

  it("shows each data set's row with the manifest's numbers", async () => {
    const { page, manifest } = await sample();
    expect(manifest.datasets.map((d) => d.path).sort()).toEqual(Object.values(SPEC_PATHS).sort());
    for (const entry of manifest.datasets) {
      const row = page.match(new RegExp(`<tr data-path="${entry.path}">(.*?)</tr>`))?.[1] ?? "";
      expect(row).toContain(`data-field="records">${entry.totalResults}</td>`);
      expect(row).toContain(`data-bytes="${entry.variants.identity.length}"`);
      expect(row).toContain(`<time datetime="2026-09-21T14:13:20Z">`);
    }
  });
});

/** A branch brand file with one branch at `latitude`, `longitude` (decimal strings, as the spec writes them). */
const locatedBranch = (brand: string, id: string, latitude: string, longitude: string) =>
  branchBrand(brand, [id]).replace(
    "      PostCode: ZZ1 1ZZ",
    [
      "      PostCode: ZZ1 1ZZ",
      "      GeoLocation:",
      "        GeographicCoordinates:",
      `          Latitude: "${latitude}"`,
      `          Longitude: "${longitude}"`,
    ].join("\n"),
  );

/** The legend's entries: brand and kind to the colour class of its swatch. */
function legend(page: string): Map<string, string> {
  const list = /<ul class="legend">(.*?)<\/ul>/s.exec(page)?.[1] ?? "";
  return new Map(
    [...list.matchAll(/<li><svg[^>]*><\w+ class="(brand-\d+)"[^>]*\/><\/svg>([^<]*)<\/li>/g)].map(
      (m) => [m[2]!, m[1]!],
    ),
  );
}

const caption = (page: string) => /<figcaption>(.*?)<\/figcaption>/s.exec(page)?.[1] ?? "";
const marksOf = (page: string, kind: string) =>
  page.match(new RegExp(`class="mark [^"]*" data-kind="${kind}"`, "g"))?.length ?? 0;

describe("the map", () => {
  it("keeps each brand's colour when a brand is added that is published before them", async () => {
    const before = legend((await sample()).page);
    expect(before.get("Thistlecombe Bank: branches")).toBeDefined();
    expect(before.get("Pennyfold Building Society: branches")).toBeDefined();
    const { page } = await build({
      "branches/aardvark-bank.yaml": locatedBranch("Aardvark Bank", "AA-1", "55.95", "-3.19"),
    });
    const after = legend(page);
    // The new brand comes first, where a colour by position would have moved every other one.
    expect([...after.keys()][0]).toBe("Aardvark Bank: branches");
    for (const [entry, colour] of before) expect(after.get(entry)).toBe(colour);
  });

  it("lists in the legend only the kinds a brand has marks of", async () => {
    const { page } = await build({
      "branches/aardvark-bank.yaml": locatedBranch("Aardvark Bank", "AA-1", "55.95", "-3.19"),
    });
    const entries = [...legend(page).keys()];
    expect(entries).toContain("Aardvark Bank: branches");
    expect(entries).not.toContain("Aardvark Bank: ATMs");
    expect(entries).toContain("Thistlecombe Bank: ATMs");
  });

  it("counts in its caption the records drawn out of those the data sets table lists, and why the rest are not", async () => {
    const { page, manifest } = await sample();
    const total = (path: string) => manifest.datasets.find((d) => d.path === path)!.totalResults;
    // The sample: 6 branches and 7 ATMs published (the data sets table), 5 of each with coordinates.
    expect([total("/std/v2.2/branches"), total("/std/v2.2/atms")]).toEqual([6, 7]);
    expect([marksOf(page, "Branches"), marksOf(page, "ATMs")]).toEqual([5, 5]);
    expect(caption(page)).toContain(
      "Marks for 5 of the 6 branches and 5 of the 7 ATMs, of 2 brands. Not drawn: 1 branch and 2 ATMs without coordinates.",
    );
  });

  it("says all when every record is drawn, and says nothing of a data set with no records", async () => {
    const two = locatedBranch("Aardvark Bank", "AA-1", "55.95", "-3.19").replace(
      "Branch:\n",
      `Branch:\n${locatedBranch("Aardvark Bank", "AA-2", "51.45", "-2.59").split("Branch:\n")[1]}`,
    );
    const { page } = await build({
      "branches/pennyfold-building-society.yaml": null,
      "branches/thistlecombe-bank": null,
      "atms/pennyfold-building-society.yaml": null,
      "atms/thistlecombe-bank": null,
      "branches/aardvark-bank.yaml": two,
    });
    expect(marksOf(page, "Branches")).toBe(2);
    expect(caption(page)).toMatch(/^Marks for all 2 branches, of 1 brand\. Circles/);
  });

  it("does not draw an ATM whose latitude and longitude are swapped, says so in its caption, and the build warns where", async () => {
    const file = "atms/thistlecombe-bank/north.yaml";
    const original = await readFile(join(sampleBuild().content, file), "utf8");
    const swapped = original.replace(
      'Latitude: "54.12372"\n            Longitude: "-1.73411"',
      'Latitude: "-1.73411"\n            Longitude: "54.12372"',
    );
    expect(swapped).not.toBe(original);
    const { page, result } = await build({ [file]: swapped });
    expect([marksOf(page, "Branches"), marksOf(page, "ATMs")]).toEqual([5, 4]);
    expect(caption(page)).toContain(
      "Marks for 5 of the 6 branches and 4 of the 7 ATMs, of 2 brands. Not drawn: 1 branch and 2 ATMs without coordinates; 1 ATM whose coordinates fall outside the map.",
    );
    const warning = result.quality.warnings.find((w) => w.rule === "coordinates-swapped");
    expect(warning).toMatchObject({ file: `content/${file}`, line: 57 });
  });

  it("names each mark in its title and links it to an item giving the same name", async () => {
    const { page } = await sample();
    const links = [
      ...page.matchAll(/<a href="#([^"]+)"[^>]*><title>([^<]*)<\/title><(?:circle|rect)/g),
    ];
    expect(links).toHaveLength(10);
    const titles = links.map((m) => m[2]!);
    // A branch by its Name, an ATM by its Location's Site name, each with its Identification.
    expect(titles).toContain("Wexbury Market Place (Thistlecombe Bank branch TB-WEX-01)");
    expect(titles).toContain("Pellingford station (Thistlecombe Bank ATM TB-ATM-PEL-2)");
    for (const [, id, title] of links) {
      const item = new RegExp(`<li id="${id}">(?:<strong>([^<]*)</strong> )?([^<]*)</li>`).exec(
        page,
      );
      expect(item).not.toBeNull();
      expect(item![1] === undefined ? item![2] : `${item![1]} (${item![2]})`).toBe(title);
    }
  });
});

describe("the examples", () => {
  it("write the deployment's origin from site.yaml's PublicOrigin, in double quotes", async () => {
    const origin = "https://opendata.fernbrook.example";
    const { page } = await build({ "site.yaml": site(`PublicOrigin: "${origin}"\n`) });
    expect(page).toContain(`curl -si "<span class="origin">${origin}</span>/std/v2.2/branches"`);
    expect(page).toMatch(
      new RegExp(`curl -si "<span class="origin">${origin}</span>/x-std/v2\\.2/atms/geo-location/`),
    );
    expect(page).not.toContain("$ORIGIN");
    expect(page).not.toContain("this host");
  });

  it("without PublicOrigin, read $ORIGIN, each block first stopping with a message until it is set", async () => {
    const { page } = await sample();
    expect(page).not.toContain("this host");
    const blocks = [...page.matchAll(/<pre><code>(.*?)<\/code><\/pre>/gs)].map((m) => m[1]!);
    const using = blocks.filter((b) => b.includes("$ORIGIN"));
    // How to fetch, polling, near a point and changes.
    expect(using).toHaveLength(4);
    for (const block of using) {
      expect(block).toMatch(/^<span class="origin-note">: "\$\{ORIGIN:\?[^}]+\}"\n<\/span>/);
    }
    expect(page).toContain('curl -si "<span class="origin">$ORIGIN</span>/std/v2.2/branches"');
  });
});

describe("the map's cache key", () => {
  const outline = { scale: 2, translate: [1, 2] as const, uk: "M0,0Z", ireland: "M1,1Z" };
  const place = (identification: string, latitude: number) => ({
    kind: "ATMs",
    record: "ATM",
    brand: "Aardvark Bank",
    latitude,
    longitude: -1.5,
    identification,
  });
  const input = (located: MapInput["located"]) =>
    ({
      outline,
      datasets: [{ dataset: { title: "ATMs", recordsKey: "ATM" }, entry: { totalResults: 3 } }],
      located,
    }) as unknown as MapInput;

  it("is the text of everything the map is drawn from, part by part, and changes with any located record", () => {
    const a = place("A-1", 54.1);
    const b = place("A-2", 54.2);
    const key = mapKey(input([a, b]));
    expect(key).toEqual([
      '{"scale":2,"translate":[1,2],"uk":"M0,0Z","ireland":"M1,1Z"}',
      '[["ATMs","ATM",3]]',
      '{"kind":"ATMs","record":"ATM","brand":"Aardvark Bank","latitude":54.1,"longitude":-1.5,"identification":"A-1"}',
      '{"kind":"ATMs","record":"ATM","brand":"Aardvark Bank","latitude":54.2,"longitude":-1.5,"identification":"A-2"}',
    ]);
    expect(mapKey(input([a, b]))).toEqual(key);
    expect(mapKey(input([a, place("A-2", 54.3)]))).not.toEqual(key);
    expect(mapKey(input([b, a]))).not.toEqual(key);
  });
});
