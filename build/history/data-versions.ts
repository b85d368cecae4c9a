/**
 * A data set's versions: the commits on HEAD's first-parent line where its published Data (its
 * body without meta.LastUpdated, encode/data-digest.ts) changed. A commit that touches the data
 * set's folder or site.yaml without changing a byte of its Data (a comment, a site.yaml field no
 * body carries, a file moved between folders with the same records) is no version: the Data it
 * publishes is the version's before it. A version's LastUpdated is the commit time of the commit
 * where its Data appeared (docs/decisions.md, "What a past version is").
 *
 * Each commit's Data digest is worked out once, from its files' facts (facts.ts, kept by blob:
 * no body is rebuilt), and cached by commit; the list of versions is cached by the newest commit
 * touching the data set, so a build whose history has not moved reads one entry per data set.
 */
import type { BuildCache } from "../core/cache.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { dataDigest } from "../encode/data-digest.js";
import { SITE_FILE } from "../read/content.js";
import {
  datingAt,
  objectsAt,
  repoPath,
  touches,
  type Commit,
  type LoggedCommit,
  type Repository,
} from "./git.js";
import type { HistoryStore } from "./store.js";
import { brandsKey, VersionReader, type VersionCommit } from "./version.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";

/** A version with the digest of its Data. */
interface DataVersion extends VersionCommit {
  readonly digest: string;
}

export interface DataVersions {
  /** Newest first, at most the number wanted. */
  readonly versions: readonly DataVersion[];
  /** The list reaches the data set's first version: git has nothing older. */
  readonly complete: boolean;
}

export interface DataVersionsInput {
  readonly repo: Repository;
  /** The content folder's first-parent log, newest first (git.ts, readHistory). */
  readonly log: readonly LoggedCommit[];
  readonly dataset: DatasetDefinition;
  readonly cache: BuildCache | undefined;
  /** Where past files are read from; a digest the cache lacks is rebuilt through it. */
  readonly store: HistoryStore;
  /** How many versions, newest first. */
  readonly want: number;
  /**
   * A commit whose Data digest the caller knows: the newest commit touching the data set when the
   * work tree holds its content, whose body the build has just made (no need to rebuild it).
   */
  readonly known?: { readonly commit: string; readonly digest: string } | undefined;
  /** Only these brands' Data (a site's); undefined: every brand. */
  readonly brands?: ReadonlySet<string> | undefined;
}

const DIGEST_KIND = CACHE_KINDS.historyData;
const LIST_KIND = CACHE_KINDS.historyDataVersions;
const DATING_KIND = CACHE_KINDS.historyDating;
// How many commits' object hashes one git process looks up at a time, when digests are missing.
const LOOKUP_BATCH = 64;

/** The data set's newest `want` versions, as a build before found them, if one did. */
export async function cachedDataVersions(
  input: Omit<DataVersionsInput, "store" | "known">,
): Promise<DataVersions | undefined> {
  const { commits, listKey } = listOf(input);
  if (commits.length === 0 || input.want <= 0) {
    return { versions: [], complete: commits.length === 0 };
  }
  const hit = listKey ? await input.cache!.get(listKey, LIST_KIND) : undefined;
  if (!hit) return undefined;
  const cached = JSON.parse(hit.toString("utf8")) as DataVersions & { keep: string[] };
  for (const entry of cached.keep) {
    const [k, kind] = entry.split("\0");
    input.cache!.keep(k!, kind!);
  }
  return { versions: cached.versions, complete: cached.complete };
}

// The commits touching the data set, newest first, and the cache key of its versions' list: the
// newest of them names the whole line before it.
function listOf(input: Omit<DataVersionsInput, "store" | "known">) {
  const { repo, dataset, cache, want } = input;
  const folder = repoPath(repo, dataset.contentDir);
  const sitePath = repoPath(repo, SITE_FILE);
  const paths = [folder, sitePath];
  const commits = input.log.filter((c) => touches(c.paths, paths));
  const listKey =
    commits.length > 0
      ? cache?.key(
          LIST_KIND,
          dataset.id,
          commits[0]!.commit,
          String(want),
          ...paths,
          ...brandsKey(input.brands),
        )
      : undefined;
  return { folder, sitePath, paths, commits, listKey };
}

