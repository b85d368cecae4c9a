/**
 * meta.LastUpdated: when a data set's content last changed, never when the build ran, so the same
 * content always gives the same bytes and ETag. In order of preference:
 *
 * 1. git: the commit time of the newest commit touching the data set's folder or site.yaml. If
 *    those paths have uncommitted changes, the newest modification time of the changed files
 *    counts too, so Last-Modified still moves forward when a deploy is made from an edited tree
 *    (an If-Modified-Since client must not get a 304 for changed data).
 * 2. Outside git: SOURCE_DATE_EPOCH (reproducible-builds.org convention), when set.
 * 3. Otherwise the newest modification time of the data set's files.
 *
 * Whole seconds, UTC: HTTP dates (Last-Modified) have one-second resolution.
 */
import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export type LastUpdatedSource = "git" | "git+worktree" | "SOURCE_DATE_EPOCH" | "mtime";

export interface LastUpdated {
  /** Seconds since the epoch. */
  readonly seconds: number;
  readonly source: LastUpdatedSource;
}

/**
 * @param paths absolute paths of the data set's content folder and of site.yaml
 * @param files absolute paths of the data set's content files (for the mtime fallback)
 */
export async function lastUpdated(
  paths: readonly string[],
  files: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<LastUpdated> {
  const cwd = dirname(paths[0]!);
  const committed = await gitCommitTime(cwd, paths);
  if (committed !== undefined) {
    const changed = await gitChangedFiles(cwd, paths);
    if (changed.length === 0) return { seconds: committed, source: "git" };
    const edited = await newestMtime(changed);
    return edited > committed
      ? { seconds: edited, source: "git+worktree" }
      : { seconds: committed, source: "git" };
  }
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && /^\d+$/.test(epoch.trim())) {
    return { seconds: Number(epoch.trim()), source: "SOURCE_DATE_EPOCH" };
  }
  return { seconds: await newestMtime(files), source: "mtime" };
}

async function gitCommitTime(cwd: string, paths: readonly string[]): Promise<number | undefined> {
  try {
    const { stdout } = await run("git", ["log", "-1", "--format=%ct", "--", ...paths], { cwd });
    const seconds = Number.parseInt(stdout.trim(), 10);
    return Number.isFinite(seconds) ? seconds : undefined;
  } catch {
    return undefined; // not a git work tree, or git is not installed
  }
}

// Files under `paths` that differ from HEAD (modified, added, untracked, deleted).
async function gitChangedFiles(cwd: string, paths: readonly string[]): Promise<string[]> {
  const { stdout: top } = await run("git", ["rev-parse", "--show-toplevel"], { cwd });
  const { stdout } = await run(
    "git",
    ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ...paths],
    { cwd },
  );
  const root = top.trim();
  const changed: string[] = [];
  const entries = stdout.split("\0").filter(Boolean);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const status = entry.slice(0, 2);
    const path = join(root, entry.slice(3));
    // A deleted file has no mtime; its folder's mtime records the deletion.
    changed.push(status.includes("D") ? dirname(path) : path);
    if (status.startsWith("R") || status.startsWith("C")) i++; // skip the rename's source path
  }
  return changed;
}

async function newestMtime(files: readonly string[]): Promise<number> {
  let newest = 0;
  for (const file of files) {
    try {
      newest = Math.max(newest, Math.floor((await stat(file)).mtimeMs / 1000));
    } catch {
      // vanished between listing and stat: nothing to date
    }
  }
  return newest;
}
