/**
 * The git plumbing of the history (build/history/git.ts) on scratch repositories: which commits
 * are versions, what the build dated each, what the work tree changed, where a shallow clone
 * stops, and what is said when there is no repository.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import {
  datingAt,
  touches,
  objectsAt,
  ObjectReader,
  readHistory,
  repositoryOf,
  type Repository,
  type TreeFile,
} from "../../../build/history/git.js";
import { scratchRepo, siteYaml } from "../../helpers/history.js";

const run = promisify(execFile);
const folders: string[] = [];
afterAll(async () => {
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

const T0 = 1_790_000_000;

/** What `git ls-tree -r` lists below `tree`: its regular files (100644 and 100755) and blobs. */
async function lsTree(repo: Repository, tree: string): Promise<TreeFile[]> {
  const { stdout } = await run("git", ["ls-tree", "-r", "-z", tree], { cwd: repo.top });
  return stdout
    .split("\0")
    .filter(Boolean)
    .map((entry) => {
      const tab = entry.indexOf("\t");
      const [mode, type, blob = ""] = entry.slice(0, tab).split(" ");
      return { mode, type, file: { path: entry.slice(tab + 1), blob } };
    })
    .filter(({ mode, type }) => type === "blob" && (mode === "100644" || mode === "100755"))
    .map(({ file }) => file);
}

/** Each blob's bytes as `git cat-file blob` gives them. */
async function catBlobs(repo: Repository, hashes: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  for (const hash of hashes) {
    const { stdout } = await run("git", ["cat-file", "blob", hash], {
      cwd: repo.top,
      encoding: "buffer",
    });
    blobs.set(hash, stdout);
  }
  return blobs;
}
const PATHS = ["content/atms", "content/site.yaml"];

