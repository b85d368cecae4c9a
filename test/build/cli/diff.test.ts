/** The compiled diff command, run as CI runs it. */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SUMMARY_MARKER } from "../../../build/diff/markdown.js";
import { branchBrand, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { commitAll, DIFF_CLI, runNode } from "../../helpers/cli.js";

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());

describe("npm run diff", () => {
  it("prints the Markdown summary of two commits, both built with the cache --cache names", async () => {
    fixture = await sampleFixture({
      "branches/zed-bank.yaml": branchBrand("Zed Bank", ["Z1", "Z2"]),
    });
    const base = await commitAll(fixture.root, "two Zed branches");
    await fixture.put({ "branches/zed-bank.yaml": branchBrand("Zed Bank", ["Z1", "Z3"]) });
    const head = await commitAll(fixture.root, "Z2 closed, Z3 opened", "1790086400");
    const run = await runNode(
      DIFF_CLI,
      [base, head, "--content", "content", "--cache", "diff-cache"],
      { cwd: fixture.root },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith(SUMMARY_MARKER)).toBe(true);
    expect(run.stdout).toContain("#### Branches: 1 added, 1 removed, 0 changed");
    expect(run.stdout).toContain("- Branch Z3 (Zed Bank)\n");
    expect(run.stdout).toContain("- Branch Z2 (Zed Bank)\n");
    // The folder given, relative to the working folder, holds what the two builds checked (and
    // the project's own .cache/build/ is left alone: global-setup.ts checks that for the run).
    expect(await readdir(join(fixture.root, "diff-cache"))).toContain("fingerprint.json");
  });

  it("says which revision it cannot find", async () => {
    fixture = await sampleFixture();
    await commitAll(fixture.root, "samples");
    const run = await runNode(DIFF_CLI, ["no-such-branch", "--content", "content"], {
      cwd: fixture.root,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('diff: "no-such-branch" is not a commit in this repository');
  });
});
