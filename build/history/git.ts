/**
 * The git plumbing the history needs, each a few processes per build however many versions:
 * where the content folder sits in its repository, the first-parent commits that touch a data
 * set, the hashes of paths at many commits in one `git cat-file --batch-check`, a tree's files,
 * and many blobs in one `git cat-file --batch`. Every call names its paths literally.
 */
import { spawn } from "node:child_process";
import {
  GIT_FLAGS,
  contentLog,
  git,
  logOf,
  readContentGit,
  type LoggedCommit,
  type ContentGit,
  type NoRepository,
  type Repository,
} from "../core/git.js";

export {
  git,
  touches,
  type Commit,
  type LoggedCommit,
  type NoRepository,
  type Repository,
} from "../core/git.js";

/** The repository the content folder is in, or why there is none. */
export async function repositoryOf(contentDir: string): Promise<Repository | NoRepository> {
  return (await readHistory(contentDir, { log: false })).repo;
}

/** The content folder's repository, its first-parent log and the work tree's changes. */
export interface History {
  readonly repo: Repository | NoRepository;
  /** Newest first (firstParentLog); empty without a repository. */
  readonly log: readonly LoggedCommit[];
  /** Paths under the content folder that differ from HEAD (changedPaths). */
  readonly changed: readonly string[];
}

/**
 * Everything the history reads from git on every build: where the repository is (and that it
 * has a commit), the content's first-parent log, and what the work tree changed. `state` is what
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
  if (!("top" in repo)) return { repo, log: [], changed: [] };
  const log = want.log ? await contentLog({ ...read, repo }) : [];
  return { repo, log, changed: read.changes.map((c) => c.path) };
}

/** A path inside the repository, from one relative to the content folder. */
export function repoPath(repo: Repository, path: string): string {
  return repo.prefix === "" ? path : `${repo.prefix}/${path}`;
}

/**
 * The commits on HEAD's first-parent line whose change against their first parent touches a path
 * under `under` (a repository path, "" for the whole repository), newest first, each with the
 * paths it changed: one `git log` for every data set at once.
 */
export function firstParentLog(repo: Repository, under: string): Promise<LoggedCommit[]> {
  return logOf(repo.top, under === "" ? "." : under, "HEAD");
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

/** Paths under `paths` that differ from HEAD in the work tree (as last-updated.ts counts them). */
export function changedPaths(repo: Repository, paths: readonly string[]): Promise<string[]> {
  return statusOf(repo.top, paths);
}

// The status, run in `cwd` for `pathspecs` (relative to it); porcelain gives repository paths.
async function statusOf(cwd: string, pathspecs: readonly string[]): Promise<string[]> {
  const out = await git(cwd, [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--",
    ...pathspecs,
  ]);
  const changed: string[] = [];
  const entries = out.split("\0").filter(Boolean);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    changed.push(entry.slice(3));
    if (entry.startsWith("R") || entry.startsWith("C")) changed.push(entries[++i]!);
  }
  return changed;
}

// What `<commit>:<path>` names never changes, so each is asked of git once per process.
const objectHashes = new Map<string, string | undefined>();

/**
 * The object hash of each `<commit>:<path>` asked, or undefined where the path does not exist
 * there; one `git cat-file --batch-check` for all of them that this process has not asked before.
 */
export async function objectsAt(
  repo: Repository,
  names: readonly string[],
): Promise<(string | undefined)[]> {
  const key = (name: string) => `${repo.top}\0${name}`;
  const unknown = [...new Set(names.filter((name) => !objectHashes.has(key(name))))];
  if (unknown.length > 0) {
    const out = await withInput(repo.top, ["cat-file", "--batch-check"], unknown.join("\n") + "\n");
    const lines = out.toString("utf8").split("\n");
    unknown.forEach((name, i) => {
      const [hash, type] = (lines[i] ?? "").split(" ");
      objectHashes.set(key(name), type === "missing" || type === undefined ? undefined : hash);
    });
  }
  return names.map((name) => objectHashes.get(key(name)));
}

/** One file of a tree: its path below the tree, `/`-separated, and its blob hash. */
export interface TreeFile {
  readonly path: string;
  readonly blob: string;
}

/** Every regular file below `tree`, recursively (symbolic links and submodules left out). */
export async function treeFiles(repo: Repository, tree: string): Promise<TreeFile[]> {
  const out = await git(repo.top, ["ls-tree", "-r", "-z", tree]);
  const files: TreeFile[] = [];
  for (const entry of out.split("\0")) {
    if (!entry) continue;
    const tab = entry.indexOf("\t");
    const [mode, type, hash] = entry.slice(0, tab).split(" ");
    // 100644 and 100755 are files; 120000 a symbolic link, which the build's glob does not follow.
    if (type === "blob" && (mode === "100644" || mode === "100755")) {
      files.push({ path: entry.slice(tab + 1), blob: hash! });
    }
  }
  return files;
}

/** The bytes of each blob, by hash; one `git cat-file --batch` for all of them. */
export async function readBlobs(
  repo: Repository,
  hashes: readonly string[],
): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  const wanted = [...new Set(hashes)];
  if (wanted.length === 0) return blobs;
  const out = await withInput(repo.top, ["cat-file", "--batch"], wanted.join("\n") + "\n");
  // Each object: "<hash> <type> <size>\n<size bytes>\n".
  let at = 0;
  for (const hash of wanted) {
    const newline = out.indexOf(10, at);
    const [, type, size] = out.subarray(at, newline).toString("utf8").split(" ");
    if (type !== "blob") throw new Error(`git cat-file: ${hash} is not a blob`);
    const start = newline + 1;
    const end = start + Number(size);
    blobs.set(hash, out.subarray(start, end));
    at = end + 1;
  }
  return blobs;
}

// Runs git with `input` on its standard input and returns its whole standard output.
function withInput(cwd: string, args: readonly string[], input: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...GIT_FLAGS, ...args], {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`git ${args.join(" ")}: ${errors.trim() || `exit ${code}`}`));
    });
    child.stdin.end(input);
  });
}
