/**
 * The git plumbing the history needs, each a few processes per build however many versions:
 * where the content folder sits in its repository, the first-parent commits that touch a data
 * set, the hashes of paths at many commits in one `git cat-file --batch-check`, and every tree
 * and blob a build reads on one `git cat-file --batch` (ObjectReader, in core/git.ts). Every
 * call names its paths literally.
 */
import {
  gitWithInput,
  contentLog,
  git,
  readContentGit,
  type LoggedCommit,
  type ContentGit,
  type NoRepository,
  type Repository,
} from "../core/git.js";

export {
  ObjectReader,
  touches,
  type Commit,
  type LoggedCommit,
  type NoRepository,
  type Repository,
  type TreeFile,
} from "../core/git.js";

/** The repository the content folder is in, or why there is none. */
export async function repositoryOf(contentDir: string): Promise<Repository | NoRepository> {
  return (await readHistory(contentDir, { log: false })).repo;
}

/** The content folder's repository and its first-parent log. */
export interface History {
  readonly repo: Repository | NoRepository;
  /**
   * The commits on HEAD's first-parent line that touch the content folder, newest first, each
   * with the paths it changed against its first parent; empty without a repository.
   */
  readonly log: readonly LoggedCommit[];
}

/**
 * Everything the history reads from git on every build: where the repository is (and that it
 * has a commit), and the content's first-parent log. `state` is what
 * the build read of git for all its steps (core/git.ts); read here when not given. The log
 * depends on HEAD alone, so it is read once per HEAD.
 */
export async function readHistory(
  contentDir: string,
  want: { readonly log: boolean } = { log: true },
  state?: ContentGit,
): Promise<History> {
  const read = state ?? (await readContentGit(contentDir));
  const repo = read.repo;
  if (!("top" in repo)) return { repo, log: [] };
  const log = want.log ? await contentLog({ ...read, repo }) : [];
  return { repo, log };
}

/** A path inside the repository, from one relative to the content folder. */
export function repoPath(repo: Repository, path: string): string {
  return repo.prefix === "" ? path : `${repo.prefix}/${path}`;
}

/**
 * What the build dates a data set by at `commit` (build/assemble/last-updated.ts runs
 * `git log -1 -- paths` at HEAD): the commit time of the first commit that walk shows. For a
 * commit that is not a merge this is its own time; a merge is asked.
 */
export async function datingAt(
  repo: Repository,
  commit: string,
  paths: readonly string[],
): Promise<number> {
  const out = await git(repo.top, ["log", "-1", "--format=%ct", commit, "--", ...paths]);
  return Number.parseInt(out.trim(), 10);
}

/**
 * Objects by repository and `<commit>:<path>` (objectsAt): each one's hash and type ("tree",
 * "blob"), as a build's memory keeps them.
 */
export type ObjectHashes = Map<
  string,
  { readonly hash: string; readonly type: string } | undefined
>;

/** What objectsAt is asked for: a path at a commit, and the type it must be to count. */
export interface WantedObject {
  readonly name: string;
  readonly type: "tree" | "blob";
}

/**
 * The object hash of each `<commit>:<path>` asked, or undefined where the path does not exist
 * there; one `git cat-file --batch-check` for all of them not in `objectHashes`. What
 * `<commit>:<path>` names never changes, so a memory that builds again (the preview's session's,
 * core/memory.ts) asks git each once.
 */
export async function objectsAt(
  repo: Repository,
  wanted: readonly WantedObject[],
  objectHashes: ObjectHashes = new Map(),
): Promise<(string | undefined)[]> {
  const key = (name: string) => `${repo.top}\0${name}`;
  const names = wanted.map((w) => w.name);
  const unknown = [...new Set(names.filter((name) => !objectHashes.has(key(name))))];
  if (unknown.length > 0) {
    const out = await gitWithInput(
      repo.top,
      ["cat-file", "--batch-check"],
      unknown.join("\n") + "\n",
    );
    const lines = out.toString("utf8").split("\n");
    unknown.forEach((name, i) => {
      const [hash, type] = (lines[i] ?? "").split(" ");
      objectHashes.set(
        key(name),
        type === "missing" || type === undefined || hash === undefined ? undefined : { hash, type },
      );
    });
  }
  // An object of another type is none: a data set's folder committed as a file holds no brand
  // file (as the build reads it on disk), a site.yaml committed as a folder is no site.yaml.
  // Walking such a blob as a tree stopped the build ("… is not a tree").
  return wanted.map(({ name, type }) => {
    const found = objectHashes.get(key(name));
    return found?.type === type ? found.hash : undefined;
  });
}
