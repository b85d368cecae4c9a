/**
 * Reading content files through what the last build saw of them (build/read/texts.ts): a file
 * unchanged since a build read it, long enough after it was written, is known by its text's hash
 * without being read; any change to it, or a write too close to that read, makes it read again.
 */
import { mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuildCache } from "../../../build/core/cache.js";
import { ContentTexts, textHash } from "../../../build/read/texts.js";

interface Case {
  readonly file: { readonly path: string; readonly display: string };
  readonly cache: BuildCache;
}

let root: string;
/** Files written once, read by builds whose clock says 2 s have passed, each with a cache of its own. */
const settled: Record<"unchanged" | "restored" | "uncached", Case> = {} as never;

function caseIn(name: string): Case {
  const path = join(root, `${name}.yaml`);
  return { file: { path, display: `${name}.yaml` }, cache: new BuildCache(join(root, name), "f") };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "opendata-edge-texts-"));
  for (const name of ["unchanged", "restored", "uncached"] as const) {
    settled[name] = caseIn(name);
    await writeFile(settled[name].file.path, "BrandName: A\n");
    // A whole second, which utimes can put back exactly (a Date holds only milliseconds).
    const second = Math.floor(Date.now() / 1000) - 10;
    await utimes(settled[name].file.path, second, second);
  }
});

/**
 * The clock of a build that reads the settled files: 2.1 s ahead of the wall clock, past the 2 s
 * within which a write is not trusted, as if the test had waited that long after writing them.
 */
const later = () => Date.now() + 2_100;
afterAll(() => rm(root, { recursive: true, force: true }));

/** One build's reading of `file`: what it gave, the index then saved. */
async function build(cache: BuildCache | undefined, file: Case["file"], now = later) {
  const texts = await ContentTexts.open(cache, now);
  const read = await texts.read(file);
  await texts.save();
  return read;
}

describe("reading content files through the last build's index", () => {
  it("knows a file unchanged since a build read it, more than 2 s after its last write, by its hash alone", async () => {
    const { file, cache } = settled.unchanged;
    expect(await build(cache, file)).toEqual({
      hash: textHash("BrandName: A\n"),
      text: "BrandName: A\n",
    });
    expect(await build(cache, file)).toEqual({ hash: textHash("BrandName: A\n"), text: undefined });
  });

  it("reads again a file changed at the same size with its modification time put back", async () => {
    const { file, cache } = settled.restored;
    const before = await stat(file.path);
    await build(cache, file);
    // Past one tick of the kernel's coarse file-system clock (a few ms), so the write below
    // moves ctime: the one time no tool can put back, which is what this case is about.
    await sleep(20);
    await writeFile(file.path, "BrandName: B\n");
    await utimes(file.path, before.atime, before.mtime);
    const after = await stat(file.path);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    expect(after.ctimeMs).not.toBe(before.ctimeMs);
    expect(await build(cache, file)).toEqual({
      hash: textHash("BrandName: B\n"),
      text: "BrandName: B\n",
    });
  });

  it("reads again a file written less than 2 s before the build that read it", async () => {
    const { file, cache } = caseIn("fresh");
    await writeFile(file.path, "BrandName: A\n");
    // The wall clock: the build reads the file within milliseconds of its write.
    await build(cache, file, Date.now);
    expect((await build(cache, file, Date.now)).text).toBe("BrandName: A\n");
  });

  it("reads every file without a cache", async () => {
    const { file } = settled.uncached;
    await build(undefined, file);
    expect((await build(undefined, file)).text).toBe("BrandName: A\n");
  });
});
