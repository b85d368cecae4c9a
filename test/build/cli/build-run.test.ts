import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runBuildCommand } from "../../../build/cli/build-run.js";
import { FIXTURE_EPOCH, sampleFixture, type Fixture } from "../../helpers/fixtures.js";

let fixture: Fixture | undefined;
afterEach(async () => fixture?.cleanup());

/** Runs the command in this process, in the fixture's folder, collecting what it prints. */
async function run(argv: string[], root: string) {
  const out = { stdout: [] as string[], stderr: [] as string[] };
  const code = await runBuildCommand(argv, {
    cwd: root,
    env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
    stdout: (line) => out.stdout.push(line),
    stderr: (line) => out.stderr.push(line),
  });
  return { code, ...out };
}

describe("npm run build and validate, run in-process with their surroundings passed in", () => {
  it("validate names a problem at its file, line and column, relative to the folder given, and exits 1", async () => {
    fixture = await sampleFixture({ "atms/zed-bank.yaml": "BrandName: 5\nATM: []\n" });
    const result = await run(["validate", "--content", "content", "--no-cache"], fixture.root);
    expect(result.code).toBe(1);
    expect(result.stderr.join("\n")).toMatch(/^content\/atms\/zed-bank\.yaml:1:12: \/BrandName: /m);
  });

  it("build writes the output folder given relative to the working folder passed in", async () => {
    fixture = await sampleFixture();
    const result = await run(
      ["build", "--content", "content", "--out", "out", "--no-cache"],
      fixture.root,
    );
    expect(result.code).toBe(0);
    expect(existsSync(join(fixture.root, "out", "manifest.json"))).toBe(true);
    expect(result.stdout.at(-2)).toMatch(/content files checked; dist\/ written\.$/);
  });
});
