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
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { changesUnder, newestCommitTime, readContentGit, type ContentGit } from "../core/git.js";
import type { LastUpdated } from "../core/dates.js";

export type { LastUpdated } from "../core/dates.js";

/**
 * @param paths absolute paths of the data set's content folder and of site.yaml
 * @param files absolute paths of the data set's content files (for the mtime fallback)
 * @param git what git says of the content folder (core/git.ts), read once per build; read
 *   here when not given
 */
export async function lastUpdated(
  paths: readonly string[],
  files: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  git?: ContentGit,
): Promise<LastUpdated> {
  const state = git ?? (await readContentGit(dirname(paths[0]!)));
  const committed = await newestCommitTime(state, paths);
  if (committed !== undefined && "top" in state.repo) {
    const top = state.repo.top;
    // Files under `paths` that differ from HEAD (modified, added, untracked, deleted); a
    // rename counts at its new path.
    // A deleted file is dated by the folder it was deleted from, or, when that went with it
    // (a brand's folder or a data set's removed whole), by the nearest folder above that is
    // still there: its time is the removal's. Dating a vanished folder gave no time at all, so
    // the removal was dated by the commit before it, sharing that version's LastUpdated.
    const changed = await Promise.all(
      changesUnder(state, paths)
        .filter((c) => !c.source)
        .map((c) =>
          c.gone ? nearestFolder(dirname(join(top, c.path))) : Promise.resolve(join(top, c.path)),
        ),
    );
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

/** `folder`, or its nearest parent folder that exists. */
async function nearestFolder(folder: string): Promise<string> {
  for (let at = folder; ; at = dirname(at)) {
    try {
      if ((await stat(at)).isDirectory()) return at;
    } catch {
      // gone: try the folder above
    }
    if (dirname(at) === at) return at;
  }
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
