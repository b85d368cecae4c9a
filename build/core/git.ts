/**
 * What git says about the content folder, read once per build and shared by the steps that ask
 * (LastUpdated in step 5, the history in step 8): whether it is in a repository, HEAD, and what
 * the work tree changed under it. A git process costs more to start than these take to run (on a
 * loaded machine tens of milliseconds each, most of a rebuild after one edit), so a build starts
 * one, `git status`, plus the ones whose answer depends only on HEAD when HEAD has moved since
 * its memory (GitMemo: the build's, or the live preview session's for all its builds) last asked;
 * content outside any repository starts none.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { realpath, stat } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Options every git call gets: literal paths, no pager, no signature checks, no colour. */
const GIT_FLAGS = ["--literal-pathspecs", "-c", "log.showSignature=false", "-c", "color.ui=never"];

export async function git(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run("git", [...GIT_FLAGS, ...args], {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
    encoding: "utf8",
  });
  return stdout;
}

/** Runs git with `input` on its standard input; resolves with its whole standard output. */
export function gitWithInput(cwd: string, args: readonly string[], input: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...GIT_FLAGS, ...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
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

/** A git repository holding the content folder. */
export interface Repository {
  /** The work tree's top folder (symbolic links resolved). */
  readonly top: string;
  /** The content folder's path inside it, `/`-separated, no trailing slash; "" at the top. */
  readonly prefix: string;
  /** True in a shallow clone: history older than the clone's depth is not there. */
  readonly shallow: boolean;
}

/** Why there is no history to read, in words for the build's one line about it. */
export type NoRepository = { readonly reason: string };

/** One path the work tree changed against HEAD. */
export interface WorkTreeChange {
  /** Repository path, `/`-separated. */
  readonly path: string;
  /** Deleted: it has no file, and its folder records the change. */
  readonly gone: boolean;
  /** The source path of a rename or copy (given after its new path). */
  readonly source: boolean;
}

/** The content folder as git saw it at one moment. */
export interface ContentGit {
  readonly contentDir: string;
  readonly repo: Repository | NoRepository;
  /** HEAD's commit id; "" without a repository. */
  readonly head: string;
  /** What the work tree changed under the content folder (untracked files too). */
  readonly changes: readonly WorkTreeChange[];
  /** Where what depends only on HEAD is kept, for this build and those that share its memory. */
  readonly memo: GitMemo;
}

const NOT_IN_GIT = "the content is not in a git repository with a commit, as from a tarball";

/**
 * What depends only on where the content is and on HEAD: kept by a build's memory (core/memory.ts,
 * "git"), so a process that builds again with the same memory (the live preview's session) asks
 * git again only when HEAD moves, and two builds with memories of their own share nothing.
 */
export class GitMemo {
  /** The repository holding the content folder, by folder, name and HEAD. */
  where: { readonly key: string; readonly repo: Repository } | undefined;
  /** The last content log read, by repository, content folder and HEAD (contentLog). */
  log: { readonly key: string; readonly log: Promise<LoggedCommit[]> } | undefined;
  /** The newest commit time of paths, by repository, HEAD and paths (newestCommitTime). */
  readonly commitTimes = new Map<string, number | undefined>();
}

/**
 * Reads the content folder's state in git: one `git status`, or nothing outside a repository.
 * Never rejects: what git cannot tell is no repository. `memo`: what an earlier build with the
 * same memory learnt; a new one by default.
 */
export function readContentGit(contentDir: string, memo = new GitMemo()): Promise<ContentGit> {
  return readState(contentDir, memo).catch(() => ({
    contentDir,
    repo: { reason: NOT_IN_GIT },
    head: "",
    changes: [],
    memo,
  }));
}

async function readState(contentDir: string, memo: GitMemo): Promise<ContentGit> {
  const none = (reason: string): ContentGit => ({
    contentDir,
    repo: { reason },
    head: "",
    changes: [],
    memo,
  });
  let from: string;
  try {
    from = await realpath(dirname(contentDir));
  } catch {
    return none("the content folder's parent cannot be read");
  }
  // git finds its repository by a .git entry in the folder or a folder above it, unless told
  // where by its environment: with neither, no process needs to start to say there is none.
  if (!process.env.GIT_DIR && !(await gitEntryAbove(from))) return none(NOT_IN_GIT);
  const name = basename(contentDir);
  let status: string;
  try {
    status = await git(from, [
      "status",
      "--porcelain=v2",
      "--branch",
      "-z",
      "--untracked-files=all",
      "--",
      name,
    ]);
  } catch {
    return none(NOT_IN_GIT);
  }
  const { head, changes } = parseStatus(status);
  if (!head) return none(NOT_IN_GIT);
  const key = `${from}\0${name}\0${head}`;
  if (memo.where?.key !== key) {
    const [top = "", inside = "", shallow] = (
      await git(from, ["rev-parse", "--show-toplevel", "--show-prefix", "--is-shallow-repository"])
    ).split("\n");
    memo.where = { key, repo: { top, prefix: `${inside}${name}`, shallow: shallow === "true" } };
  }
  return { contentDir, repo: memo.where.repo, head, changes, memo };
}

/** The repository path of `path`, a path under the content folder. */
function repositoryPath(state: ContentGit & { repo: Repository }, path: string): string {
  const inside = relative(state.contentDir, path).split(sep).join("/");
  return inside === "" ? state.repo.prefix : `${state.repo.prefix}/${inside}`;
}

/** One commit of the first-parent history. */
export interface Commit {
  readonly commit: string;
  /** Committer time, seconds since the epoch. */
  readonly seconds: number;
  /** More than one parent. */
  readonly merge: boolean;
}

/** A commit with the repository paths its change against its first parent touched. */
export type LoggedCommit = Commit & { readonly paths: readonly string[] };

/**
 * The commits on HEAD's first-parent line whose change against their first parent touches the
 * content folder, newest first, each with the paths it changed: one `git log` per HEAD, shared
 * by LastUpdated (newestCommitTime) and the history (build/history/).
 */
export function contentLog(state: ContentGit & { repo: Repository }): Promise<LoggedCommit[]> {
  const { top, prefix } = state.repo;
  const key = [top, prefix, state.head].join("\0");
  // Read again only when HEAD moves, for the builds that share this memory (the live preview's).
  const { memo } = state;
  if (memo.log?.key !== key) {
    const log = logOf(top, prefix === "" ? "." : prefix, state.head);
    memo.log = { key, log };
    // A failed read is not kept: the next build asks again.
    log.catch(() => {
      if (memo.log?.log === log) memo.log = undefined;
    });
  }
  return memo.log.log;
}

/**
 * The commits on `head`'s first-parent line whose change against their first parent touches
 * `pathspec` (relative to `cwd`, "." for all of it), newest first, each with the paths it
 * changed (the repository's).
 */
async function logOf(cwd: string, pathspec: string, head: string): Promise<LoggedCommit[]> {
  const out = await git(cwd, [
    "log",
    "--first-parent",
    // A merge's change is against its first parent, as the line it was published on saw it.
    "--diff-merges=first-parent",
    "--no-renames",
    "--name-only",
    "-z",
    "--format=%x01%H %ct %P",
    head,
    "--",
    pathspec,
  ]);
  return out
    .split("\x01")
    .filter(Boolean)
    .map((record) => {
      // "<head>\0\n<path>\0<path>\0…": with -z, paths are NUL-terminated and kept as they are.
      const [head = "", ...rest] = record.split("\0");
      const paths = rest.map((p, i) => (i === 0 ? p.replace(/^\n/, "") : p)).filter(Boolean);
      const [commit, seconds, ...parents] = head.split(" ");
      return { commit: commit!, seconds: Number(seconds), merge: parents.length > 1, paths };
    });
}

/** Whether a commit's changed paths touch one of `paths` (files, or folders and all below). */
export function touches(changed: readonly string[], paths: readonly string[]): boolean {
  return changed.some((c) => paths.some((p) => c === p || c.startsWith(`${p}/`)));
}

/**
 * The commit time of the newest commit touching `paths` (under the content folder), as
 * `git log -1` gives it; undefined without a repository. Asked once per HEAD and paths.
 */
export async function newestCommitTime(
  state: ContentGit,
  paths: readonly string[],
): Promise<number | undefined> {
  if (!("top" in state.repo)) return undefined;
  const repo = state.repo;
  const inside = paths.map((p) => repositoryPath({ ...state, repo }, p));
  const key = [repo.top, state.head, ...inside].join("\0");
  const { commitTimes } = state.memo;
  if (commitTimes.has(key)) return commitTimes.get(key);
  let seconds: number | undefined;
  try {
    const logged = await fromContentLog({ ...state, repo }, inside);
    if (logged !== "ask") seconds = logged;
    else {
      const out = await git(repo.top, ["log", "-1", "--format=%ct", state.head, "--", ...inside]);
      const parsed = Number.parseInt(out.trim(), 10);
      seconds = Number.isFinite(parsed) ? parsed : undefined;
    }
  } catch {
    seconds = undefined;
  }
  commitTimes.set(key, seconds);
  return seconds;
}

/**
 * What `git log -1 HEAD -- paths` would show, read from the content folder's first-parent log
 * (one process for every data set), or "ask" where only git can tell. git's default history
 * simplification follows a merge's first parent when the merge is TREESAME to it for the paths
 * (it takes the first TREESAME parent): a merge the log leaves out, or lists without a path
 * under `paths`, is. So walking the first-parent line, git meets the same commits up to the
 * first that touches `paths`: a commit that is not a merge is the one `git log -1` shows (its
 * change against its only parent is not empty for the paths); a merge may be followed along
 * another parent, so git is asked. No commit touching them: git shows none either.
 */
async function fromContentLog(
  state: ContentGit & { repo: Repository },
  inside: readonly string[],
): Promise<number | undefined | "ask"> {
  const { prefix } = state.repo;
  if (prefix !== "" && !inside.every((p) => p === prefix || p.startsWith(`${prefix}/`))) {
    return "ask";
  }
  for (const commit of await contentLog(state)) {
    if (!touches(commit.paths, inside)) continue;
    return commit.merge ? "ask" : commit.seconds;
  }
  return undefined;
}

/** The work tree's changes under `paths` (files, or folders and all below them). */
export function changesUnder(state: ContentGit, paths: readonly string[]): WorkTreeChange[] {
  if (!("top" in state.repo)) return [];
  const repo = state.repo;
  const inside = paths.map((p) => repositoryPath({ ...state, repo }, p));
  return state.changes.filter((c) =>
    inside.some((p) => c.path === p || c.path.startsWith(`${p}/`)),
  );
}

// `git status --porcelain=v2 --branch -z`: "# branch.oid <commit>" ("(initial)" before the first
// commit), then one entry per changed path: "1 XY <6 fields> <path>", "2 XY <7 fields> <path>"
// and its source path, "u XY <8 fields> <path>", "? <path>".
function parseStatus(out: string): { head: string; changes: WorkTreeChange[] } {
  let head = "";
  const changes: WorkTreeChange[] = [];
  const entries = out.split("\0");
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.startsWith("# branch.oid ")) {
      const oid = entry.slice("# branch.oid ".length);
      head = /^[0-9a-f]+$/.test(oid) ? oid : "";
      continue;
    }
    const kind = entry[0];
    const fields = { "1": 8, "2": 9, u: 10, "?": 1 }[kind as "1" | "2" | "u" | "?"];
    if (fields === undefined) continue;
    const parts = entry.split(" ");
    const path = parts.slice(fields).join(" ");
    const xy = kind === "?" ? "??" : parts[1]!;
    changes.push({ path, gone: xy.includes("D"), source: false });
    // A rename or copy: its source follows.
    if (kind === "2") changes.push({ path: entries[++i]!, gone: xy.includes("R"), source: true });
  }
  return { head, changes };
}

