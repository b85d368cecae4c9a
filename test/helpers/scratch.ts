/**
 * Where the tests' scratch folders go. They write many (fixtures, built outputs, caches, git
 * repositories, browser profiles) and remove them again; on a disk mounted with online discard
 * (ext4 `discard`, as this project's CI machine is) each removal waits for the device, so where
 * the machine has a memory file system (/dev/shm on Linux) the run puts them in a folder of its
 * own there, which took a tenth off vitest's wall time and a quarter off its system time
 * (bench/results/2026-11-27-precompiled-validators-and-the-previews-rebuild.md, "The suite"). A TMPDIR set by whoever runs the tests is left as it is.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

// The variable naming the run's own folder, so the teardown removes that and nothing else.
const SCRATCH_VARIABLE = "OPENDATA_EDGE_TEST_SCRATCH";
const MEMORY_FILE_SYSTEM = "/dev/shm";

/**
 * Points TMPDIR at a new folder on the memory file system when there is one and TMPDIR is unset;
 * test workers and the processes they start inherit it. Called once, from vitest.config.ts.
 */
export function useMemoryScratch(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TMPDIR || env[SCRATCH_VARIABLE] || process.platform !== "linux") return undefined;
  if (!statSync(MEMORY_FILE_SYSTEM, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  let folder: string;
  try {
    folder = mkdtempSync(join(MEMORY_FILE_SYSTEM, "opendata-edge-test-"));
  } catch {
    return undefined;
  }
  env.TMPDIR = folder;
  env[SCRATCH_VARIABLE] = folder;
  return folder;
}

/** Removes the run's scratch folder, if useMemoryScratch made one (the global teardown). */
export function removeMemoryScratch(env: NodeJS.ProcessEnv = process.env): void {
  const folder = env[SCRATCH_VARIABLE];
  if (folder) rmSync(folder, { recursive: true, force: true });
}
