/**
 * What the build reads of git about the content folder (build/core/git.ts), once per build for
 * every step that asks: on scratch repositories, through a `git` on PATH that records each
 * process started and runs the real one.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  changesUnder,
  newestCommitTime,
  GitMemo,
  readContentGit,
  type ContentGit,
} from "../../../build/core/git.js";
import { scratchRepo, siteYaml, type ScratchRepo } from "../../helpers/history.js";

const T0 = 1_790_000_000;

let spy: string;
let log: string;
const path = process.env.PATH;
beforeAll(async () => {
  spy = await mkdtemp(join(tmpdir(), "opendata-edge-git-spy-"));
  log = join(spy, "calls");
  // A git that notes its arguments, one call a line, then runs the real one.
  await writeFile(join(spy, "git"), `#!/bin/sh\necho "$*" >> "${log}"\nexec git-real "$@"\n`);
  await writeFile(join(spy, "git-real"), `#!/bin/sh\nPATH="${path}" exec git "$@"\n`);
  await chmod(join(spy, "git"), 0o755);
  await chmod(join(spy, "git-real"), 0o755);
  process.env.PATH = `${spy}:${path}`;
});
afterAll(async () => {
  process.env.PATH = path;
  await rm(spy, { recursive: true, force: true });
});

const repos: ScratchRepo[] = [];
afterEach(async () => {
  for (const repo of repos.splice(0)) await repo.cleanup();
  await rm(log, { force: true });
});

/** The git commands started since the last call (their first word after the common flags). */
async function started(): Promise<string[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  await rm(log, { force: true });
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      // Past git's own options (`--flag`, `-c name=value`) to the command.
      const words = line.split(" ");
      let i = 0;
      while (words[i]?.startsWith("-")) i += words[i] === "-c" ? 2 : 1;
      return words[i]!;
    });
}

const inRepo = (state: ContentGit) => {
  if (!("top" in state.repo)) throw new Error(`no repository: ${state.repo.reason}`);
  return state.repo;
};

