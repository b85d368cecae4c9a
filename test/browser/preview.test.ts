/**
 * The live preview's page in a real browser (Debian's Chromium via playwright-core): the page
 * reloads itself when a rebuild is served, shows an invalid save's problems at the top and drops
 * them once fixed, with no console error (a script the policy refused would be one) and no request
 * leaving the origin. Skipped, saying so, where no Chromium is installed (test/helpers/chromium.ts).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startScratchPreview, type ScratchPreview } from "../helpers/preview.js";
import { haveChromium, launchChromium } from "../helpers/chromium.js";

// How long the page may take to follow a save: the rebuild, the Worker's reload and the next poll.
const FOLLOW_MS = 30_000;

describe.skipIf(!haveChromium())("the live preview in Chromium", () => {
  let scratch: ScratchPreview;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  const elsewhere: string[] = [];
  let file: string;
  let original: string;

  beforeAll(async () => {
    scratch = await startScratchPreview();
    file = join(scratch.content.content, "branches", "pennyfold-building-society.yaml");
    original = await readFile(file, "utf8");
    browser = await launchChromium();
    page = await browser.newPage();
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    page.on("request", (r) => {
      const url = r.url();
      if (!url.startsWith("data:") && new URL(url).origin !== scratch.preview.url.origin) {
        elsewhere.push(url);
      }
    });
    await page.goto(scratch.preview.url.href, { waitUntil: "load" });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await scratch?.dispose();
  });

  const bytesOfBranches = () =>
    page
      .locator('tr[data-path="/std/v2.2/branches"] td[data-bytes]')
      .first()
      .getAttribute("data-bytes");

  it("reloads itself with the new data, shows an invalid save's problems, and drops them once fixed", async () => {
    const before = await bytesOfBranches();
    const name = /^ {4}Name: "([^"]+)"$/m.exec(original)![1]!;

    await writeFile(file, original.replace(`Name: "${name}"`, `Name: "${name} and Sons"`));
    // The page reloads itself: its table then shows the new body's size.
    await expect.poll(bytesOfBranches, { timeout: FOLLOW_MS, interval: 100 }).not.toBe(before);

    await writeFile(file, original.replace(`    Name: "${name}"`, "    Name: 12"));
    const panel = page.locator("section.problems");
    await panel.waitFor({ state: "visible", timeout: FOLLOW_MS });
    expect(await panel.innerText()).toContain("content/branches/pennyfold-building-society.yaml:");
    // The panel is the first thing in the page.
    expect(await page.locator("body > *").first().getAttribute("class")).toBe("problems");

    await writeFile(file, original);
    await panel.waitFor({ state: "detached", timeout: FOLLOW_MS });
    expect(await bytesOfBranches()).toBe(before);

    expect(consoleErrors).toEqual([]);
    expect(elsewhere).toEqual([]);
  }, 120_000);
});
