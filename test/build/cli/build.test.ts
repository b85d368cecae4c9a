/** The compiled build command, run as CI runs it. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GITHUB_ACTIONS_ENV } from "../../../build/cli/annotations.js";
import {
  branchBrand,
  sampleFixture,
  snapshotFolder,
  type Fixture,
} from "../../helpers/fixtures.js";
import { BUILD_CLI, commitAll, ensureCompiled, runNode } from "../../helpers/cli.js";

beforeAll(ensureCompiled, 120_000);

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());

const broken = "BrandName: Zed\nATM:\n  - Identification: A1\n";

describe("data-quality warnings", () => {
  // A valid branch whose postcode is not in the Royal Mail format: a warning, not an error.
  const loose = branchBrand("Zed Bank", ["Z1"]).replace(
    "PostCode: ZZ1 1ZZ",
    "PostCode: zz11zz\n      Country: GB",
  );

  it("prints each warning and the summary, exits 0, and writes the Markdown report asked for", async () => {
    fixture = await sampleFixture({ "branches/zed-bank.yaml": loose });
    const run = await runNode(
      BUILD_CLI,
      ["validate", "--content", "content", "--quality", "quality.md"],
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
    const run = await runNode(BUILD_CLI, ["validate", "--content", "content"], {
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

  it("prints no annotations outside GitHub Actions", async () => {
    fixture = await sampleFixture({ "atms/zz.yaml": broken });
    const run = await runNode(BUILD_CLI, ["validate", "--content", "content"], {
      cwd: fixture.root,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("content/atms/zz.yaml:3:5:");
  });
});

describe("npm run build with the publication guard", () => {
  const zed = branchBrand("Zed Bank", ["Z1", "Z2", "Z3", "Z4", "Z5", "Z6", "Z7", "Z8"]);

  async function builtThenShrunk(): Promise<Fixture> {
    fixture = await sampleFixture({ "branches/zed-bank.yaml": zed });
    const first = await runNode(BUILD_CLI, ["build", "--content", "content", "--out", "dist"], {
      cwd: fixture.root,
    });
    expect(first.code).toBe(0);
    await fixture.put({ "branches/zed-bank.yaml": null });
    return fixture;
  }

  it("warns of a shrink against the dist/manifest.json it replaces, and builds anyway", async () => {
    await builtThenShrunk();
    const before = await snapshotFolder(fixture.out);
    const run = await runNode(BUILD_CLI, ["build", "--content", "content", "--out", "dist"], {
      cwd: fixture.root,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^publication guard: warning: Branches would shrink from 14 to 6 records \(57\.1% fewer\), more than the 20% allowed, against dist\/manifest\.json; built anyway/m,
    );
    expect(run.stderr).toContain(
      "Publishing it (`npm run deploy`, the Deploy workflow) would be refused unless told it is intended: OPENDATA_ALLOW_SHRINK=1 npm run deploy",
    );
    expect(await snapshotFolder(fixture.out)).not.toEqual(before);
  });

  it("refuses the same shrink with --publish, naming both overrides, and leaves dist/ as it was", async () => {
    await builtThenShrunk();
    const before = await snapshotFolder(fixture.out);
    const run = await runNode(
      BUILD_CLI,
      [
        "build",
        "--content",
        "content",
        "--out",
        "dist",
        "--publish",
        "--baseline",
        "dist/manifest.json",
      ],
      { cwd: fixture.root },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^content\/branches:1:1: \/: Branches would shrink from 14 to 6 records \(57\.1% fewer\), more than the 20% allowed, against dist\/manifest\.json\./m,
    );
    expect(run.stderr).toContain(`--allow-shrink or OPENDATA_ALLOW_SHRINK=1`);
    expect(run.stderr).toContain("Nothing was published: dist/ is unchanged.");
    expect(await snapshotFolder(fixture.out)).toEqual(before);
  });

  it("compares a publication with the last commit when no deployment URL is set", async () => {
    fixture = await sampleFixture({ "branches/zed-bank.yaml": zed });
    const head = await commitAll(fixture.root, "with Zed Bank");
    await fixture.put({ "branches/zed-bank.yaml": null });
    const run = await runNode(
      BUILD_CLI,
      ["build", "--content", "content", "--out", "dist", "--publish"],
      { cwd: fixture.root },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Branches would shrink from 14 to 6 records (57.1% fewer), more than the 20% allowed, against the content of`,
    );
    expect(run.stderr).toContain(head.slice(0, 7));
  });

  it.each([
    ["the flag", [`--allow-shrink`], {}],
    ["the environment variable", [], { OPENDATA_ALLOW_SHRINK: "1" }],
  ])("publishes the shrink when told to with %s, and says so", async (_, flags, env) => {
    await builtThenShrunk();
    const before = await snapshotFolder(fixture.out);
    const run = await runNode(
      BUILD_CLI,
      ["build", "--content", "content", "--out", "dist", ...flags],
      {
        cwd: fixture.root,
        env,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Branches would shrink from 14 to 6 records");
    expect(run.stderr).toContain("published anyway");
    expect(await snapshotFolder(fixture.out)).not.toEqual(before);
  });

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
