/**
 * The API reference (/reference) in a real browser: Debian's Chromium driven by playwright-core,
 * against the real Worker on loopback, under the policy the Worker sends with it. At a phone's
 * width and a laptop's: no request but its own and its stylesheet, no console error (a refused
 * script, style or load is one), nothing wider than the screen, and no violation axe-core finds
 * of WCAG 2.2 A and AA.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startWorker, type RunningWorker } from "../helpers/worker.js";
import {
  haveChromium,
  launchChromium,
  screenshotForReview,
  watchPage,
} from "../helpers/chromium.js";

// axe-core's own bundle, put into the page through the DevTools protocol: the page's policy
// allows no script, and a script tag would be refused (and logged) like any other.
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);
// The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA, by axe-core's tags.
const WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: { readonly target: string[] }[];
}

describe.skipIf(!haveChromium())("the API reference in Chromium", () => {
  let worker: RunningWorker;
  let browser: Browser;

  beforeAll(async () => {
    [worker, browser] = await Promise.all([startWorker(), launchChromium()]);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.dispose();
  });

  describe.each([390, 1366])("at %i px wide", (width) => {
    let page: Page;
    let consoleErrors: string[] = [];
    let failed: string[] = [];
    let requested: string[] = [];

    beforeAll(async () => {
      page = await browser.newPage({ viewport: { width, height: 900 } });
      ({ consoleErrors, failed, requested } = watchPage(page));
      const response = await page.goto(new URL("/reference", worker.base).href, {
        waitUntil: "load",
      });
      // The policy the browser enforced is the one the site sends with every document.
      expect(response?.headers()["content-security-policy"]).toBe(
        "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
    }, 60_000);

    afterAll(async () => {
      await page?.close();
    });

    it("loads its stylesheet and nothing else, from its own origin, with no console error", () => {
      expect(consoleErrors).toEqual([]);
      expect(failed).toEqual([]);
      const fetched = requested.filter((url) => !url.startsWith("data:"));
      expect(fetched.map((url) => new URL(url).origin)).toEqual([
        worker.base.origin,
        worker.base.origin,
      ]);
      expect(fetched.map((url) => new URL(url).pathname)).toEqual(["/reference", "/style.css"]);
    });

    it("is styled by its stylesheet and runs no script", async () => {
      expect(await page.locator("script").count()).toBe(0);
      // The method badges' colour comes from /style.css alone: unstyled, a span is not white.
      const colour = await page
        .locator(".operation .method")
        .first()
        .evaluate(
          // Typed here: the test project has no DOM types.
          (e: unknown) =>
            (
              globalThis as unknown as {
                getComputedStyle(e: unknown): { color: string };
              }
            ).getComputedStyle(e).color,
        );
      expect(colour).toBe("rgb(255, 255, 255)");
    });

    it("is no wider than the screen", async () => {
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
        width,
      );
    });

    it("has no violation of WCAG 2.2 A or AA that axe-core finds", async () => {
      await page.evaluate(AXE_SOURCE);
      const violations = await page.evaluate<AxeViolation[]>(
        `axe.run(document, { runOnly: { type: "tag", values: ${JSON.stringify(WCAG_22_AA)} } })
          .then((r) => r.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })),
          })))`,
      );
      expect(violations).toEqual([]);
      await screenshotForReview(page, `reference-${width}`);
    }, 120_000);
  });

  it("is linked from the landing page", async () => {
    const page = await browser.newPage();
    try {
      await page.goto(new URL("/", worker.base).href, { waitUntil: "load" });
      await page.locator('a[href="/reference"]').first().click();
      await page.waitForURL(new URL("/reference", worker.base).href);
      expect(await page.locator("h1").textContent()).toBe("API reference");
    } finally {
      await page.close();
    }
  });
});
