/**
 * The live preview's watchers: which changes under content/ can change the build, the git
 * repository's HEAD moving (a commit, a checkout, a reset: the build dates content by it), and how
 * a burst of them becomes one rebuild of the latest state.
 */
import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { watch } from "chokidar";
import { git } from "../core/git.js";
import { POSTCODE_CENTROIDS_FILE } from "../near/postcodes.js";

/**
 * Whether a change at `path` (relative to the content folder) can change the build: a YAML file
 * outside hidden folders. An editor's swap and backup files (`.x.yaml.swp`, `x.yaml~`, `4913`),
 * `.git` and anything else are not content, but for the near-me endpoints' postcode-centroid file
 * at the top.
 */
export function isContentChange(path: string): boolean {
  if (path === POSTCODE_CENTROIDS_FILE) return true;
  const parts = path.split(/[\\/]/);
  if (parts.some((part) => part.startsWith("."))) return false;
  return /\.ya?ml$/.test(parts[parts.length - 1]!);
}

/** Runs one job at a time however often it is asked for. */
export interface Coalescer {
  /** Ask for a run: after `quietMs` with no further ask, or after the run under way. */
  poke(): void;
  /** Settles when nothing is under way or waiting. */
  idle(): Promise<void>;
  /** Whether another run is asked for: a poke since the run under way started. */
  pending(): boolean;
  /** No run starts after this; settles when the one under way has finished. */
  close(): Promise<void>;
}

/**
 * `run`, started `quietMs` after the last poke; pokes while it runs make one more run when it
 * ends. So several saves in quick succession give one run, and a save during a run is never lost:
 * the next run reads the files as they are then.
 */
