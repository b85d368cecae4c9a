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
    const outside = targets.filter((t) => !t.startsWith("/") && !t.startsWith("data:"));
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
      expect(row).toContain(`<td class="num" data-field="records">${entry.totalResults}</td>`);
      expect(row).toContain(`data-bytes="${entry.variants.identity.length}"`);
      expect(row).toContain(`<time datetime="2026-09-21T14:13:20Z">`);
    }
  });
});
