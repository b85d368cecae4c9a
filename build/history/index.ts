/**
 * Step 8, history: each data set's changes endpoint, from its versions in git (every commit on
 * HEAD's first-parent line where its Data changed, data-versions.ts), and the publications the feed
 * and the landing page tell. Versions are read from git objects, never checked out; a build
 * whose history has not moved takes each data set's answers whole from the cache. Without git
 * history only the current version is known, and the build says so once.
 */
import type { BuildCache } from "../core/cache.js";
import { changesUnder, type ContentGit } from "../core/git.js";
import { join } from "node:path";
import { DATASETS, type DatasetDefinition } from "../core/datasets.js";
import type { DatasetResult } from "../encode/manifest-entry.js";
import type { BuildProfile } from "../core/profile.js";
import type { BuildMemory } from "../core/memory.js";
import { SITE_FILE } from "../read/content.js";
import type { SiteSettings } from "../read/site.js";
import type { ChangesEntry } from "../../contract/manifest.js";
import { datasetHistory, type Publication, type StoredAnswer } from "./dataset.js";
import {
  objectsAt,
  readHistory,
  repoPath,
  touches,
  type History,
  type ObjectHashes,
  type Repository,
} from "./git.js";
import { dataVersions } from "./data-versions.js";
import { within } from "../core/internal-error.js";
import { dataDigest } from "../encode/data-digest.js";
import { bodyData } from "../encode/dataset-body.js";
import { HistoryStore, historyObjects } from "./store.js";
import { VersionReader, type VersionCommit, type VersionRef } from "./version.js";

export type { Publication } from "./dataset.js";

/** Past versions each data set's changes endpoint answers from, unless site.yaml says otherwise. */
const DEFAULT_KEEP = 100;

/** One site's part of the history: its settings, its bodies and the brands it publishes. */
interface SiteHistoryInput {
  /** Its name in site.yaml's Sites, for an internal error's place; none without Sites. */
  readonly name?: string | undefined;
  readonly settings: SiteSettings;
  /** The site's data sets, in DATASETS order. */
  readonly datasets: readonly DatasetResult[];
  /**
   * Only these brands, by BrandName: a site's (docs/decisions.md#sites), whose past versions
   * hold only its brands; undefined: every brand.
   */
  readonly brands?: ReadonlySet<string> | undefined;
}

export interface HistoryInput {
  readonly contentDir: string;
  /** What the build read of git for all its steps (core/git.ts); read here when not given. */
  readonly git?: Promise<ContentGit> | undefined;
  /** Each site (one, every brand, without Sites): the same history over its own brands. */
  readonly sites: readonly SiteHistoryInput[];
  readonly cache: BuildCache | undefined;
  /** The largest asset file the platform takes (build/write/asset-limits.ts). */
  readonly maxFileBytes: number;
  /**
   * Whether to read the past versions from git (`history`; without, every changes endpoint knows
   * only the current version), and how answers are compressed: as the bodies are.
   */
  readonly profile: Pick<BuildProfile, "history" | "compression" | "memory">;
  /** The build's memory (core/memory.ts), where git's object hashes are kept; none: not kept. */
  readonly memory?: BuildMemory | undefined;
}

/** One site's changes endpoints. */
export interface SiteHistory {
  /** The manifest's `changes`, one per data set, in DATASETS order. */
  readonly changes: ChangesEntry[];
  /** Every stored answer, each asset once. */
  readonly answers: StoredAnswer[];
  /** Every data set's publications, newest first (by DATASETS order within one instant). */
  readonly publications: Publication[];
}

export interface HistoryResult {
  /** Each site's, in the order of `sites`. */
  readonly sites: readonly SiteHistory[];
  /** The one line the build prints about the history, when it could not read all of it. */
  readonly note: string | undefined;
  /**
   * What this build did beyond reading the cache: data sets whose answers it made (each site's
   * counted), past files it parsed, past bodies it rebuilt (each hashed to learn its ETags). All 0
   * when nothing moved since the build before.
   */
  readonly work: { readonly datasets: number; readonly parsed: number; readonly rebuilt: number };
}

/**
 * Every site's changes endpoints, from one reading of git: the sites share the store, so a past
 * file two sites publish (a brand's, in its own site and the group's) is read and parsed once.
 */
