/**
 * The git plumbing the history needs, each a few processes per build however many versions:
 * where the content folder sits in its repository, the first-parent commits that touch a data
 * set, the hashes of paths at many commits in one `git cat-file --batch-check`, and every tree
 * and blob a build reads on one `git cat-file --batch` (ObjectReader). Every call names its paths
 * literally.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import {
  GIT_FLAGS,
  gitWithInput,
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
    const out = await gitWithInput(
      repo.top,
      ["cat-file", "--batch-check"],
      unknown.join("\n") + "\n",
    );
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

/**
 * One `git cat-file --batch` for every tree and blob a build's history reads, however many
 * versions: asked in turn, answered in order, on one process that `close` ends. Where each
 * `git ls-tree` and `git cat-file --batch` was a process of its own, two per version, this is
 * one per build; what it gives is what they gave (test/build/history/git.test.ts compares).
 */
export class ObjectReader {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private errors = "";
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly repo: Repository) {}

  /**
   * Every regular file below `tree`, in `git ls-tree -r` order (symbolic links and submodules left
   * out).
   */
  treeFiles(tree: string): Promise<TreeFile[]> {
    return this.inTurn(async () => {
      const files: TreeFile[] = [];
      const walk = async (name: string, below: string) => {
        const { type, bytes, hashBytes } = await this.object(name);
        if (type !== "tree") throw new Error(`git cat-file: ${name} is not a tree`);
        for (const entry of treeEntries(bytes, hashBytes)) {
          const kind = entry.mode & 0o170000;
          // Folders are walked in place, as ls-tree -r lists them; 0o100000 is a file (100644 or
          // 100755); a symbolic link (0o120000) or submodule (0o160000) is left out.
          if (kind === 0o040000) await walk(entry.hash, `${below}${entry.name}/`);
          else if (kind === 0o100000)
            files.push({ path: `${below}${entry.name}`, blob: entry.hash });
        }
      };
      await walk(tree, "");
      return files;
    });
  }

  /** The bytes of each blob, by hash. */
  readBlobs(hashes: readonly string[]): Promise<Map<string, Buffer>> {
    return this.inTurn(async () => {
      const blobs = new Map<string, Buffer>();
      for (const hash of new Set(hashes)) {
        const { type, bytes } = await this.object(hash);
        if (type !== "blob") throw new Error(`git cat-file: ${hash} is not a blob`);
        blobs.set(hash, bytes);
      }
      return blobs;
    });
  }

  /** Ends the process, if one was started. */
  close(): void {
    this.child?.stdin.end();
    this.child = undefined;
  }

  // One request at a time: each reads its answers off the one output in the order it asked.
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work);
    this.turn = result.catch(() => undefined);
    return result;
  }

  // "<name>\n" in; "<hash> <type> <size>\n<size bytes>\n" (or "<name> missing\n") out.
  private async object(name: string): Promise<{ type: string; bytes: Buffer; hashBytes: number }> {
    this.start().stdin.write(`${name}\n`);
    const header = (await this.take(await this.lineLength())).toString("utf8").trimEnd();
    const [hash = "", type = "", size] = header.split(" ");
    if (type === "missing" || size === undefined) {
      throw new Error(`git cat-file: ${name} is ${type || "unreadable"}`);
    }
    const bytes = await this.take(Number(size) + 1);
    return { type, bytes: bytes.subarray(0, Number(size)), hashBytes: hash.length / 2 };
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.failure) throw this.failure;
    if (this.child) return this.child;
    const child = spawn("git", [...GIT_FLAGS, "cat-file", "--batch"], {
      cwd: this.repo.top,
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.length += chunk.length;
      this.wake?.();
    });
    child.stderr.on("data", (chunk: Buffer) => (this.errors += chunk.toString()));
    const fail = (error: Error) => {
      this.failure ??= error;
      this.wake?.();
    };
    child.on("error", fail);
    // A write to a git that has ended (EPIPE) fails the read, never the process.
    child.stdin.on("error", fail);
    child.on("close", (code) =>
      fail(new Error(`git cat-file --batch ended: ${this.errors.trim() || `exit ${code}`}`)),
    );
    this.child = child;
    return child;
  }

  // The length of the next line, its newline included, once it has arrived.
  private async lineLength(): Promise<number> {
    for (;;) {
      const newline = this.joined().indexOf(10);
      if (newline >= 0) return newline + 1;
      await this.more();
    }
  }

  // The next `count` bytes of the output, once they have arrived.
  private async take(count: number): Promise<Buffer> {
    while (this.length < count) await this.more();
    const joined = this.joined();
    this.chunks.splice(0, this.chunks.length, joined.subarray(count));
    this.length -= count;
    return joined.subarray(0, count);
  }

  private joined(): Buffer {
    if (this.chunks.length !== 1) {
      const joined = Buffer.concat(this.chunks);
      this.chunks.splice(0, this.chunks.length, joined);
    }
    return this.chunks[0]!;
  }

  private more(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve();
      };
    });
  }
}

/** A tree object's entries: "<octal mode> <name>\0<hash, raw>" each, in the tree's order. */
function treeEntries(
  bytes: Buffer,
  hashBytes: number,
): { mode: number; name: string; hash: string }[] {
  const entries: { mode: number; name: string; hash: string }[] = [];
  for (let at = 0; at < bytes.length;) {
    const space = bytes.indexOf(32, at);
    const nul = bytes.indexOf(0, space);
    entries.push({
      mode: Number.parseInt(bytes.subarray(at, space).toString("latin1"), 8),
      name: bytes.subarray(space + 1, nul).toString("utf8"),
      hash: bytes.subarray(nul + 1, nul + 1 + hashBytes).toString("hex"),
    });
    at = nul + 1 + hashBytes;
  }
  return entries;
}
