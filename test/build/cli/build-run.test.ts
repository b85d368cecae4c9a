import { existsSync } from "node:fs";
import { cp, readdir, readlink, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runBuildCommand } from "../../../build/cli/build-run.js";
import {
  branchBrand,
  buildFixture,
  FIXTURE_EPOCH,
  sampleFixture,
  digestFolder,
  type Fixture,
} from "../../helpers/fixtures.js";
import { buildCommand, commitAll, WITHOUT_SAMPLE_DATA } from "../../helpers/cli.js";
import { cachePerTest, warmCache } from "../../helpers/sample-build.js";

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());
// Each test's build cache: a copy of the run's, never the project's .cache/build.
const cache = cachePerTest();

const broken = "BrandName: Zed\nATM:\n  - Identification: A1\n";

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

/**
 * One uncached build of the sample, with --timings, in a folder of its own: what it wrote and
 * printed serves both the test of where it writes and the test of the steps it names.
 */
let uncached: Promise<{ root: string; result: Awaited<ReturnType<typeof run>> }> | undefined;
let uncachedFixture: Fixture | undefined;
function uncachedBuild() {
  uncached ??= (async () => {
    uncachedFixture = await sampleFixture();
    const result = await run(
      ["build", "--content", "content", "--out", "out", "--no-cache", "--timings"],
      uncachedFixture.root,
    );
    return { root: uncachedFixture.root, result };
  })();
  return uncached;
}
afterAll(async () => uncachedFixture?.cleanup());

describe("npm run build and validate, run in-process with their surroundings passed in", () => {
  it("validate names a problem at its file, line and column, relative to the folder given, and exits 1", async () => {
    fixture = await sampleFixture({
      ...WITHOUT_SAMPLE_DATA,
      "atms/zed-bank.yaml": "BrandName: 5\nATM: []\n",
    });
    const result = await run(["validate", "--content", "content", "--no-cache"], fixture.root);
    expect(result.code).toBe(1);
    expect(result.stderr.join("\n")).toMatch(/^content\/atms\/zed-bank\.yaml:1:12: \/BrandName: /m);
  });

  it("build writes the output folder given relative to the working folder passed in", async () => {
    const { root, result } = await uncachedBuild();
    expect(result.code).toBe(0);
    expect(existsSync(join(root, "out", "manifest.json"))).toBe(true);
    expect(result.stdout.at(-2)).toMatch(/content files checked; dist\/ written\.$/);
  });
});

describe("annotations", () => {
  it("prints no annotations outside GitHub Actions", async () => {
    fixture = await sampleFixture({ "atms/zz.yaml": broken });
    const run = await buildCommand(["validate", "--content", "content", "--cache", cache()], {
      cwd: fixture.root,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("content/atms/zz.yaml:3:5:");
  });
});

describe("npm run build with the publication guard", () => {
  const zed = branchBrand("Zed Bank", ["Z1", "Z2", "Z3", "Z4", "Z5", "Z6", "Z7", "Z8"]);

  // The content with Zed Bank's eight branches, built once for the tests below: each starts from
  // a copy of its dist/ instead of building it again.
  let withZed: Fixture;
  beforeAll(async () => {
    withZed = await sampleFixture({ "branches/zed-bank.yaml": zed });
    const cacheDir = await warmCache();
    try {
      const first = await buildFixture(withZed, { cacheDir });
      expect(first.ok).toBe(true);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
  afterAll(async () => withZed?.cleanup());

  /** A dist/ built from the content with Zed Bank's eight branches, which are then taken out. */
  async function builtThenShrunk(): Promise<Fixture> {
    fixture = await sampleFixture();
    // dist/ is a relative link to a generation folder beside it (build/write/atomic.ts): both
    // copied, the link as it is, so the fixture's dist/ is its own, as after its own build.
    for (const name of await readdir(withZed.root)) {
      if (name !== "dist" && !name.startsWith(".dist-")) continue;
      await cp(join(withZed.root, name), join(fixture.root, name), {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
    expect(await readlink(fixture.out)).toMatch(/^\.dist-gen-/);
    return fixture;
  }

  it("warns of a shrink against the dist/manifest.json it replaces, and builds anyway", async () => {
    await builtThenShrunk();
    const before = await digestFolder(fixture.out);
    const run = await buildCommand(
      ["build", "--content", "content", "--out", "dist", "--cache", cache()],
      {
        cwd: fixture.root,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^publication guard: warning: Branches would shrink from 14 to 6 records \(57\.1% fewer\), more than the 20% allowed, against dist\/manifest\.json; built anyway/m,
    );
    expect(run.stderr).toContain(
      "Publishing it (`npm run deploy`, the Deploy workflow) would be refused unless told it is intended: OPENDATA_ALLOW_SHRINK=1 npm run deploy",
    );
    expect(await digestFolder(fixture.out)).not.toEqual(before);
  });

  it("refuses the same shrink with --publish, naming both overrides, and leaves dist/ as it was", async () => {
    await builtThenShrunk();
    const before = await digestFolder(fixture.out);
    const run = await buildCommand(
      [
        "build",
        "--content",
        "content",
        "--out",
        "dist",
        "--cache",
        cache(),
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
    expect(await digestFolder(fixture.out)).toEqual(before);
  });

  it("compares a publication with the last commit when no deployment URL is set", async () => {
    fixture = await sampleFixture({ "branches/zed-bank.yaml": zed });
    const head = await commitAll(fixture.root, "with Zed Bank");
    await fixture.put({ "branches/zed-bank.yaml": null });
    const run = await buildCommand(
      ["build", "--content", "content", "--out", "dist", "--cache", cache(), "--publish"],
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
    const before = await digestFolder(fixture.out);
    const run = await buildCommand(
      ["build", "--content", "content", "--out", "dist", "--cache", cache(), ...flags],
      { cwd: fixture.root, env },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Branches would shrink from 14 to 6 records");
    expect(run.stderr).toContain("published anyway");
    expect(await digestFolder(fixture.out)).not.toEqual(before);
  });
});

describe("--timings", () => {
  const steps = (stderr: string[]) =>
    [...(stderr.find((l) => l.startsWith("timings: ")) ?? "").matchAll(/(\w+) \d+ ms/g)].map(
      (m) => m[1],
    );

  it("names each step validate runs, and none it does not: nothing is encoded, indexed or written", async () => {
    fixture = await sampleFixture();
    const result = await run(
      ["validate", "--content", "content", "--out", "out", "--no-cache", "--timings"],
      fixture.root,
    );
    expect(result.code).toBe(0);
    expect(steps(result.stderr)).toEqual([
      "read",
      "check",
      "crossCheck",
      "quality",
      "assemble",
      "limits",
    ]);
    expect(result.stderr.join("\n")).not.toMatch(/compress/);
    expect(existsSync(join(fixture.root, "out"))).toBe(false);
  });

  it("names the ten steps of a build, near, history and documents apart from encode, and says which two overlap", async () => {
    const { result } = await uncachedBuild();
    expect(result.code).toBe(0);
    expect(result.stderr.find((l) => l.startsWith("timings: "))).toMatch(
      / ms \(encode and near at once\)$/,
    );
    expect(steps(result.stderr)).toEqual([
      "read",
      "check",
      "crossCheck",
      "quality",
      "assemble",
      "encode",
      "near",
      "history",
      "documents",
      "write",
    ]);
  });
});
