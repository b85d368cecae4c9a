/**
 * The sample content as the run built it once (global-setup.ts): cold, into an empty cache, with
 * FIXTURE_EPOCH, like buildFixture. Tests read these folders and never change them; a test that
 * needs an edit builds a fixture of its own, from a copy of the run's cache (`warmCache`).
 */
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, inject } from "vitest";
import { MANIFEST_FILE, type Manifest } from "../../contract/manifest.js";

/** `plain`: the sample content as it is; `live`: with `OpenBankingPaths: true` in site.yaml. */
export type SampleVariant = "plain" | "live";

interface SampleFolders {
  /** The folder holding content/ and dist/, which printed paths are relative to. */
  readonly root: string;
  readonly content: string;
  /** The output: the `dist` link to the generation written. */
  readonly out: string;
}

/** What global-setup.ts hands the tests. */
export interface SampleRun {
  /** The run's temporary folder, removed when the run ends. */
  readonly folder: string;
  /** The cache the sample builds filled; copied, never written to. */
  readonly cache: string;
  readonly builds: Readonly<Record<SampleVariant, SampleFolders>>;
}

declare module "vitest" {
  export interface ProvidedContext {
    sampleRun: SampleRun;
  }
}

export interface SampleBuild extends SampleFolders {
  /** Reads a file of the output, as text. */
  read(path: string): Promise<string>;
  /** The output's manifest.json. */
  manifest(): Promise<Manifest>;
}

/** The sample content built once for the run; read it, never change it. */
export function sampleBuild(variant: SampleVariant = "plain"): SampleBuild {
  const folders = inject("sampleRun").builds[variant];
  const read = (path: string) => readFile(join(folders.out, path), "utf8");
  return {
    ...folders,
    read,
    manifest: async () => JSON.parse(await read(MANIFEST_FILE)) as Manifest,
  };
}

/**
 * A copy of the cache the run's sample builds filled, for the caller's builds alone (test files
 * that run at the same time never share a cache). A build that writes prunes what it did not use,
 * so a copy shared by several tests holds less of the sample after each: see cachePerTest.
 */
export async function warmCache(): Promise<string> {
  const run = inject("sampleRun");
  const copy = await mkdtemp(join(run.folder, "cache-"));
  await cp(run.cache, copy, { recursive: true });
  return copy;
}

/**
 * A fresh copy of the run's cache for each test of the calling file or describe block (made
 * before the test, removed after it); call the function returned inside a test for its folder.
 */
export function cachePerTest(): () => string {
  let folder: string | undefined;
  beforeEach(async () => {
    folder = await warmCache();
  });
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
    folder = undefined;
  });
  return () => {
    if (!folder) throw new Error("cachePerTest: call the function inside a test");
    return folder;
  };
}
