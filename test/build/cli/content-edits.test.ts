/**
 * The edits issue 51 reported crashing `npm run build` with exit 2 and a stack trace ("the API
 * reference has no example of /x-std/v2.2/atms/changes"), each on the sample in a scratch git
 * repository, run in this process as the CLI runs it: each now builds (exit 0, every document
 * made) or names its problem at its file and line (exit 1). And a fault that is not the content's
 * is one line naming where the build was, exit 2. test/build/integrity.test.ts generates edits
 * like these at random.
 */
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Manifest } from "../../../contract/manifest.js";
import { buildCommand, type Run } from "../../helpers/cli.js";
import { gitScript, SAMPLE_SECONDS, sampleRepo } from "../../helpers/sample-repo.js";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** A scratch repository holding the sample, committed at SAMPLE_SECONDS. */
async function repo(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-edits-"));
  folders.push(root);
  await sampleRepo(root);
  return root;
}

const build = (root: string, command = "build"): Promise<Run> =>
  buildCommand([command, "--content", "content", "--out", "dist", "--no-cache", "--threads", "1"], {
    cwd: root,
  });

const manifest = async (root: string) =>
  JSON.parse(await readFile(join(root, "dist", "manifest.json"), "utf8")) as Manifest;
const atms = (m: Manifest) => m.datasets.find((d) => d.dataset === "atms")!;
const reference = (root: string) => readFile(join(root, "dist", "reference.html"), "utf8");

// The request the reference shows for the ATMs' changes path, and the token it asks since.
const changesExample = (html: string) =>
  /\/x-std\/v2\.2\/atms\/changes\?since=([0-9A-Za-z:-]+)/.exec(html)?.[1];

const at = (seconds: number) => new Date(seconds * 1000);
const rfc3339 = (seconds: number) =>
  at(seconds)
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z");

describe("edits that crashed the build", () => {
  it("a brand's ATM folder removed in the work tree builds, dated by the removal, and the reference asks since the commit", async () => {
    const root = await repo();
    await gitScript(root, "git rm -rq content/atms/thistlecombe-bank");
    // The removal's time is its folder's: content/atms, which the removal changed.
    const removed = SAMPLE_SECONDS + 3600;
    await utimes(join(root, "content", "atms"), at(removed), at(removed));
    const run = await build(root);
    expect(run.stderr).not.toMatch(/build failed|internal error/);
    expect(run.code).toBe(0);
    const entry = atms(await manifest(root));
    expect(entry.brands).toBe(1);
    expect(entry.lastUpdated).toBe(rfc3339(removed));
    expect(changesExample(await reference(root))).toBe(rfc3339(SAMPLE_SECONDS));
  });

  it("every ATM file removed, committed or not, builds an ATM data set of no records", async () => {
    const root = await repo();
    await gitScript(root, "git rm -rq content/atms");
    const uncommitted = await build(root);
    expect(uncommitted.code).toBe(0);
    expect(atms(await manifest(root)).totalResults).toBe(0);
    await gitScript(root, "git commit -qm 'no ATMs'", SAMPLE_SECONDS + 60);
    const committed = await build(root);
    expect(committed.code).toBe(0);
    const entry = atms(await manifest(root));
    expect([entry.totalResults, entry.lastUpdated]).toEqual([0, rfc3339(SAMPLE_SECONDS + 60)]);
    // Since the sample's version: every ATM of it removed.
    expect(changesExample(await reference(root))).toBe(rfc3339(SAMPLE_SECONDS));
  });

  it("every data set removed in the work tree builds every data set empty, with every document", async () => {
    const root = await repo();
    await gitScript(root, "git rm -rq content && git checkout -q HEAD -- content/site.yaml");
    const run = await build(root);
    expect(run.stderr).not.toMatch(/build failed|internal error/);
    expect(run.code).toBe(0);
    const m = await manifest(root);
    expect(m.datasets.map((d) => d.totalResults)).toEqual(m.datasets.map(() => 0));
    expect(m.documents.map((d) => d.path)).toEqual(
      expect.arrayContaining(["/", "/openapi.json", "/reference", "/x-std/changes.atom"]),
    );
    expect(changesExample(await reference(root))).toBe(rfc3339(SAMPLE_SECONDS));
    expect(await validateCode(root)).toBe(0);
  });

  it("a data set emptied in a commit, one brand back in the work tree in the same second, builds; the reference asks by ETag", async () => {
    const root = await repo();
    const emptied = SAMPLE_SECONDS + 60;
    await gitScript(root, "git rm -rq content/atms && git commit -qm 'no ATMs'", emptied);
    await gitScript(root, "git checkout -q HEAD~1 -- content/atms/pennyfold-building-society.yaml");
    // Saved in the second of the commit: the two versions share that LastUpdated.
    const back = join(root, "content", "atms", "pennyfold-building-society.yaml");
    await utimes(back, at(emptied), at(emptied));
    const run = await build(root);
    expect(run.stderr).not.toMatch(/build failed|internal error/);
    expect(run.code).toBe(0);
    const entry = atms(await manifest(root));
    expect([entry.brands, entry.lastUpdated]).toEqual([1, rfc3339(emptied)]);
    // That LastUpdated names neither version: the example asks since the commit by its ETag.
    expect(changesExample(await reference(root))).toMatch(/^[0-9a-f]{64}$/);
  });

  it("an edit after a commit dated ahead of the clock builds, dated no earlier than that commit", async () => {
    const root = await repo();
    const ahead = 4_102_444_800; // 2100-01-01
    const file = join(root, "content", "atms", "pennyfold-building-society.yaml");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace(/Identification: "([^"]*)"/, 'Identification: "$1A"'));
    await gitScript(root, "git commit -qam 'ahead'", ahead);
    await writeFile(file, text.replace(/Identification: "([^"]*)"/, 'Identification: "$1B"'));
    const run = await build(root);
    expect(run.stderr).not.toMatch(/build failed|internal error/);
    expect(run.code).toBe(0);
    expect(atms(await manifest(root)).lastUpdated).toBe(rfc3339(ahead));
    expect(changesExample(await reference(root))).toMatch(/^[0-9a-f]{64}$/);
  });

  it("Sites naming a brand the content no longer has is exit 1 at its line in site.yaml", async () => {
    const root = await repo();
    const site = join(root, "content", "site.yaml");
    const sites = [
      "Sites:",
      "  - Name: pennyfold",
      "    Host: pennyfold.example",
      '    Brands: ["Pennyfold Building Society"]',
      "  - Name: group",
      "    Host: group.example",
      "",
    ];
    const text = await readFile(site, "utf8");
    await writeFile(site, text + sites.join("\n"));
    await gitScript(
      root,
      "git commit -qam sites && git rm -q content/*/pennyfold-building-society.yaml",
    );
    const line = text.split("\n").length + 3;
    for (const command of ["build", "validate"]) {
      const run = await build(root, command);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `content/site.yaml:${line}:14: /Sites/0/Brands/0: no brand of the content has the BrandName "Pennyfold Building Society"`,
      );
    }
  });
});

