/**
 * Reading content files through what the last build saw of them (build/read/texts.ts): a file
 * unchanged since a build read it, long enough after it was written, is known by its text's hash
 * without being read; any change to it, or a write too close to that read, makes it read again.
 */
import { mkdtemp, rm, utimes, writeFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BuildCache } from "../../../build/core/cache.js";
import { ContentTexts, textHash } from "../../../build/read/texts.js";

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
});

async function folder(): Promise<{ file: { path: string; display: string }; cache: BuildCache }> {
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-texts-"));
  folders.push(root);
  const path = join(root, "a.yaml");
  return { file: { path, display: "a.yaml" }, cache: new BuildCache(join(root, "cache"), "f") };
}

/** One build's reading of `file`: what it gave, the index then saved. */
async function build(cache: BuildCache | undefined, file: { path: string; display: string }) {
  const texts = await ContentTexts.open(cache);
  const read = await texts.read(file);
  await texts.save();
  return read;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("reading content files through the last build's index", () => {
  it("knows a file unchanged since a build read it, more than 2 s after its last write, by its hash alone", async () => {
    const { file, cache } = await folder();
    await writeFile(file.path, "BrandName: A\n");
    await wait(2_100);
    expect(await build(cache, file)).toEqual({
      hash: textHash("BrandName: A\n"),
      text: "BrandName: A\n",
    });
    expect(await build(cache, file)).toEqual({ hash: textHash("BrandName: A\n"), text: undefined });
  });

  it("reads again a file changed at the same size with its modification time put back", async () => {
    const { file, cache } = await folder();
    await writeFile(file.path, "BrandName: A\n");
    await wait(2_100);
    const before = await stat(file.path);
    await build(cache, file);
    await writeFile(file.path, "BrandName: B\n");
    await utimes(file.path, before.atime, before.mtime);
    expect(await build(cache, file)).toEqual({
      hash: textHash("BrandName: B\n"),
      text: "BrandName: B\n",
    });
  });

  it("reads again a file written less than 2 s before the build that read it", async () => {
    const { file, cache } = await folder();
    await writeFile(file.path, "BrandName: A\n");
    await build(cache, file);
    expect((await build(cache, file)).text).toBe("BrandName: A\n");
  });

  it("reads every file without a cache", async () => {
    const { file } = await folder();
    await writeFile(file.path, "BrandName: A\n");
    await wait(2_100);
    await build(undefined, file);
    expect((await build(undefined, file)).text).toBe("BrandName: A\n");
  });
});
