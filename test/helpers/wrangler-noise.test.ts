import { describe, expect, it } from "vitest";
import { isTeardownRebuildNoise, wranglerNoiseFilter } from "./wrangler-noise.js";

const ESC = "\u001b";
const red = (text: string) => `${ESC}[31m${text}${ESC}[39m`;
/** wrangler's report of one esbuild error, coloured as the terminal gets it. */
function buildFailure(...errors: string[]): string {
  const count = errors.length === 1 ? "1 error" : `${errors.length} errors`;
  const lines = errors.map(
    (e) =>
      `  ${red("✘")} ${ESC}[41;31m[${ESC}[41;97mERROR${ESC}[41;31m]${ESC}[0m ${ESC}[1m${e}${ESC}[0m\n  \n  \n`,
  );
  return `${red("✘")} ${ESC}[41;31m[${ESC}[41;97mERROR${ESC}[41;31m]${ESC}[0m ${ESC}[1mBuild failed with ${count}:${ESC}[0m\n\n${lines.join("\n")}\n`;
}
const LOADER =
  'Could not resolve "/tmp/ci/main/.wrangler/tmp/bundle-vUBd9K/middleware-loader.entry.ts"';

describe("the wrangler message the tests drop", () => {
  it("is the failed rebuild of a bundle's own middleware loader after its folder went", () => {
    expect(isTeardownRebuildNoise(buildFailure(LOADER))).toBe(true);
  });

  it("is not a build that cannot resolve one of the Worker's own imports", () => {
    const own = 'Could not resolve "../contract/manifest.js"';
    expect(isTeardownRebuildNoise(buildFailure(own))).toBe(false);
  });

  it("is not a failure with another error beside the loader's", () => {
    const other = 'Could not resolve "./near/answer.js"';
    expect(isTeardownRebuildNoise(buildFailure(LOADER, other))).toBe(false);
  });

  it("is not a loader missing from a folder outside .wrangler/tmp", () => {
    const elsewhere = 'Could not resolve "/work/app/worker/middleware-loader.entry.ts"';
    expect(isTeardownRebuildNoise(buildFailure(elsewhere))).toBe(false);
  });

  it("is not any other line", () => {
    expect(isTeardownRebuildNoise("rate-limit-key-missing")).toBe(false);
  });
});

describe("the pointer to wrangler's log file", () => {
  const POINTER = '\u{1FAB5}  Logs were written to "/root/.config/.wrangler/logs/wrangler-x.log"';

  it("is dropped when the only error wrangler printed was the teardown's rebuild", () => {
    const shown = wranglerNoiseFilter();
    expect(shown(buildFailure(LOADER))).toBe(false);
    expect(shown("a test's own line")).toBe(true);
    expect(shown(POINTER)).toBe(false);
  });

  it("is shown once wrangler has printed any other error, with that error", () => {
    const shown = wranglerNoiseFilter();
    const other = buildFailure('Could not resolve "./near/answer.js"');
    expect(shown(other)).toBe(true);
    expect(shown(POINTER)).toBe(true);
  });
});
