/**
 * How fresh an answer is, told once: docs/consumers.md and the landing page say the same words
 * (build/documents/freshness.ts), with the max-age the deployment serves; site.yaml's
 * CacheMaxAgeSeconds sets the data sets' max-age, checked at its line like any other content.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../build/core/diagnostics.js";
import { PROJECT_ROOT } from "../../../build/core/paths.js";
import { freshnessParagraphs, inWords } from "../../../build/documents/freshness.js";
import type { Manifest } from "../../../contract/manifest.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { cachePerTest, sampleBuild } from "../../helpers/sample-build.js";

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());
const cacheDir = cachePerTest();

const oneLine = (text: string) => text.replace(/\s+/g, " ");
// A page's text as a reader sees it: no tags, entities read.
const pageText = (html: string) =>
  oneLine(
    html
      .replace(/<[^>]+>/g, "")
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&"),
  );
const asRead = (paragraph: string) => paragraph.replaceAll("**", "").replaceAll("`", "");

describe("one story of freshness", () => {
  it("is told word for word by docs/consumers.md, with the specs' 28800 and the changes' 60", async () => {
    const consumers = oneLine(await readFile(join(PROJECT_ROOT, "docs", "consumers.md"), "utf8"));
    const paragraphs = freshnessParagraphs();
    expect(paragraphs).toHaveLength(3);
    for (const paragraph of paragraphs) expect(consumers).toContain(paragraph);
    expect(paragraphs[0]).toContain("`Cache-Control: max-age=28800` (8 hours");
    expect(paragraphs[0]).toContain("`Cache-Control: max-age=60` (1 minute)");
    expect(paragraphs[1]).toContain('`fetch(url, { cache: "no-cache" })`');
  });

  it("is told by the landing page the sample builds", async () => {
    const page = pageText(await sampleBuild().read("index.html"));
    for (const paragraph of freshnessParagraphs()) expect(page).toContain(asRead(paragraph));
  });

  it.each([
    [28800, "8 hours"],
    [3600, "1 hour"],
    [600, "10 minutes"],
    [60, "1 minute"],
    [90, "90 seconds"],
    [0, "0 seconds"],
  ])("says %i seconds as %s", (seconds, words) => {
    expect(inWords(seconds)).toBe(words);
  });
});

describe("CacheMaxAgeSeconds in site.yaml", () => {
  async function builtWith(line: string) {
    const site = await readFile(join(PROJECT_ROOT, "content", "site.yaml"), "utf8");
    fixture = await sampleFixture({ "site.yaml": `${site}${line}\n` });
    return buildFixture(fixture, { cacheDir: cacheDir() });
  }

  it("sets the manifest's max-age, and the landing page and /openapi.json say it", async () => {
    const result = await builtWith("CacheMaxAgeSeconds: 600");
    expect(result.diagnostics).toEqual([]);
    const read = (path: string) => readFile(join(fixture.out, path), "utf8");
    const manifest = JSON.parse(await read("manifest.json")) as Manifest;
    expect(manifest.cacheMaxAge).toBe(600);
    const page = pageText(await read("index.html"));
    expect(page).toContain("carry Cache-Control: max-age=600 (10 minutes)");
    expect(page).toContain("Cache-Control: max-age=60 (1 minute)");
    const openapi = JSON.parse(await read("openapi.json")) as {
      components: { headers: Record<string, { schema: { example?: string } }> };
    };
    expect(openapi.components.headers["Cache-Control"]?.schema.example).toBe("max-age=600");
  });

  it.each([
    ["a negative number", "-1", /must be >= 0/],
    ["a fraction", "1.5", /must be a whole number \(found 1\.5\)/],
    ["words", "eight hours", /must be a whole number \(found "eight hours"\)/],
    ["more than a year", "31536001", /must be <= 31536000/],
  ])("refuses %s at its line", async (_name, value, message) => {
    const result = await builtWith(`CacheMaxAgeSeconds: ${value}`);
    const problems = result.diagnostics.map(formatDiagnostic);
    expect(problems).toHaveLength(1);
    // The sample's site.yaml has 12 lines: the setting is the 13th, its value at column 21.
    expect(problems[0]).toMatch(/^content\/site\.yaml:13:21: \/CacheMaxAgeSeconds: /);
    expect(problems[0], problems[0]).toMatch(message);
  });
});
