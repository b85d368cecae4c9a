/**
 * Step 9, write: all or nothing, and never a moment without output. Every build writes into a
 * fresh generation folder beside the output folder; only when all of its files are written does
 * the output path, a symbolic link, switch to it with one rename. A reader therefore sees the old
 * generation or the new one, whole, at every instant, and a failed or interrupted build leaves the
 * previous output exactly as it was.
 */
import {
  link as hardLink,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readlink,
  rename,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { mapLimit } from "../core/map-limit.js";

export interface OutputFile {
  /** Path inside the output folder, `/`-separated, no leading slash. */
  readonly path: string;
  readonly bytes: Uint8Array | string;
  /**
   * The path names these bytes (a hash of them is in the name): when the generation before holds
   * the same path, the file is linked from there rather than written again (build/history/'s
   * change answers, hundreds of files that a build whose history has not moved leaves as they were).
   */
  readonly reuse?: boolean;
}

export interface WriteOptions {
  /**
   * Link the files marked `reuse` from the generation before when it holds them. Every build
   * does, the live preview's too (which serves from memory, not from this folder). A Worker
   * reloaded on each new generation by wrangler's local asset server once served stale bytes from
   * such links: never point one at these folders while they are written.
   */
  readonly linkUnchanged?: boolean;
}

// Files written at a time: enough to keep the disk busy, few enough for any file-handle limit.
const WRITES_AT_ONCE = 16;

/** What a write left behind. */
export interface WrittenOutput {
  /** The generation folder the output path now points to (absolute, no link in it). */
  readonly generation: string;
}

/**
 * Writes `files` as the new content of `outDir`. `outDir` becomes (or stays) a symbolic link to a
 * hidden sibling generation folder (`.dist-gen-*`, git-ignored as `.dist-*`). The generation the
 * link pointed to before is kept until the next write, so a reader that resolved the link a moment
 * ago (a Worker still serving it, a copy half-way through) can finish; older ones are removed.
 * One write at a time per output folder.
 */
export async function writeAtomically(
  outDir: string,
  files: readonly OutputFile[],
  options: WriteOptions = {},
): Promise<WrittenOutput> {
  const parent = dirname(resolve(outDir));
  const name = basename(outDir);
  await mkdir(parent, { recursive: true });
  // On the same file system as the link, so nothing is copied and the switch is one rename.
  const generation = await mkdtemp(join(parent, `.${name}-gen-`));
  const previous = await currentTarget(outDir);
  const before =
    previous === "none" ? undefined : previous === "folder" ? outDir : join(parent, previous);
  try {
    for (const folder of new Set(files.map((f) => dirname(join(generation, f.path))))) {
      await mkdir(folder, { recursive: true });
    }
    await mapLimit(files, WRITES_AT_ONCE, async (file) => {
      const target = join(generation, file.path);
      if (file.reuse && before && options.linkUnchanged) {
        const linked = await hardLink(join(before, file.path), target).then(
          () => true,
          () => false,
        );
        if (linked) return;
      }
      await writeFile(target, file.bytes);
    });
  } catch (error) {
    await rm(generation, { recursive: true, force: true });
    throw error;
  }
  // rename(2) replaces a link atomically (POSIX: "a link named new shall remain visible to other
  // threads throughout the renaming operation"), but not a real folder: output written before
  // generations existed is moved aside first, the one moment without it, once per checkout.
  if (previous === "folder") await rename(outDir, await mkdtemp(join(parent, `.${name}-old-`)));
  const link = join(parent, `.${name}-link-${basename(generation)}`);
  try {
    // Relative, so the checkout can be moved or mounted elsewhere.
    await symlink(basename(generation), link, "dir");
    await rename(link, outDir);
  } catch (error) {
    await rm(link, { force: true });
    await rm(generation, { recursive: true, force: true });
    throw error;
  }
  const keep = new Set([basename(generation), typeof previous === "string" ? previous : ""]);
  for (const entry of await readdir(parent)) {
    const ours = entry.startsWith(`.${name}-gen-`) || entry.startsWith(`.${name}-old-`);
    if (ours && !keep.has(entry)) await rm(join(parent, entry), { recursive: true, force: true });
  }
  return { generation };
}

/** The generation folder's name `outDir` links to, "folder" for a real folder, or "none". */
async function currentTarget(outDir: string): Promise<string> {
  try {
    const info = await lstat(outDir);
    if (!info.isSymbolicLink()) return "folder";
    return basename(await readlink(outDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "none";
    throw error;
  }
}
