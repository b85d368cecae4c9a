/**
 * meta.LastUpdated in git, by the Data (build step 5 asks, before it assembles a data set): the
 * commit time of the data set's newest version (data-versions.ts), not of the newest commit that
 * touched its files. Uncommitted edits under its folder or site.yaml count as before, by their
 * modification time, but only when they change the Data. When a build before found the newest
 * version (its list is cached by the newest commit touching the data set), the body is assembled
 * once, at its date. Otherwise the caller assembles it at the date the files alone give
 * (last-updated.ts), settles it by the body's Data digest and assembles it again only when that
 * moves it; the newest commit's content is never rebuilt from git, since the work tree holds it.
 * Outside git, and where git holds no version that can be built, assemble/last-updated.ts decides
 * alone.
 */
import { join } from "node:path";
import type { BuildCache } from "../core/cache.js";
import { changesUnder } from "../core/git.js";
import { datasetUpdated, type AssembleInput } from "../assemble/dataset.js";
import type { LastUpdated } from "../assemble/last-updated.js";
import { SITE_FILE } from "../read/content.js";
import { cachedDataVersions, dataVersions } from "./data-versions.js";
import { readHistory, repoPath, touches, type LoggedCommit, type Repository } from "./git.js";
import { HistoryStore } from "./store.js";

export interface Dating {
  /** The LastUpdated to assemble the body at first. */
  readonly updated: LastUpdated;
  /**
   * In git: the LastUpdated of the body assembled, given its Data digest. When it is not
   * `updated`, the caller assembles the body again at it.
   */
  readonly settle?: (digest: string) => Promise<LastUpdated>;
}

export async function datasetDating(
  input: AssembleInput,
  cache: BuildCache | undefined,
): Promise<Dating> {
  const touched = await datasetUpdated(input);
  if (touched.source !== "git" && touched.source !== "git+worktree") return { updated: touched };
  const state = await input.git;
  if (!state) return { updated: touched };
  const { repo, log } = await readHistory(input.contentDir, { log: true }, state);
  if (!("top" in repo)) return { updated: touched };
  const { contentDir, dataset } = input;
  const paths = [join(contentDir, dataset.contentDir), join(contentDir, SITE_FILE)];
  const edited = changesUnder(state, paths).length > 0;
  // The newest version as a build before found it: the body is assembled once, at its date.
  const [known] =
    (await cachedDataVersions({ repo, log, dataset, cache, want: 1, brands: input.brands }))
      ?.versions ?? [];
  if (known && !edited) return { updated: { seconds: known.seconds, source: "git" } };
  if (known) {
    const updated: LastUpdated = {
      seconds: Math.max(touched.seconds, known.seconds),
      source: "git+worktree",
    };
    const committed: LastUpdated = { seconds: known.seconds, source: "git" };
    return {
      updated,
      settle: (digest) => Promise.resolve(digest === known.digest ? committed : updated),
    };
  }
  const settle = async (digest: string): Promise<LastUpdated> => {
    // A clean work tree holds the newest commit's content: its digest is the body's.
    const newestCommit = edited ? undefined : newestTouching(repo, log, dataset);
    const seeded = newestCommit ? { commit: newestCommit, digest } : undefined;
    const store = new HistoryStore(repo, cache);
    let newest;
    try {
      ({
        versions: [newest],
      } = await dataVersions({
        ...{ repo, log, dataset, cache, store, want: 1, known: seeded },
        brands: input.brands,
      }));
    } catch {
      // Git could not give a past version's objects: dated by the newest commit touching its files.
      return touched;
    } finally {
      store.close();
    }
    if (!newest) return touched;
    const committed: LastUpdated = { seconds: newest.seconds, source: "git" };
    if (!edited || digest === newest.digest) return committed;
    // An edit is never dated before the version it edits: Last-Modified only moves forward.
    return { seconds: Math.max(touched.seconds, newest.seconds), source: "git+worktree" };
  };
  return { updated: touched, settle };
}

// The newest commit of the log touching the data set's folder or site.yaml.
function newestTouching(
  repo: Repository,
  log: readonly LoggedCommit[],
  dataset: AssembleInput["dataset"],
): string | undefined {
  const paths = [repoPath(repo, dataset.contentDir), repoPath(repo, SITE_FILE)];
  return log.find((c) => touches(c.paths, paths))?.commit;
}
