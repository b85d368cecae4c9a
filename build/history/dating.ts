/**
 * meta.LastUpdated in git, by the Data (build step 5 asks, before it assembles a data set): the
 * commit time of the data set's newest version (data-versions.ts), not of the newest commit that
 * touched its files. Uncommitted edits under its folder or site.yaml count as before, by their
 * modification time, but only when they change the Data: the caller assembles the body at that
 * time, and if its Data is the newest version's after all, assembles it again at the version's.
 * Outside git, and where git holds no version that can be built, assemble/last-updated.ts decides
 * alone.
 */
import { join } from "node:path";
import type { BuildCache } from "../core/cache.js";
import { changesUnder } from "../core/git.js";
import { datasetUpdated, type AssembleInput } from "../assemble/dataset.js";
import type { LastUpdated } from "../assemble/last-updated.js";
import { SITE_FILE } from "../read/content.js";
import { dataVersions } from "./data-versions.js";
import { readHistory } from "./git.js";
import { HistoryStore } from "./store.js";

export interface Dating {
  /** The LastUpdated to assemble the body at. */
  readonly updated: LastUpdated;
  /**
   * When `updated` is an uncommitted edit's time: the newest version's Data digest and date. A
   * body whose Data has that digest is that version, and takes its date.
   */
  readonly unless?: { readonly digest: string; readonly updated: LastUpdated };
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
  const store = new HistoryStore(repo, cache);
  let newest;
  try {
    ({
      versions: [newest],
    } = await dataVersions({ repo, log, dataset: input.dataset, cache, store, want: 1 }));
  } finally {
    store.close();
  }
  if (!newest) return { updated: touched };
  const committed: LastUpdated = { seconds: newest.seconds, source: "git" };
  const { contentDir, dataset } = input;
  const paths = [join(contentDir, dataset.contentDir), join(contentDir, SITE_FILE)];
  if (changesUnder(state, paths).length === 0) return { updated: committed };
  // An edit is never dated before the version it edits: Last-Modified only moves forward.
  const edited: LastUpdated = {
    seconds: Math.max(touched.seconds, newest.seconds),
    source: "git+worktree",
  };
  return { updated: edited, unless: { digest: newest.digest, updated: committed } };
}