describe("the versions of a data set in git", () => {
  it("are the first-parent commits touching its folder or site.yaml, newest first, a merge dated as the build at it would", async () => {
    const repo = await scratchRepo();
    folders.push(repo.root);
    const first = await repo.commit({ "site.yaml": siteYaml(), "atms/a.yaml": "a: 1\n" }, T0);
    await repo.commit({ "branches/b.yaml": "b: 1\n" }, T0 + 100); // another data set: no version
    await repo.git("checkout", "-q", "-b", "side");
    const side = await repo.commit({ "atms/a.yaml": "a: 2\n" }, T0 + 200);
    await repo.git("checkout", "-q", "main");
    await repo.commit({ "README.md": "x\n" }, T0 + 300); // outside the paths
    const env = {
      ...process.env,
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.invalid",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.invalid",
      GIT_AUTHOR_DATE: `@${T0 + 400} +0000`,
      GIT_COMMITTER_DATE: `@${T0 + 400} +0000`,
    };
    await run("git", ["merge", "-q", "--no-ff", "side", "-m", "merge"], { cwd: repo.root, env });
    const merge = (await repo.git("rev-parse", "HEAD")).trim();

    const found = await repositoryOf(repo.content);
    expect("top" in found).toBe(true);
    const r = found as Repository;
    expect(r.prefix).toBe("content");
    const { log } = await readHistory(repo.content);
    const commits = log.filter((c) => touches(c.paths, PATHS));
    expect(commits.map((c) => [c.commit, c.merge])).toEqual([
      [merge, true],
      [first, false],
    ]);
    // The merge's change is against its first parent: the side branch's file.
    expect(log[0]!.paths).toEqual(["content/atms/a.yaml"]);
    expect(log.map((c) => c.paths)).toContainEqual(["content/branches/b.yaml"]);
    expect(commits[1]!.seconds).toBe(T0);
    // The build at the merge runs `git log -1 -- paths`, which shows the merged branch's commit.
    const { stdout } = await run("git", ["log", "-1", "--format=%ct", "--", ...PATHS], {
      cwd: repo.root,
    });
    expect(await datingAt(r, merge, PATHS)).toBe(Number(stdout.trim()));
    expect(await datingAt(r, merge, PATHS)).toBe(T0 + 200);
    expect(side).not.toBe(merge);
    expect(touches(["content/atmsx/a.yaml"], PATHS)).toBe(false);
    expect(touches(["content/site.yaml"], PATHS)).toBe(true);
  });

  it("tells a path of the other type as missing: a data set folder committed as a file, site.yaml as a folder", async () => {
    const repo = await scratchRepo();
    folders.push(repo.root);
    const one = await repo.commit({ "site.yaml/x.yaml": "a: 1\n", atms: "BrandName: x\n" }, T0);
    const r = (await repositoryOf(repo.content)) as Repository;
    const found = await objectsAt(r, [
      { name: `${one}:content/atms`, type: "tree" },
      { name: `${one}:content/site.yaml`, type: "blob" },
      { name: `${one}:content/atms`, type: "blob" },
      { name: `${one}:content/site.yaml`, type: "tree" },
    ]);
    expect(found.map((hash) => hash === undefined)).toEqual([true, true, false, false]);
  });

  it("reads trees and blobs in batches, and tells a path missing at a commit", async () => {
    const repo = await scratchRepo();
    folders.push(repo.root);
    const one = await repo.commit({ "site.yaml": siteYaml(), "atms/x/a.yaml": "a: 1\n" }, T0);
    const r = (await repositoryOf(repo.content)) as Repository;
    const [tree, missing] = await objectsAt(r, [
      { name: `${one}:content/atms`, type: "tree" },
      { name: `${one}:content/branches`, type: "tree" },
    ]);
    expect(missing).toBeUndefined();
    const reader = new ObjectReader(r);
    try {
      const files = await reader.treeFiles(tree!);
      expect(files.map((f) => f.path)).toEqual(["x/a.yaml"]);
      const blobs = await reader.readBlobs([files[0]!.blob, files[0]!.blob]);
      expect(blobs.get(files[0]!.blob)!.toString("utf8")).toBe("a: 1\n");
    } finally {
      reader.close();
    }
  });

  it("reads many trees and blobs on one process, as ls-tree and cat-file give them", async () => {
    const repo = await scratchRepo();
    folders.push(repo.root);
    const one = await repo.commit(
      {
        "site.yaml": siteYaml(),
        "atms/z.yaml": "z: 1\n",
        "atms/brand/b.yaml": "b: 1\n",
        "atms/brand/deeper/c.yaml": "c: 1\n",
        "atms/brand-é.yaml": "e: 1\n",
        "atms/a.yaml": "a: 1\n",
      },
      T0,
    );
    // A symbolic link and an executable file: ls-tree -r lists both; only the file is kept.
    await symlink("a.yaml", join(repo.content, "atms", "link.yaml"));
    await writeFile(join(repo.content, "atms", "run.yaml"), "r: 1\n", { mode: 0o755 });
    const two = await repo.commit({ "atms/a.yaml": "a: 2\n" }, T0 + 60);
    const r = (await repositoryOf(repo.content)) as Repository;
    const trees = await objectsAt(r, [
      { name: `${one}:content/atms`, type: "tree" },
      { name: `${two}:content/atms`, type: "tree" },
    ]);
    const reader = new ObjectReader(r);
    try {
      for (const tree of trees) {
        const files = await reader.treeFiles(tree!);
        expect(files).toEqual(await lsTree(r, tree!));
        const blobs = await reader.readBlobs(files.map((f) => f.blob));
        expect(blobs).toEqual(
          await catBlobs(
            r,
            files.map((f) => f.blob),
          ),
        );
      }
      expect((await reader.treeFiles(trees[1]!)).map((f) => f.path)).toEqual([
        "a.yaml",
        "brand-é.yaml",
        "brand/b.yaml",
        "brand/deeper/c.yaml",
        "run.yaml",
        "z.yaml",
      ]);
      await expect(reader.readBlobs([trees[0]!])).rejects.toThrow(/is not a blob/);
    } finally {
      reader.close();
    }
  });

  it("finds an object by any name git takes, and nothing for a name that names none, spaces or a line break in it", async () => {
    const repo = await scratchRepo();
    folders.push(repo.root);
    const one = await repo.commit({ "site.yaml": siteYaml() }, T0);
    const r = (await repositoryOf(repo.content)) as Repository;
    const reader = new ObjectReader(r);
    try {
      const commit = await reader.find("HEAD^{commit}");
      expect([commit?.hash, commit?.type]).toEqual([one, "commit"]);
      expect(commit!.bytes.toString("utf8")).toMatch(
        new RegExp(`^committer .* ${T0} [+-]\\d{4}$`, "m"),
      );
      expect((await reader.find(`${one}:content/site.yaml`))?.bytes.toString("utf8")).toBe(
        siteYaml(),
      );
      expect(await reader.find(`${one}:content/no such folder`)).toBeUndefined();
      expect(await reader.find("no-such-branch^{commit}")).toBeUndefined();
      expect(await reader.find("HEAD\nHEAD")).toBeUndefined();
      // The process still answers in order after names that named nothing.
      expect((await reader.find(`${one}:content`))?.type).toBe("tree");
    } finally {
      reader.close();
    }
  });

  it("says why there is no history outside a repository, and tells a shallow clone", async () => {
    const outside = await mkdtemp(join(tmpdir(), "opendata-edge-no-git-"));
    folders.push(outside);
    const none = await repositoryOf(join(outside, "content"));
    expect("reason" in none && none.reason).toMatch(/not in a git repository/);

    const repo = await scratchRepo();
    folders.push(repo.root);
    await repo.commit({ "site.yaml": siteYaml() }, T0);
    await repo.commit({ "atms/a.yaml": "a: 1\n" }, T0 + 60);
    const clone = await mkdtemp(join(tmpdir(), "opendata-edge-shallow-"));
    folders.push(clone);
    await run("git", ["clone", "-q", "--depth", "1", `file://${repo.root}`, clone]);
    const shallow = (await repositoryOf(join(clone, "content"))) as Repository;
    expect(shallow.shallow).toBe(true);
    expect(((await repositoryOf(repo.content)) as Repository).shallow).toBe(false);
  });
});
