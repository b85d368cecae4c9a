/**
 * The build command as CI reads it: its warnings and annotations, in-process with CI's
 * environment passed in (build-run.ts, what the compiled build.ts runs), and the compiled
 * command as a process where the process is what is tested: a setting read from its own
 * environment, and its exit code. Its output through a pipe is exit.test.ts's.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GITHUB_ACTIONS_ENV } from "../../../build/cli/annotations.js";
import { branchBrand, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { BUILD_CLI, buildCommand, runNode } from "../../helpers/cli.js";
import { cachePerTest } from "../../helpers/sample-build.js";

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());
// Each run's build cache: a copy of the run's, never the project's .cache/build.
const cache = cachePerTest();

const broken = "BrandName: Zed\nATM:\n  - Identification: A1\n";

describe("data-quality warnings", () => {
  // A valid branch whose postcode is not in the Royal Mail format: a warning, not an error.
  const loose = branchBrand("Zed Bank", ["Z1"]).replace(
    "PostCode: ZZ1 1ZZ",
    "PostCode: zz11zz\n      Country: GB",
  );

  it("prints each warning and the summary, exits 0, and writes the Markdown report asked for", async () => {
    fixture = await sampleFixture({ "branches/zed-bank.yaml": loose });
    const run = await buildCommand(
      ["validate", "--content", "content", "--cache", cache(), "--quality", "quality.md"],
      { cwd: fixture.root, env: { [GITHUB_ACTIONS_ENV]: "true" } },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '::warning file=content/branches/zed-bank.yaml,line=8,col=17,title=/Branch/0/PostalAddress/PostCode::PostCode "zz11zz" is not in the Royal Mail format (like "SW1A 1AA"); write it "ZZ1 1ZZ"',
    );
    expect(run.stderr).toContain(
      'content/branches/zed-bank.yaml:8:17: warning: /Branch/0/PostalAddress/PostCode: PostCode "zz11zz" is not in the Royal Mail format',
    );
    expect(run.stdout).toMatch(/Data quality: 1 finding .*\n\s+1\s+postcode-format\s+branches\n/);
    const report = await readFile(join(fixture.root, "quality.md"), "utf8");
    expect(report).toContain("| `postcode-format` | branches | 1 |");
  });
});

describe("validation under GitHub Actions", () => {
  it("prints every problem as an error annotation at its file, line and column", async () => {
    // A comma in the file name: property values escape it (%2C), as GitHub requires.
    fixture = await sampleFixture({ "atms/zz,1.yaml": broken });
    const run = await buildCommand(["validate", "--content", "content", "--cache", cache()], {
      cwd: fixture.root,
      env: { [GITHUB_ACTIONS_ENV]: "true" },
    });
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split("\n")).toEqual([
      '::error file=content/atms/zz%2C1.yaml,line=3,col=5,title=/ATM/0/Location::required field "Location" is missing',
      '::error file=content/atms/zz%2C1.yaml,line=3,col=5,title=/ATM/0/SupportedCurrencies::required field "SupportedCurrencies" is missing',
    ]);
    // The plain report is still there, unchanged.
    expect(run.stderr).toContain(
      'content/atms/zz,1.yaml:3:5: /ATM/0/Location: required field "Location" is missing',
    );
  });
});

describe("a setting it cannot read", () => {
  it("rejects an override value it cannot read before doing any work", async () => {
    fixture = await sampleFixture();
    const run = await runNode(BUILD_CLI, ["build", "--content", "content", "--out", "dist"], {
      cwd: fixture.root,
      env: { OPENDATA_ALLOW_SHRINK: "perhaps" },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`OPENDATA_ALLOW_SHRINK must be 1`);
  });
});
