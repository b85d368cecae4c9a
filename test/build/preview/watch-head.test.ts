/**
 * The live preview's watcher of git's HEAD (build/preview/watch.ts, watchHead): in scratch
 * repositories made by the test, a commit, an amend, a checkout and a reset are each reported;
 * another branch moving, and the refs being packed, are not; a linked worktree watches its own
 * HEAD and the branch it has out.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitFolders, headCommit, watchHead } from "../../../build/preview/watch.js";
import { scratchRepo, type ScratchRepo } from "../../helpers/history.js";

const wait = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

interface Watched {
  count(): number;
  /** Waits, at most 5 s, until more than `seen` moves were reported; the count then. */
  after(seen: number): Promise<number>;
  /** Waits long enough for any report to arrive (the watcher's own delays included); the count then. */
  quiet(): Promise<number>;
}

const open: { close(): Promise<void> }[] = [];
const repos: ScratchRepo[] = [];
afterEach(async () => {
  for (const watcher of open.splice(0)) await watcher.close();
  for (const repo of repos.splice(0)) await repo.cleanup();
});

async function repoWithCommit(): Promise<ScratchRepo> {
  const repo = await scratchRepo();
  repos.push(repo);
  await repo.commit({ "site.yaml": "a: 1\n" }, 1_790_000_000);
  return repo;
}

async function watched(dir: string): Promise<Watched> {
  let moves = 0;
  const watcher = await watchHead(dir, () => void moves++);
  expect(watcher).toBeDefined();
  open.push(watcher!);
  return {
    count: () => moves,
    async after(seen) {
      for (let waited = 0; waited < 5_000 && moves <= seen; waited += 20) await wait(20);
      return moves;
    },
    async quiet() {
      await wait(500);
      return moves;
    },
  };
}

describe("watching git's HEAD", () => {
  it("reports a commit with no save after it, an amend, a checkout and a reset, each once", async () => {
    const repo = await repoWithCommit();
    const w = await watched(repo.content);
    let seen = w.count();
    await repo.commit({ "site.yaml": "a: 2\n" }, 1_790_000_100);
    seen = await w.after(seen);
    expect(seen, "commit").toBe(1);
    await repo.git("commit", "-q", "--amend", "-m", "amended");
    seen = await w.after(seen);
    expect(seen, "amend").toBe(2);
    await repo.git("checkout", "-q", "-b", "other", "HEAD~1");
    seen = await w.after(seen);
    expect(seen, "checkout").toBe(3);
    await repo.git("reset", "-q", "--hard", "main");
    seen = await w.after(seen);
    expect(seen, "reset").toBe(4);
    expect(await w.quiet()).toBe(4);
  });

  it("reports nothing when another branch moves or the refs are packed, and a commit after packing", async () => {
    const repo = await repoWithCommit();
    const w = await watched(repo.content);
    const seen = await w.quiet();
    await repo.git("branch", "elsewhere");
    await repo.git("update-ref", "refs/heads/elsewhere", "HEAD");
    await repo.git("pack-refs", "--all");
    await repo.git("tag", "v1");
    expect(await w.quiet()).toBe(seen);
    await repo.commit({ "site.yaml": "a: 3\n" }, 1_790_000_200);
    expect(await w.after(seen)).toBe(seen + 1);
  });

  it("reads HEAD's commit as git does: loose, packed, detached, and none before the first commit", async () => {
    const repo = await scratchRepo();
    repos.push(repo);
    const folders = (await gitFolders(repo.content))!;
    expect(await headCommit(folders)).toBe("");
    const first = await repo.commit({ "site.yaml": "a: 1\n" }, 1_790_000_000);
    expect(await headCommit(folders)).toBe(first);
    await repo.git("pack-refs", "--all");
    expect(await headCommit(folders)).toBe(first);
    const second = await repo.commit({ "site.yaml": "a: 2\n" }, 1_790_000_100);
    await repo.git("checkout", "-q", "--detach", first);
    expect(await headCommit(folders)).toBe(first);
    await repo.git("checkout", "-q", "main");
    expect(await headCommit(folders)).toBe(second);
  });

  it("in a linked worktree, reports its own commits and not those on the main work tree's branch", async () => {
    const repo = await repoWithCommit();
    const tree = join(repo.root, "..", `${repo.root.split("/").pop()}-tree`);
    await repo.git("worktree", "add", "-q", "-b", "side", tree);
    try {
      const folders = (await gitFolders(join(tree, "content")))!;
      expect(folders.gitDir).toBe(
        join(repo.root, ".git", "worktrees", folders.gitDir.split("/").pop()!),
      );
      expect(folders.commonDir).toBe(join(repo.root, ".git"));
      const w = await watched(join(tree, "content"));
      const seen = await w.quiet();
      await repo.commit({ "site.yaml": "a: 9\n" }, 1_790_000_300);
      expect(await w.quiet(), "a commit on main").toBe(seen);
      await repo.git("-C", tree, "commit", "-q", "--allow-empty", "-m", "on side");
      expect(await w.after(seen), "a commit in the worktree").toBe(seen + 1);
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });

  it("watches nothing outside a repository", async () => {
    const dir = await mkdtemp(join(tmpdir(), "opendata-edge-nogit-"));
    try {
      expect(await watchHead(dir, () => undefined)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