/** Whether `dir` or a folder above it holds a `.git` entry (a folder, or a worktree's file). */
async function gitEntryAbove(dir: string): Promise<boolean> {
  for (let at = dir; ; at = dirname(at)) {
    if (
      await stat(join(at, ".git")).then(
        () => true,
        () => false,
      )
    )
      return true;
    if (dirname(at) === at) return false;
  }
}

/** One file of a tree: its path below the tree, `/`-separated, and its blob hash. */
export interface TreeFile {
  readonly path: string;
  readonly blob: string;
}

/** An object as `git cat-file --batch` gives it. */
export interface GitObject {
  readonly hash: string;
  /** "commit", "tree", "blob" or "tag". */
  readonly type: string;
  readonly bytes: Buffer;
}

/**
 * One `git cat-file --batch` for every object a build reads from git: the trees and blobs of the
 * history's past versions, however many, and the commit a revision names (build/revision.ts).
 * Asked in turn, answered in order, on one process that `close` ends. Where each `git ls-tree`
 * and `git cat-file --batch` was a process of its own, two per version, this is one per build;
 * what it gives is what they gave (test/build/history/git.test.ts compares).
 */
export class ObjectReader {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly chunks: Buffer[] = [];
  private length = 0;
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private errors = "";
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly repo: Pick<Repository, "top">) {}

  /**
   * Every regular file below `tree`, in `git ls-tree -r` order (symbolic links and submodules left
   * out).
   */
  treeFiles(tree: string): Promise<TreeFile[]> {
    return this.inTurn(async () => {
      const files: TreeFile[] = [];
      const walk = async (name: string, below: string) => {
        const { hash, type, bytes } = await this.object(name);
        if (type !== "tree") throw new Error(`git cat-file: ${name} is not a tree`);
        for (const entry of treeEntries(bytes, hash.length / 2)) {
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

  /** The object `name` names (any name git accepts: a hash, `<rev>^{commit}`, `<rev>:<path>`), or
   * undefined when there is none. */
  find(name: string): Promise<GitObject | undefined> {
    return this.inTurn(() => this.answer(name));
  }

  // Like answer, for an object that must be there.
  private async object(name: string): Promise<GitObject> {
    const found = await this.answer(name);
    if (!found) throw new Error(`git cat-file: ${name} is missing`);
    return found;
  }

  // "<name>\n" in; "<hash> <type> <size>\n<size bytes>\n" out, or "<name> missing\n" (or
  // "ambiguous") for a name that names no one object. A name is one line.
  private async answer(name: string): Promise<GitObject | undefined> {
    if (/[\r\n]/.test(name)) return undefined;
    this.start().stdin.write(`${name}\n`);
    const header = (await this.take(await this.lineLength())).toString("utf8").trimEnd();
    const found = /^([0-9a-f]+) (\S+) (\d+)$/.exec(header);
    if (!found) return undefined;
    const [, hash = "", type = "", size = "0"] = found;
    const bytes = await this.take(Number(size) + 1);
    return { hash, type, bytes: bytes.subarray(0, Number(size)) };
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
