/**
 * The run's check of the project's build cache (project-cache.ts): it finds what a test leaves
 * there, and nothing in what the project's own builds write, so an `npm start` saving beside the
 * tests never fails them.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";
import { testMarks } from "./project-cache.js";

// A module's hash as build/core/cache.ts makes it: SHA-256 over the text and a NUL.
const hashOf = (file: string) =>
  createHash("sha256").update(readFileSync(file, "utf8")).update("\0").digest("hex");
const MODULES = ["build/pipeline.ts", "build/core/cache.ts", "build/read/texts.ts"];

let dir: string;
let scratch: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cache-"));
  scratch = await mkdtemp(join(tmpdir(), "scratch-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

const texts = (paths: string[]) =>
  writeFile(join(dir, "content-texts.json"), JSON.stringify(paths.map((p) => [p, { size: 1 }])));
const fingerprint = (hash: (module: string) => string) =>
  writeFile(
    join(dir, "fingerprint.json"),
    JSON.stringify({ code: Object.fromEntries(MODULES.map((m) => [m, hash(m)])) }),
  );

describe("a test's marks in the project's build cache", () => {
  it("are files read from the run's scratch folder", async () => {
    const site = join(scratch, "fixture/content/site.yaml");
    await texts([site, join(scratch, "b.yaml")]);
    expect(await testMarks(scratch, dir)).toEqual([
      `content-texts.json lists 2 files of the tests' fixtures (${site})`,
    ]);
  });

  it("are a fingerprint of the TypeScript sources, as code under vitest makes it", async () => {
    await fingerprint((m) => hashOf(join(PROJECT_ROOT, m)));
    expect(await testMarks(scratch, dir)).toEqual([
      "fingerprint.json was written by code loaded as TypeScript, as the tests load it",
    ]);
  });

  it("are not what the compiled CLIs write for the project's own content", async () => {
    await texts([join(PROJECT_ROOT, "content/site.yaml")]);
    await fingerprint((m) => hashOf(join(PROJECT_ROOT, ".out", m.replace(/\.ts$/, ".js"))));
    expect(await testMarks(scratch, dir)).toEqual([]);
  });

  it("are not files of a project that lives in the scratch folder itself", async () => {
    // A checkout under TMPDIR (a CI clone in /tmp) reads its own content from there.
    expect(await testMarks(PROJECT_ROOT, dir)).toEqual([]);
    await texts([join(PROJECT_ROOT, "content/site.yaml")]);
    expect(await testMarks(join(PROJECT_ROOT, ".."), dir)).toEqual([]);
  });
});
