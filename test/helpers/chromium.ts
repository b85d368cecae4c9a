/**
 * The browser the browser tests drive: Debian's Chromium (.ci/run installs it) through
 * playwright-core, or the Chromium-based browser CHROMIUM_PATH names (the Google Chrome of
 * GitHub's runners, .github/workflows). Without it the browser tests skip, saying so loudly; under
 * CI (CI=true) a missing browser fails instead.
 */
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { PROJECT_ROOT } from "../../build/core/paths.js";

/** Where the browser tests' screenshots go (git-ignored with the rest of .out/). */
export const SCREENSHOTS = join(PROJECT_ROOT, ".out", "screenshots");

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
// The flags that work on these machines (platform notes, "Browser tests here"): no sandbox as
// root, and no background traffic to outside hosts.
const CHROMIUM_FLAGS = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Whether the browser is installed; warns loudly when it is not, and throws under CI. */
export function haveChromium(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === "true") {
    throw new Error(
      `${CHROMIUM} is missing under CI: .ci/run installs Debian's chromium; elsewhere set CHROMIUM_PATH`,
    );
  }
  console.warn(
    `\n*** SKIPPING the browser tests: ${CHROMIUM} is not installed. ` +
      `Install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH) to run them. ***\n`,
  );
  return false;
}

/** Starts the browser headless, with the flags above. */
export async function launchChromium(): Promise<Browser> {
  // Its CommonJS entry, not the ESM wrapper: importing that runs Node's export lexer over the
  // CommonJS it wraps (about 0.15 s of CPU per process).
  const { chromium } = createRequire(import.meta.url)(
    "playwright-core",
  ) as typeof import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
    chromiumSandbox: false,
    timeout: 30_000,
  });
}

/**
 * Writes a screenshot of `page` to .out/screenshots/`name`.png for a person to look at, only when
 * SCREENSHOTS is set (`SCREENSHOTS=1 npx vitest run test/browser`): each costs a paint and an
 * encode, and no test reads them. The landing page's own (landing.png, docs/consumers.md) is
 * always written and checked by its test.
 */
export async function screenshotForReview(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (!process.env.SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), ...options });
}

/** What a page did, as watchPage records it from the moment it is called. */
export interface PageRecord {
  /** Console errors and uncaught exceptions. */
  readonly consoleErrors: string[];
  /** Requests that failed, and answers of 400 or more, each with its URL. */
  readonly failed: string[];
  /** Every URL the page asked for. */
  readonly requested: string[];
}

/** Records the console errors, failed requests and requests of `page` from now on. */
export function watchPage(page: Page): PageRecord {
  const record: PageRecord = { consoleErrors: [], failed: [], requested: [] };
  page.on("console", (m) => {
    if (m.type() === "error") record.consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => record.consoleErrors.push(String(e)));
  page.on("requestfailed", (r) => record.failed.push(`${r.url()} ${r.failure()?.errorText}`));
  page.on("request", (r) => record.requested.push(r.url()));
  page.on("response", (r) => {
    if (r.status() >= 400) record.failed.push(`${r.url()} ${r.status()}`);
  });
  return record;
}
