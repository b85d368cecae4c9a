/**
 * The live preview's watcher: which changes under content/ can change the build, and how a burst
 * of them becomes one rebuild of the latest state.
 */
import { readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { join, relative, sep } from "node:path";
import { POSTCODE_CENTROIDS_FILE } from "../near/postcodes.js";

/**
 * Whether a change at `path` (relative to the content folder, as fs.watch names it) can change
 * the build: a YAML file outside hidden folders. An editor's swap and backup files
 * (`.x.yaml.swp`, `x.yaml~`, `4913`), `.git` and anything else are not content, but for the
 * near-me endpoints' postcode-centroid file at the top. A change the watcher could not name may
 * be anything, so it counts.
 */
export function isContentChange(path: string | null): boolean {
  if (path === null || path === POSTCODE_CENTROIDS_FILE) return true;
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
  close(): void;
}

/**
 * Calls `onChange` for every change under `dir` that isContentChange counts. One non-recursive
 * watch per folder, not `fs.watch(dir, { recursive: true })`: on Linux, Node 20's recursive watch
 * follows each file's inode, so after the first save that replaces a file by renaming a new one
 * over it (how vim, many IDEs and `git checkout` write) it never reports that file again. A
 * folder's own watch reports its entries by name, whatever their inode.
 */
export function watchContent(dir: string, onChange: () => void): ContentWatcher {
  const watched = new Map<string, { readonly watcher: FSWatcher; readonly inode: number }>();
  const forget = (folder: string) => {
    watched.get(folder)?.watcher.close();
    watched.delete(folder);
  };
  // Watches `folder` and the folders below it (hidden ones never: .git, an editor's); true when
  // it watched a folder it had not watched before.
  const follow = (folder: string): boolean => {
    if (
      relative(dir, folder)
        .split(sep)
        .some((part) => part.startsWith("."))
    )
      return false;
    let inode: number;
    let folders: string[];
    try {
      const info = statSync(folder);
      if (!info.isDirectory()) return false;
      inode = info.ino;
      folders = readdirSync(folder, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(folder, entry.name));
    } catch {
      forget(folder); // gone between the event and now
      return false;
    }
    let added = false;
    if (watched.get(folder)?.inode !== inode) {
      forget(folder); // a folder removed and made again has a new inode and needs a new watch
      const watcher = watch(folder, (_event, name) => {
        if (name === null) return void onChange();
        const path = join(folder, String(name));
        // A brand folder made (or moved in) after the start: watched from now on, and its files,
        // which may have been written before its watch began, rebuilt for.
        if (follow(path) || isContentChange(relative(dir, path))) onChange();
      });
      watcher.on("error", () => forget(folder));
      watched.set(folder, { watcher, inode });
      added = true;
    }
    for (const child of folders) added = follow(child) || added;
    return added;
  };
  follow(dir);
  return {
    close() {
      for (const folder of [...watched.keys()]) forget(folder);
    },
  };
}
