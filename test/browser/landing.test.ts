/**
 * The landing page in a real browser: Debian's Chromium driven by playwright-core, against the
 * real Worker on loopback. Skipped, loudly, on a machine without /usr/bin/chromium; under CI
 * (CI=true) a missing browser fails instead, since .ci/run installs it and the workflows point
 * CHROMIUM_PATH at their runner's Chrome.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { ManifestEntry } from "../../contract/manifest.js";
import { DIST_DIR } from "../../build/core/paths.js";
import { startWorker, type RunningWorker } from "../helpers/worker.js";
import {
  haveChromium,
  launchChromium,
  SCREENSHOTS,
  screenshotForReview,
  watchPage,
} from "../helpers/chromium.js";
import { SPEC_PATHS } from "../helpers/spec-values.js";
import { arrayAt, find, parseEnvelope, parseJson, type Json } from "../helpers/json.js";

// Where the spec puts a located record's coordinates, per data set path (open-data-api-v2.2.md:
// a branch's PostalAddress, an ATM's Location.PostalAddress, each with GeoLocation).
const LOCATIONS: Record<string, { records: string; kind: string; at: (r: Json) => unknown }> = {
  "/std/v2.2/branches": {
    records: "Branch",
    kind: "Branches",
    at: (r) => find(r, "/PostalAddress/GeoLocation/GeographicCoordinates"),
  },
  "/std/v2.2/atms": {
    records: "ATM",
    kind: "ATMs",
    at: (r) => find(r, "/Location/PostalAddress/GeoLocation/GeographicCoordinates"),
  },
};

/** A box in viewport coordinates, as getBoundingClientRect gives it. */
interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** What a tapped mark's name shows, where it is, and where the page is scrolled to. */
interface Shown extends Box {
  readonly where: string[];
  readonly whole: string | null;
  readonly scrollY: number;
}

function locatedCount(entry: ManifestEntry): number {
  const where = LOCATIONS[entry.path]!;
  const body = parseEnvelope(readFileSync(join(DIST_DIR, entry.variants.identity.asset)));
  return body.data
    .flatMap((d) => d.Brand)
    .flatMap((b) => arrayAt(b, `/${where.records}`))
    .filter((r) => where.at(r) !== undefined).length;
}

