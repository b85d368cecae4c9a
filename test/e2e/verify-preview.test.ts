/**
 * `npm run verify` against the live preview, as docs/operations.md#checking-a-deployment says to
 * run it: the preview (npm start's code path, test/helpers/preview.ts) on loopback, compared with
 * the output folder it writes each good build to. Every path is the same, its own landing page
 * included, and exits 0; compared with the manifest of a build it no longer serves (after an
 * edit), the data set and the page differ all the same.
 */
import { access, copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyInProcess as verify } from "../helpers/cli.js";
import { startScratchPreview, type ScratchPreview } from "../helpers/preview.js";

process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

let scratch: ScratchPreview;
let manifest: string;

beforeAll(async () => {
  scratch = await startScratchPreview();
  manifest = join(scratch.outDir, "manifest.json");
  // The preview writes its first good build to its output folder after serving it: wait for it,
  // at most 200 times 50 ms apart.
  for (let i = 0; i < 200; i++) {
    if (
      await access(manifest).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the preview wrote no ${manifest}`);
}, 120_000);

afterAll(async () => {
  await scratch?.dispose();
});

describe("verify against the live preview", () => {
  it("finds every path the same as the build the preview wrote, its own landing page included, and exits 0", async () => {
    const run = await verify([scratch.preview.url.href, "--manifest", manifest, "--wait", "0"]);
    expect(run.lines.slice(0, -1).filter((line) => !line.startsWith("same "))).toEqual([]);
    expect(run.lines).toContain(
      "same         /  (document, the preview's own, made from the build's)",
    );
    expect(run.lines).toContain("same         /std/v2.2/atms  (data set atms)");
    expect(run.lines.at(-1)).toMatch(
      /^verify: all \d+ paths at http:\/\/127\.0\.0\.1:\d+ are the same as /,
    );
    expect(run.stderr).toEqual([
      `verify: ${scratch.preview.url.origin} is the live preview: / compared with what it serves in place of the build's`,
    ]);
    expect(run.code).toBe(0);
  });

  it("still names the data set and the page that differ from a build the preview no longer serves, and exits 1", async () => {
    const before = join(scratch.outDir, "..", "manifest-before.json");
    await copyFile(manifest, before);
    const file = join(scratch.content.content, "atms", "pennyfold-building-society.yaml");
    const atms = await readFile(file, "utf8");
    expect(atms).toContain('MinimumPossibleAmount: "10.00"');
    const rebuilt = scratch.rebuilds.length;
    await writeFile(
      file,
      atms.replace('MinimumPossibleAmount: "10.00"', 'MinimumPossibleAmount: "20.00"'),
    );
    // The edit is served once its rebuild is reported (onRebuilt), at most 200 times 50 ms apart.
    for (let i = 0; i < 200 && scratch.rebuilds.length === rebuilt; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(scratch.rebuilds.slice(rebuilt).map((r) => r.published)).toContain(true);
    const run = await verify([scratch.preview.url.href, "--manifest", before, "--wait", "0"]);
    const notSame = run.lines.slice(0, -1).filter((line) => !line.startsWith("same "));
    expect(notSame.map((line) => line.split(/\s+/).slice(0, 2))).toEqual([
      ["different", "/std/v2.2/atms"],
      // The preview's page is now made from another build's page: compared with this one's.
      ["different", "/"],
      ["different", "/reference"],
      ["different", "/x-std/v2.2/atms/country/GB"],
    ]);
    expect(run.code).toBe(1);
  });
});
