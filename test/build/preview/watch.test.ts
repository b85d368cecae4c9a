import { afterEach, describe, expect, it, vi } from "vitest";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { coalesce, isContentChange, watchContent } from "../../../build/preview/watch.js";

describe("which changes under content/ the preview rebuilds for", () => {
  const cases: [path: string, rebuilds: boolean][] = [
    ["site.yaml", true],
    ["branches/pennyfold.yaml", true],
    ["atms/big-bank/part-0001.yml", true],
    ["branches/.pennyfold.yaml.swp", false],
    ["branches/.pennyfold.yaml.swx", false],
    ["branches/pennyfold.yaml~", false],
    ["branches/4913", false],
    [".git/index", false],
    [".git/refs/heads/main.yaml", false],
    ["branches/notes.txt", false],
    ["postcode-centroids.csv", true],
    ["branches/postcode-centroids.csv", false],
    ["branches", false],
  ];
  for (const [path, rebuilds] of cases) {
    it(`${rebuilds ? "rebuilds" : "does not rebuild"} for a change at ${JSON.stringify(path)}`, () => {
      expect(isContentChange(path)).toBe(rebuilds);
    });
  }
});

describe("watching the content folder", () => {
  interface Watched {
    readonly dir: string;
    /** Changes reported so far. */
    count(): number;
    /** Waits, a bounded time, until more than `seen` changes were reported; the count then. */
    after(seen: number): Promise<number>;
    /** Waits long enough for any report to arrive (the watcher's own delays included); the count then. */
    quiet(): Promise<number>;
  }
  let open: { close(): Promise<void> | void; dir: string } | undefined;
  afterEach(async () => {
    await open?.close();
    if (open) await rm(open.dir, { recursive: true, force: true });
    open = undefined;
  });

  const wait = (ms: number) => new Promise((wake) => setTimeout(wake, ms));
  /** A content folder with one branch file, watched. */
  async function watched(): Promise<Watched> {
    const dir = await mkdtemp(join(tmpdir(), "opendata-edge-watch-"));
    await mkdir(join(dir, "branches"));
    await writeFile(join(dir, "branches", "pennyfold.yaml"), "BrandName: Pennyfold\n");
    let changes = 0;
    const watcher = await watchContent(dir, () => void changes++);
    open = { close: () => watcher.close(), dir };
    return {
      dir,
      count: () => changes,
      async after(seen) {
        for (let waited = 0; waited < 5_000 && changes <= seen; waited += 20) await wait(20);
        return changes;
      },
      async quiet() {
        await wait(500);
        return changes;
      },
    };
  }
  const run = promisify(execFile);

  it("reports every save that replaces a file by renaming a new one over it, not only the first", async () => {
    const w = await watched();
    // How vim, many IDEs and git write a file: a new file, renamed over the old one.
    for (let save = 1; save <= 3; save++) {
      const seen = w.count();
      const temp = join(w.dir, "branches", `.pennyfold.yaml.${save}.tmp`);
      await writeFile(temp, `BrandName: Pennyfold ${save}\n`);
      await rename(temp, join(w.dir, "branches", "pennyfold.yaml"));
      expect(await w.after(seen), `save ${save}`).toBeGreaterThan(seen);
    }
  });

  it("reports saves made by sed -i and git checkout, which rename or rewrite the file", async () => {
    const w = await watched();
    const file = join(w.dir, "branches", "pennyfold.yaml");
    for (let edit = 1; edit <= 2; edit++) {
      const seen = w.count();
      await run("sed", ["-i", `s/Pennyfold.*/Pennyfold ${edit}/`, file]);
      expect(await w.after(seen), `sed -i ${edit}`).toBeGreaterThan(seen);
    }
    const git = (...args: string[]) =>
      run("git", ["-c", "user.name=Editor", "-c", "user.email=editor@example.invalid", ...args], {
        cwd: w.dir,
      });
    await git("init", "-q");
    await git("add", "-A");
    await git("commit", "-q", "-m", "content");
    await writeFile(file, "BrandName: Edited\n");
    const seen = await w.quiet();
    await git("checkout", "--", "branches/pennyfold.yaml");
    expect(await w.after(seen), "git checkout").toBeGreaterThan(seen);
    expect(await readFile(file, "utf8")).toBe("BrandName: Pennyfold 2\n");
  });

  it("reports a file removed, and one added, deleted and written again", async () => {
    const w = await watched();
    let seen = w.count();
    await writeFile(join(w.dir, "branches", "second.yaml"), "BrandName: Second\n");
    seen = await w.after(seen);
    await rm(join(w.dir, "branches", "second.yaml"));
    expect(await w.after(seen), "removed").toBeGreaterThan(seen);
    seen = await w.quiet();
    await writeFile(join(w.dir, "branches", "second.yaml"), "BrandName: Second again\n");
    expect(await w.after(seen), "written again").toBeGreaterThan(seen);
  });

  it("watches a brand folder made after the start, and one removed and made again", async () => {
    const w = await watched();
    let seen = w.count();
    await mkdir(join(w.dir, "atms", "big-bank"), { recursive: true });
    await writeFile(join(w.dir, "atms", "big-bank", "part-1.yaml"), "BrandName: Big\n");
    seen = await w.after(seen);
    expect(seen, "new folders and their file").toBeGreaterThan(0);
    seen = await w.quiet();
    await writeFile(join(w.dir, "atms", "big-bank", "part-1.yaml"), "BrandName: Bigger\n");
    expect(await w.after(seen), "a save in the new folder").toBeGreaterThan(seen);
    seen = await w.quiet();
    await rm(join(w.dir, "atms", "big-bank"), { recursive: true });
    expect(await w.after(seen), "the folder removed").toBeGreaterThan(seen);
    seen = await w.quiet();
    await mkdir(join(w.dir, "atms", "big-bank"));
    await writeFile(join(w.dir, "atms", "big-bank", "part-1.yaml"), "BrandName: Back\n");
    expect(await w.after(seen), "the folder made again").toBeGreaterThan(seen);
    seen = await w.quiet();
    await writeFile(join(w.dir, "atms", "big-bank", "part-1.yaml"), "BrandName: Back again\n");
    expect(await w.after(seen), "a save in the folder made again").toBeGreaterThan(seen);
  });

  it("watches a brand folder moved in with its files", async () => {
    const w = await watched();
    const outside = join(w.dir, "..", `${basename(w.dir)}-outside`);
    await mkdir(outside);
    try {
      await writeFile(join(outside, "a.yaml"), "BrandName: Moved\n");
      let seen = await w.quiet();
      await rename(outside, join(w.dir, "branches", "moved-bank"));
      expect(await w.after(seen), "the folder moved in").toBeGreaterThan(seen);
      seen = await w.quiet();
      await writeFile(join(w.dir, "branches", "moved-bank", "a.yaml"), "BrandName: Moved on\n");
      expect(await w.after(seen), "a save in the moved folder").toBeGreaterThan(seen);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("reports nothing for an editor's swap and backup files, vim's 4913, .git or other files", async () => {
    const w = await watched();
    const seen = await w.quiet();
    const branches = join(w.dir, "branches");
    await writeFile(join(branches, ".pennyfold.yaml.swp"), "x");
    await writeFile(join(branches, ".pennyfold.yaml.swx"), "x");
    await writeFile(join(branches, "pennyfold.yaml~"), "x");
    // vim writes and removes a file named 4913 to test that it may write in the folder.
    await writeFile(join(branches, "4913"), "");
    await rm(join(branches, "4913"));
    await writeFile(join(branches, "notes.txt"), "x");
    await mkdir(join(w.dir, ".git", "refs"), { recursive: true });
    await writeFile(join(w.dir, ".git", "index"), "x");
    await writeFile(join(w.dir, ".git", "refs", "main.yaml"), "x");
    expect(await w.quiet()).toBe(seen);
    // And the watcher is still there: a save is reported.
    await writeFile(join(branches, "pennyfold.yaml"), "BrandName: Pennyfold again\n");
    expect(await w.after(seen)).toBeGreaterThan(seen);
  });
});

describe("coalescing saves into rebuilds", () => {
  afterEach(() => vi.useRealTimers());

  it("makes one run of several pokes within the quiet time", async () => {
    vi.useFakeTimers();
    let runs = 0;
    const c = coalesce(() => {
      runs++;
      return Promise.resolve();
    }, 30);
    for (let i = 0; i < 5; i++) {
      c.poke();
      await vi.advanceTimersByTimeAsync(10);
    }
    await vi.advanceTimersByTimeAsync(30);
    await c.idle();
    expect(runs).toBe(1);
  });

  it("says another run is asked for from a poke until that run starts, and not before", async () => {
    vi.useFakeTimers();
    let finish: (() => void) | undefined;
    const seen: boolean[] = [];
    const c = coalesce(async () => {
      seen.push(c.pending());
      await new Promise<void>((resolve) => (finish = resolve));
    }, 30);
    expect(c.pending()).toBe(false);
    c.poke();
    expect(c.pending()).toBe(true);
    await vi.advanceTimersByTimeAsync(30);
    // The run under way reads the files as they are: nothing newer is asked for yet.
    expect(seen).toEqual([false]);
    expect(c.pending()).toBe(false);
    c.poke();
    expect(c.pending()).toBe(true);
    await vi.advanceTimersByTimeAsync(30);
    expect(c.pending()).toBe(true);
    finish!();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([false, false]);
    finish!();
    await c.idle();
    expect(c.pending()).toBe(false);
  });

  it("runs once more after a run during which saves arrived, never two at once", async () => {
    vi.useFakeTimers();
    let running = 0;
    let most = 0;
    let runs = 0;
    let finish: (() => void) | undefined;
    const c = coalesce(async () => {
      runs++;
      most = Math.max(most, ++running);
      await new Promise<void>((resolve) => (finish = resolve));
      running--;
    }, 30);
    c.poke();
    await vi.advanceTimersByTimeAsync(30);
    expect(runs).toBe(1);
    c.poke();
    await vi.advanceTimersByTimeAsync(30);
    c.poke();
    await vi.advanceTimersByTimeAsync(30);
    expect(runs).toBe(1);
    finish!();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    finish!();
    await c.idle();
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });

  it("starts nothing once closed", async () => {
    vi.useFakeTimers();
    let runs = 0;
    const c = coalesce(() => {
      runs++;
      return Promise.resolve();
    }, 30);
    c.poke();
    await c.close();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(0);
  });
});