describe("edits the property test found crashing the build", () => {
  it("a file name that is not UTF-8 is exit 1 at that file, asking to rename it", async () => {
    const root = await repo();
    const folder = join(root, "content", "atms");
    const name = Buffer.concat([
      Buffer.from(`${folder}/bad`),
      Buffer.from([0xff]),
      Buffer.from(".yaml"),
    ]);
    await writeFile(name, "BrandName: x\n");
    for (const command of ["build", "validate"]) {
      const run = await build(root, command);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        "content/atms/bad\uFFFD.yaml:1:1: /: its name is not UTF-8 text, so the build cannot open it; rename it with letters, digits and hyphens",
      );
    }
  });

  it("a data set's folder committed as a file, then every data set removed, builds with no branches", async () => {
    const root = await repo();
    await gitScript(root, "git rm -rq content/branches && echo 'BrandName: x' > content/branches");
    await gitScript(root, "git add -A && git commit -qm 'branches a file'", SAMPLE_SECONDS + 60);
    await gitScript(root, "git rm -rq content && git checkout -q HEAD -- content/site.yaml");
    const run = await build(root);
    expect(run.stderr).not.toMatch(/build failed|internal error/);
    expect(run.code).toBe(0);
    const branches = (await manifest(root)).datasets.find((d) => d.dataset === "branches")!;
    expect(branches.totalResults).toBe(0);
  });
});

async function validateCode(root: string): Promise<number> {
  return (await build(root, "validate")).code;
}

describe("a fault that is not the content's", () => {
  it("is one line naming the step and folder it was in, exit 2, with dist/ not written", async () => {
    const root = await repo();
    // The output folder's place is taken by a file: writing it fails, whatever the content.
    await writeFile(join(root, "dist"), "not a folder");
    const run = await build(root);
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split("\n");
    const said = lines.filter((l) => l.startsWith("build failed:"));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^build failed: internal error in step 10 \(write\) of dist: .+ \(not a problem of the content; --verbose prints its stack\)\. dist\/ is unchanged\.$/,
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(await readFile(join(root, "dist"), "utf8")).toBe("not a folder");
  });
});
