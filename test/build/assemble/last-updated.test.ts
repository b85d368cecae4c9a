import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lastUpdated } from "../../../build/assemble/last-updated.js";
import { toRfc3339 } from "../../../build/core/dates.js";

const run = promisify(execFile);
const COMMITTED = 1_780_000_000; // 2026-05-28T20:26:40Z
const EDITED = COMMITTED + 3_600;

let root: string;
let dataset: string;
let site: string;

async function git(...args: string[]) {
  await run("git", args, {
    cwd: root,
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: `@${COMMITTED} +0000`,
      GIT_COMMITTER_DATE: `@${COMMITTED} +0000`,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.org",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.org",
    },
  });
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "opendata-edge-lastupdated-"));
  dataset = join(root, "content", "atms");
  site = join(root, "content", "site.yaml");
  await mkdir(dataset, { recursive: true });
  await writeFile(join(dataset, "a.yaml"), "BrandName: A\n");
  await writeFile(site, "License: x\n");
});
afterEach(() => rm(root, { recursive: true, force: true }));

const paths = () => [dataset, site];
const files = () => [join(dataset, "a.yaml")];

describe("meta.LastUpdated", () => {
  describe("in git", () => {
    beforeEach(async () => {
      await git("init", "-q");
      await git("add", ".");
      await git("commit", "-q", "-m", "content");
    });

    it("is the commit time of the newest commit touching the data set, whatever the file times", async () => {
      await utimes(join(dataset, "a.yaml"), EDITED, EDITED);
      expect(await lastUpdated(paths(), files(), {})).toEqual({
        seconds: COMMITTED,
        source: "git",
      });
    });

    it("moves forward to the edit time when the data set has uncommitted changes", async () => {
      await writeFile(join(dataset, "a.yaml"), "BrandName: B\n");
      await utimes(join(dataset, "a.yaml"), EDITED, EDITED);
      expect(await lastUpdated(paths(), files(), {})).toEqual({
        seconds: EDITED,
        source: "git+worktree",
      });
    });

    it("counts a new, untracked brand file as a change", async () => {
      await writeFile(join(dataset, "b.yaml"), "BrandName: B\n");
      await utimes(join(dataset, "b.yaml"), EDITED, EDITED);
      expect((await lastUpdated(paths(), files(), {})).seconds).toBe(EDITED);
    });

    it("ignores SOURCE_DATE_EPOCH when git knows the history", async () => {
      expect((await lastUpdated(paths(), files(), { SOURCE_DATE_EPOCH: "1" })).seconds).toBe(
        COMMITTED,
      );
    });
  });

  describe("outside git", () => {
    it("is SOURCE_DATE_EPOCH when it is set", async () => {
      expect(await lastUpdated(paths(), files(), { SOURCE_DATE_EPOCH: "1790000000" })).toEqual({
        seconds: 1_790_000_000,
        source: "SOURCE_DATE_EPOCH",
      });
    });

    it("is the newest modification time of the data set's files otherwise", async () => {
      await utimes(join(dataset, "a.yaml"), EDITED, EDITED);
      expect(await lastUpdated(paths(), files(), {})).toEqual({ seconds: EDITED, source: "mtime" });
    });
  });

  it("is written as an RFC 3339 date-time in UTC with whole seconds", () => {
    expect(toRfc3339(COMMITTED)).toBe("2026-05-28T20:26:40Z");
  });
});
