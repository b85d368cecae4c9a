/**
 * The live preview's watcher: which changes under content/ can change the build, and how a burst
 * of them becomes one rebuild of the latest state.
 */
import { watch, type FSWatcher } from "node:fs";

/**
 * Whether a change at `path` (relative to the content folder, as fs.watch names it) can change
 * the build: a YAML file outside hidden folders. An editor's swap and backup files
 * (`.x.yaml.swp`, `x.yaml~`, `4913`), `.git` and anything else are not content. A change fs.watch
 * could not name may be anything, so it counts.
 */
export function isContentChange(path: string | null): boolean {
  if (path === null) return true;
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

/** Calls `onChange` for every change under `dir` that isContentChange counts. */
export function watchContent(dir: string, onChange: () => void): FSWatcher {
  return watch(dir, { recursive: true }, (_event, name) => {
    if (isContentChange(name === null ? null : String(name))) onChange();
  });
}