describe.skipIf(!haveChromium())("the landing page in Chromium", () => {
  let worker: RunningWorker;
  let browser: Browser;
  let otherOrigin: Server;
  let page: Page;
  let consoleErrors: string[] = [];
  let failed: string[] = [];
  let requested: string[] = [];

  beforeAll(async () => {
    // Both at once: neither needs the other until the page is opened.
    [worker, browser] = await Promise.all([startWorker(), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    ({ consoleErrors, failed, requested } = watchPage(page));
    await page.goto(new URL("/", worker.base).href, { waitUntil: "load" });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (otherOrigin ? otherOrigin.close(resolve) : resolve(null)));
    await worker?.dispose();
  });

  it("loads with no console error, no failed request and no request leaving the origin", () => {
    expect(consoleErrors).toEqual([]);
    expect(failed).toEqual([]);
    const elsewhere = requested.filter(
      (url) => !url.startsWith("data:") && new URL(url).origin !== worker.base.origin,
    );
    expect(elsewhere).toEqual([]);
    // The page and its stylesheet, nothing else.
    expect(
      requested.filter((url) => !url.startsWith("data:")).map((u) => new URL(u).pathname),
    ).toEqual(["/", "/style.css"]);
  });

  it("runs no script at all", async () => {
    expect(await page.locator("script").count()).toBe(0);
  });

  it("shows each data set's numbers exactly as the manifest has them", async () => {
    expect(worker.manifest.datasets.map((d) => d.path).sort()).toEqual(
      Object.values(SPEC_PATHS).sort(),
    );
    for (const entry of worker.manifest.datasets) {
      const row = page.locator(`tr[data-path="${entry.path}"]`);
      const cells = (await row.locator("td").allInnerTexts()).map((t) => t.trim());
      const number = (text: string) => Number(text.replace(/,/g, ""));
      // Columns: API, Path, Brands, Records, LastUpdated, Bytes, Brotli, Gzip.
      expect(cells[1]).toContain(entry.path);
      expect(number(cells[2]!)).toBe(entry.brands);
      expect(number(cells[3]!)).toBe(entry.totalResults);
      expect(cells[4]).toBe(entry.lastUpdated);
      expect(number(cells[5]!)).toBe(entry.variants.identity.length);
      expect(number(cells[6]!)).toBe(entry.variants.br!.length);
      expect(number(cells[7]!)).toBe(entry.variants.gzip!.length);
    }
  });

  it("draws one mark per located branch and ATM", async () => {
    let total = 0;
    let kinds = 0;
    for (const entry of worker.manifest.datasets) {
      const where = LOCATIONS[entry.path];
      if (!where) continue;
      kinds++;
      const expected = locatedCount(entry);
      expect(expected).toBeGreaterThan(0);
      total += expected;
      expect(await page.locator(`svg.map .mark[data-kind="${where.kind}"]`).count()).toBe(expected);
    }
    expect(kinds).toBe(Object.keys(LOCATIONS).length);
    expect(await page.locator("svg.map .mark").count()).toBe(total);
  });

  it("gives the map a text alternative and the page its headings", async () => {
    const label = await page.locator("svg.map").getAttribute("aria-labelledby");
    expect(await page.locator(`#${label}`).textContent()).toMatch(
      /Marks for \d+ of the \d+ branches and \d+ of the \d+ ATMs/,
    );
    expect(await page.locator("h1").count()).toBe(1);
    expect(await page.locator("h2").count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator("th[scope=col]").count()).toBeGreaterThan(0);
  });

  it("links to /openapi.json and to the licence and terms", async () => {
    const hrefs = await page
      .locator("a")
      // Typed here: the test project has no DOM types, so playwright's Element is unresolved.
      .evaluateAll((as: { getAttribute(name: string): string | null }[]) =>
        as.map((a) => a.getAttribute("href")),
      );
    expect(hrefs).toContain("/openapi.json");
    expect(hrefs).toContain("https://www.openbanking.org.uk/open-licence");
    expect(hrefs).toContain("https://www.openbanking.org.uk/terms");
  });

  it("shows the same table with JavaScript switched off", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const noScript = await context.newPage();
      await noScript.goto(new URL("/", worker.base).href);
      expect(await noScript.locator("tbody tr[data-path]").count()).toBe(
        worker.manifest.datasets.length,
      );
      expect(await noScript.locator("svg.map .mark").count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  it("lets a page on another loopback origin fetch a data path conditionally and read ETag and RateLimit", async () => {
    const dataUrl = new URL("/std/v2.2/atms", worker.base).href;
    // A page whose script fetches the data path twice: once for its ETag, then with
    // If-None-Match, which makes the browser send a CORS preflight first.
    const html = `<!doctype html><title>other origin</title><pre id="out">pending</pre><script>
      (async () => {
        const out = document.getElementById("out");
        try {
          const first = await fetch(${JSON.stringify(dataUrl)}, { cache: "no-store" });
          await first.arrayBuffer();
          const etag = first.headers.get("ETag");
          const again = await fetch(${JSON.stringify(dataUrl)}, {
            cache: "no-store",
            headers: { "If-None-Match": etag },
          });
          out.textContent = JSON.stringify({
            first: first.status,
            etag,
            status: again.status,
            againEtag: again.headers.get("ETag"),
            rateLimit: again.headers.get("RateLimit"),
            policy: again.headers.get("RateLimit-Policy"),
          });
        } catch (error) {
          out.textContent = "error: " + error;
        }
      })();
    </script>`;
    otherOrigin = createServer((_, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(html);
    });
    await new Promise<void>((resolve) => otherOrigin.listen(0, "127.0.0.1", resolve));
    const port = (otherOrigin.address() as AddressInfo).port;
    expect(port).not.toBe(Number(worker.base.port));
    const other = await browser.newPage();
    try {
      await other.goto(`http://127.0.0.1:${port}/`);
      await other.waitForFunction(
        'document.getElementById("out").textContent !== "pending"',
        undefined,
        { timeout: 15_000 },
      );
      const text = (await other.locator("#out").textContent()) ?? "";
      const result = parseJson(text.startsWith("error") ? "{}" : text);
      const atms = worker.manifest.datasets.find((d) => d.path === "/std/v2.2/atms")!;
      const etags = Object.values(atms.variants).map((v) => v.etag);
      expect({
        text: text.slice(0, 40),
        first: find(result, "/first"),
        status: find(result, "/status"),
      }).toEqual({
        text: text.slice(0, 40),
        first: 200,
        status: 304,
      });
      expect(etags).toContain(find(result, "/etag"));
      expect(find(result, "/againEtag")).toBe(find(result, "/etag"));
      expect(find(result, "/rateLimit")).toMatch(/^"open-data";r=\d+;t=\d+$/);
      expect(find(result, "/policy")).toMatch(/^"open-data";q=\d+;w=60$/);
    } finally {
      await other.close();
    }
  });

  // At 1280 px, before the widths below resize the page.
  it("writes a screenshot for review", async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = join(SCREENSHOTS, "landing.png");
    await page.screenshot({ path: file, fullPage: true });
    expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG");
  });

  describe.each([1366, 390])("at %i px wide", (width) => {
    // The same page, resized and loaded afresh (no name left shown from a tap at another width).
    let narrow: Page;
    beforeAll(async () => {
      narrow = page;
      await narrow.setViewportSize({ width, height: 800 });
      await narrow.goto(new URL("/", worker.base).href, { waitUntil: "load" });
    });

    it("is no wider than the screen", async () => {
      const scrollWidth = await narrow.evaluate("document.documentElement.scrollWidth");
      expect(scrollWidth).toBeLessThanOrEqual(width);
    });

    it("shows every mark: no two marks cover each other", async () => {
      // Every mark's box in one call (viewport coordinates, as boundingBox gives them).
      const boxes = await narrow.evaluate<Box[]>(
        `[...document.querySelectorAll("svg.map .mark")].map((m) => {
          const b = m.getBoundingClientRect();
          return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
        })`,
      );
      expect(boxes.length).toBeGreaterThan(0);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!, boxes[j]!];
          const overlapX = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const overlapY = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          expect({ i, j, covered: overlapX > 0 && overlapY > 0 }).toEqual({ i, j, covered: false });
        }
      }
    });

    it("names a mark on hover (its title), shows the name when it is tapped without moving the page, and hides it on ×", async () => {
      await narrow.locator("svg.map").scrollIntoViewIfNeeded();
      const links = narrow.locator("svg.map .marks a");
      // Each link's target and title in one call, not two round trips per mark.
      const marks = await narrow.evaluate<{ href: string; title: string }[]>(
        `[...document.querySelectorAll("svg.map .marks a")].map((a) => ({
          href: a.getAttribute("href"),
          title: a.querySelector("title")?.textContent ?? "",
        }))`,
      );
      expect(marks.length).toBeGreaterThan(0);
      for (const [i, { href, title }] of marks.entries()) {
        expect(title.length).toBeGreaterThan(0);
        const scrolled = Number(await narrow.evaluate("scrollY"));
        await links.nth(i).click();
        const name = narrow.locator(href);
        await name.waitFor({ state: "visible", timeout: 5_000 });
        // What the tapped name shows and where, and where the page is, read in one call.
        const shown = await narrow.evaluate<Shown>(`(() => {
          const name = document.querySelector(${JSON.stringify(href)});
          const box = name.getBoundingClientRect();
          return {
            where: [...name.querySelectorAll("strong")].map((s) => s.textContent),
            whole: name.textContent,
            top: box.top,
            bottom: box.bottom,
            right: box.right,
            scrollY,
          };
        })()`);
        // "Where (whose)": the name's two lines are the title's two parts.
        const whole = (shown.whole ?? "").trim();
        const what = shown.where.length ? whole.slice(shown.where[0]!.length).trim() : whole;
        expect(shown.where.length ? `${shown.where[0]} (${what})` : what).toBe(title);
        // In view, and the page stayed where the reader had it.
        expect(shown.top).toBeGreaterThanOrEqual(0);
        expect(shown.bottom).toBeLessThanOrEqual(800);
        expect(shown.right).toBeLessThanOrEqual(width);
        expect(shown.scrollY).toBe(scrolled);
      }
      await narrow.locator(".mark-names .hide-name").click();
      await expect
        .poll(() => narrow.locator(".mark-names li:visible").count(), { timeout: 5_000 })
        .toBe(0);
      await screenshotForReview(narrow, `landing-${width}`, { fullPage: true });
    });
  });
});
