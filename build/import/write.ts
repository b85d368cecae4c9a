/**
 * Puts imported brands into the content folder. Existing content is safe: a brand that already
 * has a file or folder in the data set is refused unless forced, and the check covers every brand
 * of the run before the first byte is written. Each brand is written to a hidden temporary name in
 * the data set's folder and renamed into place, so a reader (or a failed run) sees the old brand
 * or the new one, not half of either; the build's file search skips hidden names.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { DatasetDefinition } from "../core/datasets.js";
import { displayPath } from "../core/paths.js";
import { ImportError } from "./errors.js";

/** Files and folders a brand `slug` may already occupy in a data set's folder. */
function candidates(slug: string): string[] {
  return [`${slug}.yaml`, `${slug}.yml`, slug];
}

export interface BrandWrite {
  readonly dataset: DatasetDefinition;
  readonly brandName: string;
  readonly slug: string;
  readonly folder: boolean;
  /** Records written (brand objects for service metrics). */
  readonly records: number;
  /** Path under the data set's folder → text. */
  readonly files: ReadonlyMap<string, string>;
}

/** What each brand already has in its data set's folder (absolute paths). */
async function existingContent(contentDir: string, write: BrandWrite): Promise<string[]> {
  const dir = join(contentDir, write.dataset.contentDir);
  const found: string[] = [];
  for (const name of candidates(write.slug)) {
    if (await stat(join(dir, name)).catch(() => undefined)) found.push(join(dir, name));
  }
  return found;
}

/**
 * Refuses, before anything is written, when a brand of the run already has content and `force`
 * is not set, naming every such place.
 */
export async function refuseExisting(
  contentDir: string,
  cwd: string,
  writes: readonly BrandWrite[],
  force: boolean,
): Promise<void> {
  if (force) return;
  const clashes: string[] = [];
  for (const write of writes) {
    for (const path of await existingContent(contentDir, write)) {
      clashes.push(`${displayPath(cwd, path)} (brand ${JSON.stringify(write.brandName)})`);
    }
  }
  if (clashes.length > 0) {
    throw new ImportError(
      `these brands already have content: ${clashes.join(", ")}. Nothing was written. ` +
        `Run again with --force to replace exactly these, or move them away first`,
    );
  }
}

/** Writes one brand in place of whatever it had; returns the absolute paths of the files written. */
export async function writeBrand(contentDir: string, write: BrandWrite): Promise<string[]> {
  const dir = join(contentDir, write.dataset.contentDir);
  await mkdir(dir, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const staged = join(dir, `.import-${write.slug}-${tag}`);
  const target = join(dir, write.folder ? write.slug : `${write.slug}.yaml`);
  try {
    if (write.folder) {
      for (const [path, text] of write.files) {
        const file = join(staged, ...path.split("/").slice(1));
        await mkdir(join(file, ".."), { recursive: true });
        await writeFile(file, text);
      }
    } else {
      await writeFile(staged, [...write.files.values()][0]!);
    }
    // Old content moves aside first, so it can be put back if the swap fails.
    const old = await existingContent(contentDir, write);
    const aside = old.map((path, i) => [path, join(dir, `.replaced-${write.slug}-${tag}-${i}`)]);
    for (const [from, to] of aside) await rename(from!, to!);
    try {
      await rename(staged, target);
    } catch (error) {
      for (const [from, to] of aside) await rename(to!, from!).catch(() => {});
      throw error;
    }
    for (const [, to] of aside) await rm(to!, { recursive: true, force: true });
  } catch (error) {
    await rm(staged, { recursive: true, force: true });
    throw new ImportError(
      `could not write ${write.dataset.contentDir}/${write.slug}: ${(error as Error).message}`,
    );
  }
  return [...write.files.keys()].map((path) => join(dir, ...path.split("/")));
}
