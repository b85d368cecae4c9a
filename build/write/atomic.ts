/**
 * Step 6, write: all or nothing. Every file goes into a fresh sibling folder first; only when all
 * of them are written does it take the place of the output folder, so a failed or interrupted
 * build leaves the previous output exactly as it was.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface OutputFile {
  /** Path inside the output folder, `/`-separated, no leading slash. */
  readonly path: string;
  readonly bytes: Uint8Array | string;
}

export async function writeAtomically(outDir: string, files: readonly OutputFile[]): Promise<void> {
  const parent = dirname(outDir);
  await mkdir(parent, { recursive: true });
  // Hidden siblings of the output folder (git-ignored as .dist-*), on the same file system so the
  // final renames are cheap and cannot fail half-way through a copy.
  const staging = await mkdtemp(join(parent, `.${basename(outDir)}-new-`));
  try {
    for (const file of files) {
      const target = join(staging, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.bytes);
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  const retired = `${staging.replace(/-new-/, "-old-")}`;
  let hadPrevious = true;
  try {
    await rename(outDir, retired);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    hadPrevious = false;
  }
  try {
    await rename(staging, outDir);
  } catch (error) {
    if (hadPrevious) await rename(retired, outDir);
    throw error;
  }
  if (hadPrevious) await rm(retired, { recursive: true, force: true });
}
