/**
 * The live preview's page in a real browser (Debian's Chromium via playwright-core), at a laptop's
 * width and a phone's: the page reloads itself when a rebuild is served; an invalid save's problem
 * comes into view wherever the reader had scrolled, and leaves once fixed; a data-quality warning
 * is listed with its file and line; the examples name the preview's own origin; nothing is wider
 * than a phone's screen; and there is no console error (a script the policy refused would be one)
 * and no request leaving the origin. Skipped, saying so, where no Chromium is installed
 * (test/helpers/chromium.ts).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startScratchPreview, type ScratchPreview } from "../helpers/preview.js";
import { haveChromium, launchChromium, screenshotForReview } from "../helpers/chromium.js";

// How long the page may take to follow a valid save: the rebuild, the Worker's reload and the
// next poll, on a loaded machine.
const FOLLOW_MS = 30_000;
// Issue 31: an invalid save puts its file:line in the viewport within 3 s. Counted here from the
// moment the preview serves the rebuild, so the bound is on the page (its poll, its reload, the
// problem in view) and holds on a loaded machine; the rebuild's own time is the benchmarks'.
const IN_VIEW_AFTER_SERVED_MS = 3_000;
// The widths of a laptop's screen and a phone's (issue 31).
const WIDTHS = [1366, 390] as const;
const HEIGHT = 800;

describe.skipIf(!haveChromium())("the live preview in Chromium", () => {
  let scratch: ScratchPreview;
  let browser: Browser;
  const pages = new Map<number, Page>();
  const consoleErrors: string[] = [];
  const elsewhere: string[] = [];
  let branches: string;
  let atms: string;
  let originalBranches: string;
  let originalAtms: string;

  beforeAll(async () => {
    // Both at once: neither needs the other until the pages are opened.
    [scratch, browser] = await Promise.all([startScratchPreview(), launchChromium()]);
    branches = join(scratch.content.content, "branches", "pennyfold-building-society.yaml");
    atms = join(scratch.content.content, "atms", "thistlecombe-bank", "north.yaml");
    originalBranches = await readFile(branches, "utf8");
    originalAtms = await readFile(atms, "utf8");
    for (const width of WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: HEIGHT } });
      page.on("console", (m) => {
        if (m.type() === "error") consoleErrors.push(`${width}: ${m.text()}`);
      });
      page.on("pageerror", (e) => consoleErrors.push(`${width}: ${String(e)}`));
      page.on("request", (r) => {
        const url = r.url();
        if (!url.startsWith("data:") && new URL(url).origin !== scratch.preview.url.origin) {
          elsewhere.push(url);
        }
      });
      await page.goto(scratch.preview.url.href, { waitUntil: "load" });
      pages.set(width, page);
    }
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await scratch?.dispose();
  });

  // A test that fails half-way leaves the content as the next one expects it: as it was.
  afterEach(async () => {
    for (const [file, original] of [
      [branches, originalBranches],
      [atms, originalAtms],
    ] as const) {
      if ((await readFile(file, "utf8")) === original) continue;
      const seen = scratch.rebuilds.length;
      await writeFile(file, original);
      await served(seen);
    }
    // The pages follow before the next test starts, so its first step meets no reload mid-way.
    await each(settled);
  });

  const each = async (check: (page: Page, width: number) => Promise<void>) => {
    for (const [width, page] of pages) await check(page, width);
  };
  const bytesOfBranches = (page: Page) =>
    page
      .locator('tr[data-path="/std/v2.2/branches"] td[data-bytes]')
      .first()
      .getAttribute("data-bytes");
  /** Scrolls far down the page, to the examples of the near-me paths, as a reader might be. */
  const scrollDown = (page: Page) =>
    page.evaluate('document.getElementById("near").scrollIntoView()');
  /** Whether the first element matching `selector` is wholly inside the viewport. */
  const inView = (page: Page, selector: string) =>
    page.evaluate(`(() => {
      const at = document.querySelector(${JSON.stringify(selector)});
      if (!at) return false;
      const box = at.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
    })()`);
  /** Waits until the preview has served a rebuild after the first `seen`; when it had. */
  const served = async (seen: number) => {
    await expect
      .poll(() => scratch.rebuilds.length, { timeout: FOLLOW_MS, interval: 10 })
      .toBeGreaterThan(seen);
    return Date.now();
  };
  /** Waits until `page` shows the version the preview serves now, whole (reloaded and loaded). */
  const settled = async (page: Page) => {
    const version = scratch.rebuilds.at(-1)?.version;
    await expect
      .poll(
        () =>
          page
            .evaluate(
              `document.readyState === "complete" && document.querySelector('meta[name="preview-version"]')?.content`,
            )
            .catch(() => undefined),
        { timeout: FOLLOW_MS, interval: 50 },
      )
      .toBe(version);
  };

  it("reloads itself with the new data after a valid save", async () => {
    const before = new Map<number, string | null>();
    await each(async (page, width) => void before.set(width, await bytesOfBranches(page)));
    const name = /^ {4}Name: "([^"]+)"$/m.exec(originalBranches)![1]!;
    await writeFile(
      branches,
      originalBranches.replace(`Name: "${name}"`, `Name: "${name} and Sons"`),
    );
    await each(async (page, width) => {
      // The page reloads itself: its table then shows the new body's size.
      await expect
        .poll(() => bytesOfBranches(page), { timeout: FOLLOW_MS, interval: 100 })
        .not.toBe(before.get(width));
    });
  }, 120_000);

  it("names the preview's own origin in the examples", async () => {
    await each(async (page) => {
      const example = await page.locator("pre").first().innerText();
      expect(example).toContain(`curl -si "${scratch.preview.url.origin}/std/v2.2/branches"`);
      expect(await page.locator("main").innerText()).not.toContain("$ORIGIN");
    });
  });

  it("shows an invalid save's file:line in view within 3 s of the rebuild being served, wherever the reader is, and drops it once fixed", async () => {
    await each(async (page) => {
      await scrollDown(page);
    });
    const scrolled = new Map<number, number>();
    await each(
      async (page, width) => void scrolled.set(width, Number(await page.evaluate("scrollY"))),
    );
    const seen = scratch.rebuilds.length;
    await writeFile(
      branches,
      originalBranches.replace('    Name: "Stainby Cross"', "    Name: 12"),
    );
    const servedAt = await served(seen);
    await each(async (page, width) => {
      await expect
        .poll(() => inView(page, "#problems .place"), {
          timeout: FOLLOW_MS,
          interval: 50,
        })
        .toBe(true);
      const tookMs = Date.now() - servedAt;
      expect({ width, tookMs, within: tookMs <= IN_VIEW_AFTER_SERVED_MS }).toMatchObject({
        width,
        within: true,
      });
      expect(await page.locator("#problems .place").first().innerText()).toBe(
        "content/branches/pennyfold-building-society.yaml:7:11",
      );
      // The reload kept the reader's place: the problem came to them.
      expect(Number(await page.evaluate("scrollY"))).toBe(scrolled.get(width));
      // The problem's long file name and pointer wrap: nothing is wider than the screen.
      expect(
        Number(await page.evaluate("document.documentElement.scrollWidth")),
      ).toBeLessThanOrEqual(width);
      await screenshotForReview(page, `preview-${width}-problem`);
    });

    await writeFile(branches, originalBranches);
    await each(async (page) => {
      await page.locator("#problems").waitFor({ state: "detached", timeout: FOLLOW_MS });
    });
  }, 120_000);

  it("lists a data-quality warning with its file and line, and the map says what it leaves out", async () => {
    const swapped = originalAtms.replace(
      'Latitude: "54.12372"\n            Longitude: "-1.73411"',
      'Latitude: "-1.73411"\n            Longitude: "54.12372"',
    );
    expect(swapped).not.toBe(originalAtms);
    await writeFile(atms, swapped);
    await each(async (page, width) => {
      await expect
        .poll(() => inView(page, "#warnings .place"), { timeout: FOLLOW_MS, interval: 50 })
        .toBe(true);
      expect(await page.locator("#warnings .place").first().innerText()).toBe(
        "content/atms/thistlecombe-bank/north.yaml:57:13",
      );
      expect(await page.locator("#warnings").innerText()).toContain("look swapped");
      expect(await page.locator("figcaption").innerText()).toContain(
        "1 ATM whose coordinates fall outside the map",
      );
      expect(
        Number(await page.evaluate("document.documentElement.scrollWidth")),
      ).toBeLessThanOrEqual(width);
      await screenshotForReview(page, `preview-${width}-warning`);
    });

    await writeFile(atms, originalAtms);
    await each(async (page) => {
      await page.locator("#warnings").waitFor({ state: "detached", timeout: FOLLOW_MS });
    });
  }, 120_000);

  it("has no console error and asks nothing of another origin", () => {
    expect(consoleErrors).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});