export async function buildHistory(input: HistoryInput): Promise<HistoryResult> {
  const wanted = input.sites.some((s) => (s.settings.ChangeHistoryVersions ?? DEFAULT_KEEP) > 0);
  const read =
    input.profile.history && wanted
      ? await readHistory(input.contentDir, { log: true }, await input.git)
      : undefined;
  const repo = read && "top" in read.repo ? read.repo : undefined;
  let note: string | undefined;
  if (read && !repo) {
    note = `Changes: no git history (${(read.repo as { reason: string }).reason}): each changes endpoint knows only the current version of its data set.`;
  } else if (repo?.shallow) {
    note =
      "Changes: this is a shallow clone, so the changes endpoints know only the versions in the history fetched (check out with full history: fetch-depth: 0).";
  }
  const objects = input.memory?.part("history-objects", historyObjects);
  const store = repo ? new HistoryStore(repo, input.cache, objects) : undefined;
  const git = repo ? { repo, read: read!, store: store!, state: await input.git } : undefined;
  let made: { history: SiteHistory; computed: number }[];
  try {
    // Every site at once: one site's answers are compressed on libuv's threads while another's
    // are drafted on this one. A file two sites read is read once (store.ts). Every site settles
    // before the store closes, so none reads from a closed store, and the first site's fault in
    // Sites' order is the one told, as one after another would tell it.
    const settled = await Promise.allSettled(
      input.sites.map((part) => {
        const one = () => siteHistory(input, part, git);
        return part.name ? within(`site ${part.name}`, one) : one();
      }),
    );
    made = settled.map((site) => {
      if (site.status === "rejected") throw site.reason as Error;
      return site.value;
    });
  } finally {
    store?.close();
  }
  const sites = made.map((m) => m.history);
  const computed = made.reduce((n, m) => n + m.computed, 0);
  const work = {
    datasets: computed,
    parsed: store?.counts.parsed ?? 0,
    rebuilt: store?.counts.rebuilt ?? 0,
  };
  return { sites, note, work };
}

/** Git as the history reads it, for every site: the repository, its log and the one store. */
interface HistoryGit {
  readonly repo: Repository;
  readonly read: History;
  readonly store: HistoryStore;
  readonly state: ContentGit | undefined;
}

/** One site's changes endpoints; `git` undefined: each knows only the current version. */
async function siteHistory(
  input: HistoryInput,
  part: SiteHistoryInput,
  git: HistoryGit | undefined,
): Promise<{ history: SiteHistory; computed: number }> {
  const keep = part.settings.ChangeHistoryVersions ?? DEFAULT_KEEP;
  const results = part.datasets;
  const hashes = input.memory?.part("object-hashes", (): ObjectHashes => new Map());
  const store = git?.store;
  const versions =
    git && keep > 0
      ? await versionsOf(git, results, keep, input.cache, hashes, part.brands)
      : undefined;

  const changes: ChangesEntry[] = [];
  const answers = new Map<string, StoredAnswer>();
  const publications: Publication[] = [];
  let computed = 0;
  for (const result of results) {
    const found = versions?.get(result.dataset.id);
    const history = await within(`the changes of ${result.dataset.path}`, () =>
      datasetHistory({
        dataset: result.dataset,
        current: { entry: result.entry, body: result.body },
        past: found?.past ?? [],
        complete: found?.complete ?? false,
        seed: found?.seed,
        beyond: found?.beyond,
        resolve: async (wanted) => (versions ? versions.resolve(result.dataset, wanted) : []),
        maxFileBytes: input.maxFileBytes,
        cache: input.cache,
        compression: input.profile.compression,
        store: versions && store,
        brands: part.brands,
      }),
    );
    changes.push(history.entry);
    if (history.computed) computed++;
    for (const answer of history.answers) answers.set(answer.entry.variants.identity.asset, answer);
    publications.push(...history.publications);
  }
  // In a session (the live preview), the commit the work tree holds is read now, while nobody
  // waits: the first save makes it a past version, whose facts are then in memory already.
  if (input.profile.memory && versions && store) {
    for (const { dataset } of results) {
      const seed = versions.get(dataset.id)?.seed;
      if (!seed) continue;
      const [ref] = await versions.resolve(dataset, [seed]);
      if (ref) await new VersionReader(store, dataset, part.brands).facts(ref);
    }
  }
  const order = new Map(DATASETS.map((d, i) => [d.id, i]));
  publications.sort(
    (a, b) =>
      (a.lastUpdated < b.lastUpdated ? 1 : a.lastUpdated > b.lastUpdated ? -1 : 0) ||
      order.get(a.dataset)! - order.get(b.dataset)!,
  );
  return { history: { changes, answers: [...answers.values()], publications }, computed };
}