describe("what git says of the content folder", () => {
  it("starts no git process for content outside any repository", async () => {
    const folder = await mkdtemp(join(tmpdir(), "opendata-edge-no-git-"));
    try {
      await mkdir(join(folder, "content"));
      const state = await readContentGit(join(folder, "content"));
      expect("reason" in state.repo).toBe(true);
      expect(await newestCommitTime(state, [join(folder, "content", "atms")])).toBeUndefined();
      expect(await started()).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("keeps what depends on HEAD between builds of one session, and reads the work tree's changes at each", async () => {
    const repo = await scratchRepo();
    repos.push(repo);
    await repo.commit({ "site.yaml": siteYaml(), "atms/a.yaml": "a: 1\n" }, T0);
    const atms = [join(repo.content, "atms"), join(repo.content, "site.yaml")];
    // Two builds sharing one memory, as the live preview's do.
    const memo = new GitMemo();
    const first = await readContentGit(repo.content, memo);
    expect(await newestCommitTime(first, atms)).toBe(T0);

    await writeFile(join(repo.content, "atms", "a.yaml"), "a: 2\n");
    const second = await readContentGit(repo.content, memo);
    expect(await newestCommitTime(second, atms)).toBe(T0);
    expect(changesUnder(second, atms).map((c) => c.path)).toEqual(["content/atms/a.yaml"]);
    // How many git processes a build starts is a benchmark's row (bench/group-bench.ts), not a test's.
  });

  it("reads again what depends on HEAD once HEAD moves", async () => {
    const repo = await scratchRepo();
    repos.push(repo);
    await repo.commit({ "site.yaml": siteYaml(), "atms/a.yaml": "a: 1\n" }, T0);
    const atms = [join(repo.content, "atms"), join(repo.content, "site.yaml")];
    const memo = new GitMemo();
    expect(await newestCommitTime(await readContentGit(repo.content, memo), atms)).toBe(T0);
    await repo.commit({ "atms/a.yaml": "a: 2\n" }, T0 + 60);
    const after = await readContentGit(repo.content, memo);
    expect(await newestCommitTime(after, atms)).toBe(T0 + 60);
    expect(inRepo(after).prefix).toBe("content");
    expect(changesUnder(after, atms)).toEqual([]);
  });

  it("dates every data set as `git log -1 -- paths` does, merges included, from one log of the content folder", async () => {
    const repo = await scratchRepo();
    repos.push(repo);
    await repo.commit(
      {
        "site.yaml": siteYaml(),
        "atms/a.yaml": "a: 1\n",
        "branches/b.yaml": "b: 1\n",
        "pca/p.yaml": "p: 1\n",
      },
      T0,
    );
    // A branch changes ATMs while main changes branches; merged, the merge's change against its
    // first parent is the ATMs, which git dates by the branch's commit, not the merge.
    await repo.git("checkout", "-q", "-b", "side");
    await repo.commit({ "atms/a.yaml": "a: 2\n" }, T0 + 200);
    await repo.git("checkout", "-q", "main");
    await repo.commit({ "branches/b.yaml": "b: 2\n" }, T0 + 300);
    await repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side");
    // A second merge, of PCAs; then main changes branches again.
    await repo.git("checkout", "-q", "-b", "side2");
    await repo.commit({ "pca/p.yaml": "p: 2\n" }, T0 + 500);
    await repo.git("checkout", "-q", "main");
    await repo.git("merge", "-q", "--no-ff", "-m", "merge side2", "side2");
    await repo.commit({ "branches/b.yaml": "b: 3\n" }, T0 + 600);
    await repo.commit({ "README.md": "outside the content\n" }, T0 + 700);

    const state = await readContentGit(repo.content);
    const site = join(repo.content, "site.yaml");
    const dated = async (folder: string) =>
      newestCommitTime(state, [join(repo.content, folder), site]);
    expect(await dated("atms")).toBe(T0 + 200);
    expect(await dated("branches")).toBe(T0 + 600);
    expect(await dated("pca")).toBe(T0 + 500);
    // No file of its own: site.yaml's first commit.
    expect(await dated("bca")).toBe(T0);
    // Each as git itself says.
    for (const folder of ["atms", "branches", "pca", "bca"]) {
      const out = await repo.git(
        "log",
        "-1",
        "--format=%ct",
        "--",
        `content/${folder}`,
        "content/site.yaml",
      );
      expect(await dated(folder)).toBe(Number(out.trim()));
    }
  });

  it("tells deleted, untracked and renamed paths, a rename's source apart from its new path", async () => {
    const repo = await scratchRepo();
    repos.push(repo);
    await repo.commit(
      { "site.yaml": siteYaml(), "atms/a.yaml": "a: 1\n", "atms/b.yaml": "b: 1\n" },
      T0,
    );
    await rm(join(repo.content, "atms", "a.yaml"));
    await writeFile(join(repo.content, "atms", "new file.yaml"), "c: 1\n");
    await rename(join(repo.content, "atms", "b.yaml"), join(repo.content, "atms", "moved.yaml"));
    await repo.git("add", "-A", "content/atms/b.yaml", "content/atms/moved.yaml");
    const state = await readContentGit(repo.content);
    const found = changesUnder(state, [join(repo.content, "atms")]).sort((a, b) =>
      a.path < b.path ? -1 : 1,
    );
    expect(found).toEqual([
      { path: "content/atms/a.yaml", gone: true, source: false },
      { path: "content/atms/b.yaml", gone: true, source: true },
      { path: "content/atms/moved.yaml", gone: false, source: false },
      { path: "content/atms/new file.yaml", gone: false, source: false },
    ]);
  });

  it("says there is no repository with a commit before the first commit", async () => {
    const repo = await scratchRepo();
    repos.push(repo);
    await writeFile(join(repo.content, "site.yaml"), siteYaml());
    const state = await readContentGit(repo.content);
    expect(state.repo).toEqual({
      reason: "the content is not in a git repository with a commit, as from a tarball",
    });
  });
});
