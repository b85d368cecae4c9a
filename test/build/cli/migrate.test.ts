/** The compiled migrate command, run as CI runs it. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../build/core/paths.js";
import { sampleFixture } from "../../helpers/fixtures.js";
import { runNode } from "../../helpers/cli.js";
import { OLD_PCA, oldPcaWith } from "../../helpers/old-shapes.js";

describe("npm run migrate", () => {
  const MIGRATE_CLI = join(PROJECT_ROOT, ".out/build/cli/migrate.js");

  it("says what it rewrote, exits 0, and says there is nothing to do the second time", async () => {
    const fixture = await sampleFixture({ "personal-current-accounts/zed-bank.yaml": OLD_PCA });
    try {
      const first = await runNode(MIGRATE_CLI, ["--content", "content"], { cwd: fixture.root });
      expect(first.code).toBe(0);
      expect(first.stdout.trim().split("\n").at(-1)).toBe(
        "migrate: rewrote 1 file; run npm run validate to check them",
      );
      const second = await runNode(MIGRATE_CLI, ["--content", "content"], { cwd: fixture.root });
      expect(second).toEqual({
        code: 0,
        stdout: "migrate: the content already has the 2.2.1 shapes; nothing to do\n",
        stderr: "",
      });
    } finally {
      await fixture.cleanup();
    }
  });

  it("exits 1 on a Scheme list of two values, at its file, line and column, having written nothing", async () => {
    const twoSchemes = oldPcaWith(
      22,
      22,
      '                - "Visa"',
      '                - "MasterCard"',
    );
    const fixture = await sampleFixture({ "personal-current-accounts/zed-bank.yaml": twoSchemes });
    try {
      const run = await runNode(MIGRATE_CLI, ["--content", "content"], { cwd: fixture.root });
      expect(run.code).toBe(1);
      const errors = run.stderr.trim().split("\n");
      expect(errors[0]).toMatch(/^content\/personal-current-accounts\/zed-bank\.yaml:22:17: /);
      expect(errors.at(-1)).toBe("migrate: 1 problem to fix by hand first; no file was written");
      const text = await readFile(
        join(fixture.content, "personal-current-accounts/zed-bank.yaml"),
        "utf8",
      );
      expect(text).toBe(twoSchemes);
    } finally {
      await fixture.cleanup();
    }
  });

  it("answers an unknown option with its usage and exit code 2", async () => {
    const run = await runNode(MIGRATE_CLI, ["--frobnicate"], { cwd: PROJECT_ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("usage: npm run migrate");
  });
});