/** A data set's versions, as found in git. */
interface FoundVersions {
  /** Past versions, newest first, at most `keep`. */
  readonly past: VersionCommit[];
  /** The list reaches the data set's first version. */
  readonly complete: boolean;
  /** The newest commit version when its content is the work tree's (the current version). */
  readonly seed: VersionCommit | undefined;
  /** The version just older than the oldest in `past`, when the count left it out. */
  readonly beyond: VersionCommit | undefined;
}

/** Every data set's versions, and the hashes of their content when a data set wants them. */
interface Versions {
  get(dataset: string): FoundVersions | undefined;
  resolve(dataset: DatasetDefinition, wanted: readonly VersionCommit[]): Promise<VersionRef[]>;
}

/**
 * Every data set's versions (data-versions.ts: the commits where its Data changed), from what
 * readHistory read for all of them, and one batch of object lookups for all of them, made only
 * when a data set's answers are not in the cache. The newest is the current version when the
 * body this build made has its Data.
 */
async function versionsOf(
  { repo, read: { log }, store, state }: HistoryGit,
  results: readonly DatasetResult[],
  keep: number,
  cache: BuildCache | undefined,
  hashes: ObjectHashes | undefined,
  brands: ReadonlySet<string> | undefined,
): Promise<Versions> {
  const sitePath = repoPath(repo, SITE_FILE);
  const folder = (dataset: DatasetDefinition) => repoPath(repo, dataset.contentDir);
  const found = new Map<string, FoundVersions>();
  for (const { dataset, entry, body } of results) {
    // Two more than kept: the newest may be the current version itself, and the one beyond the
    // oldest kept tells that one's publication. A work tree with no change under the data set
    // holds its newest commit's content, whose Data is the body just made: not read from git.
    const paths = [folder(dataset), sitePath];
    const clean =
      state !== undefined &&
      changesUnder(state, [
        join(state.contentDir, dataset.contentDir),
        join(state.contentDir, SITE_FILE),
      ]).length === 0;
    const digest = dataDigest(bodyData(body));
    const head = clean ? log.find((c) => touches(c.paths, paths)) : undefined;
    const { versions, complete } = await within(`the versions of ${dataset.path}`, () =>
      dataVersions({
        repo,
        log,
        dataset,
        cache,
        store,
        want: keep + 2,
        known: head && { commit: head.commit, digest },
        brands,
      }),
    );
    const [latest] = versions;
    const current = latest?.seconds === entry.lastModifiedMs / 1000 && latest.digest === digest;
    const seed = current ? latest : undefined;
    const older = seed ? versions.slice(1) : versions;
    const past = older.slice(0, keep);
    found.set(dataset.id, {
      past,
      complete: complete && older.length <= keep,
      seed,
      beyond: older[keep],
    });
  }
  let looked: Promise<Map<string, VersionRef>> | undefined;
  const lookUp = async () => {
    const wanted = results.flatMap(({ dataset }) => {
      const f = found.get(dataset.id)!;
      return [...(f.seed ? [f.seed] : []), ...f.past, ...(f.beyond ? [f.beyond] : [])].map((v) => ({
        dataset,
        v,
      }));
    });
    const names = wanted.flatMap(({ dataset, v }) => [
      { name: `${v.commit}:${folder(dataset)}`, type: "tree" as const },
      { name: `${v.commit}:${sitePath}`, type: "blob" as const },
    ]);
    const objects = await objectsAt(repo, names, hashes);
    return new Map(
      wanted.map(({ dataset, v }, i): [string, VersionRef] => [
        `${dataset.id}\0${v.commit}`,
        { ...v, folder: objects[2 * i], siteBlob: objects[2 * i + 1] },
      ]),
    );
  };
  return {
    get: (id) => found.get(id),
    async resolve(dataset, versions) {
      const refs = await (looked ??= lookUp());
      return versions.map((v) => refs.get(`${dataset.id}\0${v.commit}`)!);
    },
  };
}
