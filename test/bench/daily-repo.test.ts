import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dailyFeeds,
  DailyWriter,
  generatedFeed,
  makeDailyRepository,
  type DailyOptions,
} from "../../bench/daily-repo.js";
import { runImport } from "../../build/cli/import-run.js";

let root: string;
let options: DailyOptions;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "daily-repo-"));
  // A small start feed with values the importer repairs: a three-letter language code and a
  // number where the schema wants text, in some records, so each day's repair count is tested too.
  const feed = generatedFeed(40);
  const records = feed.data[0]!.Brand[0]!.ATM as Record<string, unknown>[];
  records[3]!.SupportedLanguages = ["eng", "cym"];
  records[11]!.MinimumPossibleAmount = 20;
  await writeFile(join(root, "atms_2024-01-21.json"), JSON.stringify(feed));
  options = { days: 12, seed: 7, feed: join(root, "atms_2024-01-21.json") };
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function git(repo: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: repo, encoding: "utf8", maxBuffer: 1 << 26 });
}

describe("the benchmark's daily repository", () => {
  it("writes each day's file as npm run import -- --repair --force writes that day's feed, byte for byte", async () => {
    const writer = new DailyWriter();
    const imported: string[] = [];
    const days = [...dailyFeeds(options)].filter((day) => [0, 1, 6, 11].includes(day.index));
    for (const day of days) {
      const cwd = await mkdtemp(join(root, `import-${day.index}-`));
      await writeFile(day.source, JSON.stringify(day.feed));
      const lines: string[] = [];
      const code = await runImport(["--content", "content", "--repair", "--force", day.source], {
        cwd,
        now: () => day.date,
        stdout: (line) => lines.push(line),
        stderr: (line) => lines.push(line),
        env: {},
        cacheDir: false,
      });
      expect(code, lines.join("\n")).toBe(0);
      imported.push(await readFile(join(cwd, "content", "atms", "synthetic-bank.yaml"), "utf8"));
      expect(writer.path(day.feed)).toBe("atms/synthetic-bank.yaml");
      expect(writer.render(day.feed, day.source, day.date, join(cwd, "content"))).toBe(
        imported.at(-1),
      );
    }
    // The repairs are counted as the importer counts them: two languages and one amount.
    expect(imported[0]).toContain("with 3 repairs (--repair)");
  });

  it("dates the feeds a day apart, with meta.LastUpdated that day", () => {
    const days = [...dailyFeeds(options)];
    expect(days.map((d) => d.feed.meta.LastUpdated)).toEqual([
      "2024-01-21T06:23:28.376Z",
      "2024-01-22T06:23:28.376Z",
      "2024-01-23T06:23:28.376Z",
      "2024-01-24T06:23:28.376Z",
      "2024-01-25T06:23:28.376Z",
      "2024-01-26T06:23:28.376Z",
      "2024-01-27T06:23:28.376Z",
      "2024-01-28T06:23:28.376Z",
      "2024-01-29T06:23:28.376Z",
      "2024-01-30T06:23:28.376Z",
      "2024-01-31T06:23:28.376Z",
      "2024-02-01T06:23:28.376Z",
    ]);
  });

  it("makes the same commits from the same seed, and other commits from another", async () => {
    const a = await makeDailyRepository(join(root, "a"), options);
    await makeDailyRepository(join(root, "b"), options);
    await makeDailyRepository(join(root, "c"), { ...options, seed: 8 });
    const commits = (repo: string) => git(join(root, repo), "rev-list", "main").trim().split("\n");
    expect(commits("a")).toHaveLength(12);
    expect(commits("b")).toEqual(commits("a"));
    expect(commits("c")).not.toEqual(commits("a"));
    // The work tree is the last commit's.
    expect(git(a.repo, "status", "--porcelain")).toBe("");
    expect(a.file).toBe("atms/synthetic-bank.yaml");
  });

  it("dates each commit one day after the one before, as author and committer", () => {
    const lines = git(join(root, "a"), "log", "--reverse", "--format=%at %ct", "main")
      .trim()
      .split("\n");
    const times = lines.map((line) => line.split(" ").map(Number));
    expect(times[0]).toEqual([1705818208, 1705818208]);
    for (let i = 1; i < times.length; i++) {
      expect(times[i]![0]! - times[i - 1]![0]!).toBe(86400);
      expect(times[i]![1]).toBe(times[i]![0]);
    }
  });

  it("changes between one and four records in each commit after the first, and nothing else", () => {
    const repo = join(root, "a");
    const ids = git(repo, "rev-list", "--reverse", "main").trim().split("\n");
    const recordsAt = (commit: string) => {
      const brand = load(git(repo, "show", `${commit}:content/atms/synthetic-bank.yaml`)) as {
        BrandName: string;
        ATM: { Identification: string }[];
      };
      expect(brand.BrandName).toBe("Synthetic Bank");
      return new Map(brand.ATM.map((r) => [r.Identification, JSON.stringify(r)]));
    };
    expect(git(repo, "ls-tree", "-r", "--name-only", ids[0]!).trim().split("\n")).toEqual([
      "content/atms/synthetic-bank.yaml",
      "content/site.yaml",
    ]);
    for (const commit of ids.slice(1)) {
      expect(git(repo, "diff", "--name-only", `${commit}~1`, commit).trim()).toBe(
        "content/atms/synthetic-bank.yaml",
      );
    }
    let before = recordsAt(ids[0]!);
    expect(before.size).toBe(40);
    for (const commit of ids.slice(1)) {
      const after = recordsAt(commit);
      const keys = new Set([...before.keys(), ...after.keys()]);
      const differing = [...keys].filter((k) => before.get(k) !== after.get(k)).length;
      expect(differing).toBeGreaterThanOrEqual(1);
      expect(differing).toBeLessThanOrEqual(4);
      before = after;
    }
  });
});