/** The data set's newest `want` versions. */
export async function dataVersions(input: DataVersionsInput): Promise<DataVersions> {
  const { repo, dataset, cache, want } = input;
  const cached = await cachedDataVersions(input);
  if (cached) return cached;
  const { folder, sitePath, paths, commits, listKey } = listOf(input);

  const keep = new Set<string>();
  // The digests' entries, written together at the end rather than one commit after another.
  const writes: Promise<void>[] = [];
  const reader = new VersionReader(input.store, dataset, input.brands);
  // Commit to the hashes of its folder's tree and site.yaml, looked up a batch at a time.
  const looked = new Map<string, [string | undefined, string | undefined]>();
  const digestOf = async (index: number): Promise<string | undefined> => {
    const commit = commits[index]!;
    const key = digestKey(input, commit.commit, paths);
    if (key) {
      keep.add(`${key}\0${DIGEST_KIND}`);
      const cached = await cache!.get(key, DIGEST_KIND);
      if (cached) return cached.length === 0 ? undefined : cached.toString("utf8");
    }
    if (commit.commit === input.known?.commit) {
      if (key) writes.push(cache!.set(key, DIGEST_KIND, input.known.digest));
      return input.known.digest;
    }
    // The hashes of this commit's content and the next few's, in one git process.
    if (!looked.has(commit.commit)) {
      // As many as may still be wanted: a run of one Data ends at the commit after it, so one
      // more than the versions left to find (a commit that is no version asks for the next batch).
      const left = want - versions.length + 1;
      const batch = commits.slice(index, index + Math.min(LOOKUP_BATCH, left));
      await lookAhead({ repo, folder, sitePath }, reader, batch, looked);
    }
    const [folderTree, siteBlob] = looked.get(commit.commit)!;
    // The date is not part of the Data: any will do.
    const facts = await reader.facts({
      commit: commit.commit,
      seconds: 0,
      folder: folderTree,
      siteBlob,
    });
    const digest = facts && dataDigest(facts.data);
    if (key) writes.push(cache!.set(key, DIGEST_KIND, digest ?? ""));
    return digest;
  };

  // Runs of commits with one Data, newest first: a version is the oldest commit of its run.
  const versions: DataVersion[] = [];
  const finish = async (run: { digest: string; commit: Commit }) => {
    const seconds = await dated(repo, run.commit, paths, cache, keep);
    versions.push({ commit: run.commit.commit, seconds, digest: run.digest });
  };
  let run: { digest: string; commit: Commit } | undefined;
  let at = 0;
  for (; at < commits.length && versions.length < want; at++) {
    const digest = await digestOf(at);
    // Content that could not be built was never published: it is no version.
    if (digest === undefined) continue;
    if (run?.digest === digest) run.commit = commits[at]!;
    else {
      if (run) await finish(run);
      run = { digest, commit: commits[at]! };
    }
  }
  let complete = false;
  if (at >= commits.length && versions.length < want) {
    if (run) await finish(run);
    complete = true;
  }
  await Promise.all(writes);
  for (const entry of input.store.list()) keep.add(entry);
  if (listKey) {
    await cache!.set(listKey, LIST_KIND, JSON.stringify({ versions, complete, keep: [...keep] }));
  }
  return { versions, complete };
}

// A commit's Data digest's cache entry: by the data set, the commit, the paths it reads and the
// site's brands.
function digestKey(
  input: Pick<DataVersionsInput, "cache" | "dataset" | "brands">,
  commit: string,
  paths: readonly string[],
): string | undefined {
  return input.cache?.key(
    DIGEST_KIND,
    input.dataset.id,
    commit,
    ...paths,
    ...brandsKey(input.brands),
  );
}

/**
 * The hashes of each commit's content in `batch` (its folder's tree and site.yaml), in one git
 * process, kept in `looked`; then their files read together, on every core: a build with no cache
 * reads a file per commit.
 */
async function lookAhead(
  at: { readonly repo: Repository; readonly folder: string; readonly sitePath: string },
  reader: VersionReader,
  batch: readonly Commit[],
  looked: Map<string, [string | undefined, string | undefined]>,
): Promise<void> {
  const objects = await objectsAt(
    at.repo,
    batch.flatMap((c) => [
      { name: `${c.commit}:${at.folder}`, type: "tree" as const },
      { name: `${c.commit}:${at.sitePath}`, type: "blob" as const },
    ]),
  );
  batch.forEach((c, i) => looked.set(c.commit, [objects[2 * i], objects[2 * i + 1]]));
  await reader.readAhead(
    batch.map((c) => {
      const [tree, blob] = looked.get(c.commit)!;
      return { commit: c.commit, seconds: 0, folder: tree, siteBlob: blob };
    }),
  );
}

/** A version's LastUpdated: what the build at that commit dated the data set (git.ts, datingAt). */
async function dated(
  repo: Repository,
  commit: Commit,
  paths: readonly string[],
  cache: BuildCache | undefined,
  keep: Set<string>,
): Promise<number> {
  if (!commit.merge) return commit.seconds;
  const key = cache?.key(DATING_KIND, commit.commit, ...paths);
  if (key) keep.add(`${key}\0${DATING_KIND}`);
  const hit = key ? await cache!.get(key, DATING_KIND) : undefined;
  if (hit) return Number(hit.toString("utf8"));
  const seconds = await datingAt(repo, commit.commit, paths);
  if (key) await cache!.set(key, DATING_KIND, String(seconds));
  return seconds;
}