export function coalesce(run: () => Promise<void>, quietMs: number): Coalescer {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const waiters: (() => void)[] = [];
  const settle = () => {
    if (timer || running || again) return;
    for (const wake of waiters.splice(0)) wake();
  };
  const start = () => {
    timer = undefined;
    if (closed) return settle();
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
        if (again && !closed) {
          again = false;
          start();
        } else {
          again = false;
          settle();
        }
      });
  };
  return {
    poke() {
      if (closed) return;
      clearTimeout(timer);
      timer = setTimeout(start, quietMs);
    },
    idle: () => new Promise<void>((wake) => (waiters.push(wake), settle())),
    pending: () => timer !== undefined || again,
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

/** A running watcher of the content folder. */
export interface ContentWatcher {
  close(): Promise<void>;
}

// How long a changed file's size must hold still before its change is reported, and how often it
// is looked at meanwhile. Short: it is there to report the last of several writes, not to wait
// for a slow one (a rebuild that reads a half-written file is followed by one for the rest). The
// coalescer's quiet time comes after it (BENCHMARKS.md#live-preview, row "a save to its rebuild
// starting").
const SETTLED_MS = 5;
const POLL_MS = 5;

/**
 * Calls `onChange` for every file added, changed or removed under `dir` that isContentChange
 * counts, and `onError` when a folder cannot be watched; resolves once watching has begun.
 * chokidar watches each folder on its own and reports its entries by name, so a save that renames
 * a new file over the old one (vim, many IDEs, `sed -i`, `git checkout`) is reported every time,
 * not only the first (Node 20's recursive fs.watch follows the first file's inode on Linux), and a
 * brand folder made or moved in later is watched with its files. Hidden folders (`.git`, an
 * editor's) are not watched at all.
 *
 * `awaitWriteFinish` is what makes chokidar safe here, not an option for slow disks: without it
 * chokidar drops a second change to one file within 50 ms of the first (a throttle with no
 * trailing event), so a save made while a rebuild reads the files would never be rebuilt for.
 * With it, a file's change is reported once its size has held still for a few milliseconds, after
 * the last of several quick writes (docs/records/2026-11-25-the-watcher-is-chokidar.md).
 */
export async function watchContent(
  dir: string,
  onChange: () => void,
  onError: (error: Error) => void = () => undefined,
): Promise<ContentWatcher> {
  const hidden = (path: string) =>
    relative(dir, path)
      .split(sep)
      .some((part) => part.startsWith("."));
  const watcher = watch(dir, {
    ignored: hidden,
    ignoreInitial: true,
    awaitWriteFinish: { stabilityThreshold: SETTLED_MS, pollInterval: POLL_MS },
  });
  watcher.on("all", (event, path) => {
    if (event === "addDir" || event === "unlinkDir") return; // their files are reported one by one
    if (isContentChange(relative(dir, path))) onChange();
  });
  // A folder removed while being read is no error (chokidar drops ENOENT itself); anything else
  // (no permission, the system's limit on watches reached) means saves may go unseen: say so.
  watcher.on("error", (error) =>
    onError(error instanceof Error ? error : new Error(String(error))),
  );
  await new Promise<void>((ready) => watcher.once("ready", ready));
  return { close: () => watcher.close() };
}

/** Where a repository keeps HEAD (its work tree's git folder) and the refs (shared by worktrees). */
export interface GitFolders {
  /** `git rev-parse --absolute-git-dir`: a linked worktree's own folder, else `.git`. */
  readonly gitDir: string;
  /** `git rev-parse --git-common-dir`: where refs/ and packed-refs are, for every worktree. */
  readonly commonDir: string;
}

/** The git folders of the repository holding `dir`, or undefined when it is in none. */
export async function gitFolders(dir: string): Promise<GitFolders | undefined> {
  try {
    const [gitDir = "", commonDir = ""] = (
      await git(dir, ["rev-parse", "--absolute-git-dir", "--git-common-dir"])
    ).split("\n");
    if (!gitDir || !commonDir) return undefined;
    // --git-common-dir is relative to the folder asked from, unless absolute.
    return { gitDir, commonDir: resolve(dir, commonDir) };
  } catch {
    return undefined;
  }
}

/**
 * The commit HEAD names now, read from the files git keeps it in (no process: this runs on every
 * change under refs/): HEAD itself when detached, else the ref it names, loose or packed. "" when
 * it names none yet (a repository with no commit) or cannot be read.
 */
export async function headCommit(folders: GitFolders): Promise<string> {
  const read = (path: string) => readFile(path, "utf8").catch(() => "");
  const head = (await read(join(folders.gitDir, "HEAD"))).trim();
  const ref = /^ref: (.+)$/.exec(head)?.[1];
  if (!ref) return head;
  // A worktree's own refs (bisect, rewritten) are in its folder; the branches are shared.
  const own = ref.startsWith("refs/heads/") ? "" : (await read(join(folders.gitDir, ref))).trim();
  const loose = own || (await read(join(folders.commonDir, ref))).trim();
  if (loose) return loose;
  for (const line of (await read(join(folders.commonDir, "packed-refs"))).split("\n")) {
    const [id, name] = line.split(" ");
    if (name === ref && id) return id;
  }
  return "";
}

/**
 * Calls `onMove` each time the commit HEAD names changes: a commit, an amend, a checkout, a reset,
 * a pull, in this work tree or (for its branch) in another worktree of the repository. Watched:
 * HEAD in the work tree's git folder, and refs/ and packed-refs in the common folder (a branch is
 * a loose ref file, or a line of packed-refs once packed); each change there is checked against
 * the commit last seen, so a ref of another branch moving, or HEAD rewritten to the same commit,
 * rebuilds nothing. Resolves once watching has begun; undefined when `dir` is in no repository.
 * Like watchContent, it waits for a file's size to hold still: git renames a finished lock file
 * into place, but chokidar would otherwise drop a second change within 50 ms of the first.
 */
export async function watchHead(
  dir: string,
  onMove: () => void,
  onError: (error: Error) => void = () => undefined,
): Promise<ContentWatcher | undefined> {
  const folders = await gitFolders(dir);
  if (!folders) return undefined;
  const head = join(folders.gitDir, "HEAD");
  const packed = join(folders.commonDir, "packed-refs");
  const refs = join(folders.commonDir, "refs");
  const wanted = (path: string) =>
    path === folders.gitDir ||
    path === folders.commonDir ||
    path === head ||
    path === packed ||
    path === refs ||
    (path.startsWith(refs + sep) && !path.endsWith(".lock"));
  let seen = await headCommit(folders);
  const watcher = watch([...new Set([dirname(head), folders.commonDir])], {
    ignored: (path: string) => !wanted(path),
    ignoreInitial: true,
    awaitWriteFinish: { stabilityThreshold: SETTLED_MS, pollInterval: POLL_MS },
  });
  // One look at HEAD at a time, in order, so the commit last seen is the one last read.
  let looking = Promise.resolve();
  watcher.on("all", (event) => {
    if (event === "addDir" || event === "unlinkDir") return;
    looking = looking.then(async () => {
      const now = await headCommit(folders);
      if (now === seen) return;
      seen = now;
      onMove();
    });
  });
  watcher.on("error", (error) =>
    onError(error instanceof Error ? error : new Error(String(error))),
  );
  await new Promise<void>((ready) => watcher.once("ready", ready));
  return {
    async close() {
      await watcher.close();
      await looking;
    },
  };
}
