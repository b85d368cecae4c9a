/**
 * CI here cannot reach GitHub or Cloudflare, so the workflows are checked as files: they parse,
 * and the steps the project relies on are there, in order, with the settings that matter.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SUMMARY_MARKER } from "../../build/diff/markdown.js";
import { PROJECT_ROOT } from "../../build/core/paths.js";
import { commitAll } from "../helpers/cli.js";

const WORKFLOWS = join(PROJECT_ROOT, ".github/workflows");
const ALLOWED_ACTIONS = [
  "actions/checkout",
  "actions/setup-node",
  "actions/github-script",
  "actions/cache",
];
const SECRETS = ["CLOUDFLARE_API_TOKEN", "CLOUDFLARE_ACCOUNT_ID"];

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}

interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<
    string,
    {
      steps: Step[];
      env?: Record<string, unknown>;
      strategy?: { matrix?: Record<string, unknown>; "fail-fast"?: boolean };
    }
  >;
}

async function load(
  name: string,
): Promise<{ text: string; workflow: Workflow; steps: Step[]; job: Workflow["jobs"][string] }> {
  const text = await readFile(join(WORKFLOWS, name), "utf8");
  const workflow = parse(text) as Workflow;
  const jobs = Object.values(workflow.jobs);
  expect(jobs, `${name} has one job`).toHaveLength(1);
  return { text, workflow, steps: jobs[0]!.steps, job: jobs[0]! };
}

/** Index of the first step running a command that matches, or -1. */
function runs(steps: Step[], command: RegExp): number {
  return steps.findIndex((s) => typeof s.run === "string" && command.test(s.run));
}

function uses(steps: Step[], action: string): Step | undefined {
  return steps.find((s) => s.uses?.split("@")[0] === action);
}

describe("every workflow", () => {
  it("parses, uses only checkout, setup-node, github-script and cache, and expands no expression inside a script", async () => {
    const files = (await readdir(WORKFLOWS)).filter((f) => /\.ya?ml$/.test(f)).sort();
    expect(files).toEqual(["checks.yml", "deploy.yml"]);
    for (const file of files) {
      const { steps } = await load(file);
      for (const step of steps) {
        if (step.uses)
          expect(ALLOWED_ACTIONS, `${file}: ${step.uses}`).toContain(step.uses.split("@")[0]);
        // Values reach scripts through env, so content (branch names, titles) is never code.
        if (step.run) expect(step.run, `${file}: ${step.name}`).not.toContain("${{");
      }
    }
  });

  it("checks out full history and installs with npm ci", async () => {
    for (const file of ["checks.yml", "deploy.yml"]) {
      const { steps } = await load(file);
      expect(uses(steps, "actions/checkout")?.with?.["fetch-depth"], file).toBe(0);
      expect(runs(steps, /^npm ci\b/), file).toBeGreaterThan(-1);
    }
  });

  it("keeps the build cache between runs, restored before the first build and saved per commit", async () => {
    for (const file of ["checks.yml", "deploy.yml"]) {
      const { steps } = await load(file);
      const cache = uses(steps, "actions/cache");
      expect(cache?.with?.path, file).toBe(".cache/build");
      // A new key per commit, and the newest earlier one restored: the cache moves forward.
      expect(String(cache?.with?.key), file).toMatch(/\$\{\{ github\.sha \}\}$/);
      expect(String(cache?.with?.key), file).toContain(String(cache?.with?.["restore-keys"]));
      const first = Math.min(
        ...[/npm (run (-s )?)?(validate|test|build)\b/]
          .map((re) => runs(steps, re))
          .filter((i) => i >= 0),
      );
      expect(steps.indexOf(cache!), file).toBeLessThan(first);
    }
  });
});

// Node 20 reached end of life in April 2026; 22 (maintenance LTS) and 24 (active LTS) are the
// maintained lines the workflows run. Node 20.19 or later still works on a local machine.
describe("the Node.js lines", () => {
  it("runs the checks on Node 22 and 24 as a matrix, without stopping the other line on a failure", async () => {
    const { steps, job } = await load("checks.yml");
    expect(job.strategy?.matrix?.node).toEqual([22, 24]);
    expect(job.strategy?.["fail-fast"]).toBe(false);
    expect(uses(steps, "actions/setup-node")?.with?.["node-version"]).toBe("${{ matrix.node }}");
  });

  it("annotates, summarises and comments from one line only", async () => {
    const { steps } = await load("checks.yml");
    for (const step of [
      steps[runs(steps, /^npm run validate$/m)],
      steps[runs(steps, /npm run -s diff/)],
      uses(steps, "actions/github-script"),
    ]) {
      expect(step?.if, step?.name).toContain("matrix.node == 24");
    }
  });

  it("deploys on Node 24, the line .nvmrc names", async () => {
    const { steps } = await load("deploy.yml");
    expect(uses(steps, "actions/setup-node")?.with?.["node-version"]).toBe(24);
    expect((await readFile(join(PROJECT_ROOT, ".nvmrc"), "utf8")).trim()).toBe("24");
  });

  it("runs every workflow, and .nvmrc's line, on Node that package.json's engines allows", async () => {
    const { engines } = await packageJson();
    const { job } = await load("checks.yml");
    const lines = [...(job.strategy!.matrix!.node as number[]), 24, Number(await nvmrc())];
    for (const line of lines) {
      // setup-node takes the newest release of the line, so some release of it must be allowed.
      expect(semver.intersects(`${line}.x`, engines.node), `Node ${line}`).toBe(true);
    }
    expect(semver.subset(`${await nvmrc()}.x`, engines.node), ".nvmrc").toBe(true);
  });
});

/** A package-lock.json (lockfileVersion 3) as far as these checks read it. */
interface Lock {
  readonly packages: Record<
    string,
    {
      readonly version?: string;
      readonly engines?: Record<string, string> | string[];
      readonly hasInstallScript?: boolean;
    }
  >;
}

// semver, the package npm itself reads engines with: in the tree through autocannon and sharp, so
// not a dependency of its own; no types are installed for it, hence the shape here.
const semver = createRequire(import.meta.url)("semver") as {
  subset(sub: string, dom: string): boolean;
  intersects(a: string, b: string): boolean;
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { major: number; minor: number; patch: number; version: string };
  Range: new (range: string) => { set: ReadonlyArray<ReadonlyArray<{ value: string }>> };
};

const packageJson = async () =>
  JSON.parse(await readFile(join(PROJECT_ROOT, "package.json"), "utf8")) as {
    engines: { node: string };
    allowScripts: Record<string, boolean>;
    devDependencies: Record<string, string>;
  };
const lockFile = async () =>
  JSON.parse(await readFile(join(PROJECT_ROOT, "package-lock.json"), "utf8")) as Lock;
const nvmrc = async () => (await readFile(join(PROJECT_ROOT, ".nvmrc"), "utf8")).trim();

/** A lock entry's package name: the path after its last node_modules/. */
const nameOf = (path: string) => path.slice(path.lastIndexOf("node_modules/") + 13);

/** The Node versions a locked package accepts, from its own engines (either form npm records). */
function nodeRange(engines: Lock["packages"][string]["engines"]): string | undefined {
  if (Array.isArray(engines)) {
    const entry = engines.find((e) => /^node\b/.test(e));
    return entry?.replace(/^node\s*/, "");
  }
  return engines?.node;
}

/** Each locked package that refuses a Node version `allowed` admits, as "name@version needs range". */
function enginesConflicts(allowed: string, lock: Lock, version?: string): string[] {
  const refusing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const range = path === "" ? undefined : nodeRange(entry.engines);
    if (range === undefined) continue;
    const refuses = version ? !semver.satisfies(version, range) : !semver.subset(allowed, range);
    if (refuses) refusing.push(`${nameOf(path)}@${entry.version} needs Node ${range}`);
  }
  return refusing;
}

describe("package.json's engines, against every locked package's own", () => {
  it("allows no Node version that a locked package refuses, dev dependencies included", async () => {
    const [{ engines }, lock] = await Promise.all([packageJson(), lockFile()]);
    expect(enginesConflicts(engines.node, lock)).toEqual([]);
  });

  it("names each package that needs a newer Node than engines allows", async () => {
    // What main promised before the lock was checked: vite, rolldown and Redocly need 20.19.
    const refusing = enginesConflicts("^20.3.0 || ^22.0.0 || >=24.0.0", await lockFile());
    expect(refusing).toContain("vite@8.3.8 needs Node ^20.19.0 || >=22.12.0");
    expect(refusing).toContain("@redocly/cli@2.77.0 needs Node >=22.12.0 || >=20.19.0 <21.0.0");
    expect(refusing).toContain("undici@7.24.8 needs Node >=20.18.1");
  });

  it("is no stricter than the lock: the release before each line's oldest allowed is one a package refuses", async () => {
    const [{ engines }, lock] = await Promise.all([packageJson(), lockFile()]);
    for (const comparators of new semver.Range(engines.node).set) {
      const oldest = semver.minVersion(comparators.map((c) => c.value).join(" "));
      const before =
        oldest.patch > 0
          ? `${oldest.major}.${oldest.minor}.${oldest.patch - 1}`
          : oldest.minor > 0
            ? `${oldest.major}.${oldest.minor - 1}.999`
            : `${oldest.major - 1}.999.999`;
      expect(enginesConflicts("", lock, oldest.version), oldest.version).toEqual([]);
      expect(enginesConflicts("", lock, before), before).not.toEqual([]);
    }
  });

  it("type-checks against the oldest Node it allows: @types/node is that line's", async () => {
    const { engines, devDependencies } = await packageJson();
    const oldest = semver.minVersion(engines.node);
    expect(devDependencies["@types/node"]).toMatch(
      new RegExp(`^${oldest.major}\\.${oldest.minor}\\.\\d+$`),
    );
  });

  it("allows the Node running these tests", async () => {
    expect(semver.satisfies(process.version, (await packageJson()).engines.node)).toBe(true);
  });
});

describe("package.json's allowScripts, against the lock's install scripts", () => {
  /** allowScripts' decision for a locked package: by name, or at its locked version. */
  const decision = (allow: Record<string, boolean>, name: string, version?: string) =>
    allow[`${name}@${version}`] ?? allow[name];

  it("decides every install script in the lock, allowed or denied", async () => {
    const [{ allowScripts }, lock] = await Promise.all([packageJson(), lockFile()]);
    const undecided = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .filter(([path, entry]) => decision(allowScripts, nameOf(path), entry.version) === undefined)
      .map(([path, entry]) => `${nameOf(path)}@${entry.version}`);
    expect(undecided).toEqual([]);
  });

  it("names only packages the lock holds with an install script", async () => {
    const [{ allowScripts }, lock] = await Promise.all([packageJson(), lockFile()]);
    const withScripts = new Set(
      Object.entries(lock.packages)
        .filter(([, entry]) => entry.hasInstallScript)
        .flatMap(([path, entry]) => [nameOf(path), `${nameOf(path)}@${entry.version}`]),
    );
    expect(Object.keys(allowScripts).filter((name) => !withScripts.has(name))).toEqual([]);
  });

  it("lets npm ci run only the scripts operations.md allows, and denies the ones it denies", async () => {
    const [{ allowScripts }, lock] = await Promise.all([packageJson(), lockFile()]);
    const scripts = Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript);
    const runs = scripts
      .filter(([path, entry]) => decision(allowScripts, nameOf(path), entry.version) === true)
      .map(([path]) => nameOf(path))
      .sort();
    const denied = scripts
      .filter(([path, entry]) => decision(allowScripts, nameOf(path), entry.version) === false)
      .map(([path]) => nameOf(path))
      .sort();
    const text = await readFile(join(PROJECT_ROOT, "docs", "operations.md"), "utf8");
    const paragraph = text.slice(text.indexOf("**Install scripts.**")).split("\n\n")[0]!;
    const named = (label: string) =>
      [...(new RegExp(`\\b${label}: ([^.]*)`).exec(paragraph)?.[1] ?? "").matchAll(/`([^`]+)`/g)]
        .map((m) => m[1]!)
        .sort();
    expect(runs).toEqual(named("Allowed"));
    expect(denied).toEqual(named("Denied"));
  });

  it("leaves npm nothing to decide: npm install-scripts ls finds no unreviewed script", async () => {
    const { stdout } = await promisify(execFile)("npm", ["install-scripts", "ls"], {
      cwd: PROJECT_ROOT,
    });
    expect(stdout.trim()).toBe("No packages with unreviewed install scripts.");
  });
});

describe("the checks workflow", () => {
  it("runs on pull requests: npm ci, then validate and the tests", async () => {
    const { workflow, steps } = await load("checks.yml");
    expect(Object.keys(workflow.on)).toEqual(["pull_request"]);
    const install = runs(steps, /^npm ci\b/);
    expect(runs(steps, /^npm run validate$/m)).toBeGreaterThan(install);
    expect(runs(steps, /^npm test$/m)).toBeGreaterThan(install);
  });

  it("writes the change summary against the pull request's base and posts it as one comment", async () => {
    const { steps, workflow } = await load("checks.yml");
    const diff =
      steps[runs(steps, /npm run -s diff -- "\$BASE_SHA" HEAD --output change-summary\.md/)];
    expect(diff?.env?.BASE_SHA).toBe("${{ github.event.pull_request.base.sha }}");
    expect(diff?.if).toContain("!cancelled()");
    const comment = uses(steps, "actions/github-script");
    const script = String(comment?.with?.script);
    expect(script).toContain(`"${SUMMARY_MARKER}"`);
    expect(script).toContain('readFileSync("change-summary.md"');
    expect(script).toContain("updateComment");
    expect(script).toContain("createComment");
    expect(workflow.permissions).toEqual({ contents: "read", "pull-requests": "write" });
  });

  it("never sees the deploy secrets", async () => {
    const { text } = await load("checks.yml");
    expect(text).not.toMatch(/secrets\./);
  });
});

describe("the deploy workflow", () => {
  it("runs on pushes to main: tests, builds with the guard against the previous deployment, then deploys", async () => {
    const { workflow, steps } = await load("deploy.yml");
    expect((workflow.on.push as { branches: string[] }).branches).toEqual(["main"]);
    const test = runs(steps, /^npm test$/m);
    const build = runs(
      steps,
      new RegExp(`npm run build -- --publish --baseline-ref "\\$PREVIOUS_SHA"`),
    );
    const deploy = runs(steps, /^node scripts\/wrangler\.mjs deploy\b/m);
    expect(test).toBeGreaterThan(runs(steps, /^npm ci\b/));
    expect(build).toBeGreaterThan(test);
    expect(deploy).toBeGreaterThan(build);
    expect(steps[deploy]!.run).not.toContain("--dry-run");
    expect(steps[build]!.env?.PREVIOUS_SHA).toBe("${{ steps.previous.outputs.sha }}");
    expect(steps[build]!.env?.OPENDATA_DEPLOYMENT_URL).toBe(`\${{ vars.OPENDATA_DEPLOYMENT_URL }}`);
    // Every build command of the step publishes, so a shrink stops the deploy.
    const commands = steps[build]!.run!.split("\n").filter((l) => l.includes("npm run build"));
    expect(commands).toHaveLength(3);
    for (const command of commands) expect(command).toContain(`-- --publish`);
    expect(steps.find((s) => s.id === "previous")?.run).toContain("gh run list");
  });

  it("passes the guard's override only when a person asks for it", async () => {
    const { workflow, steps } = await load("deploy.yml");
    const dispatch = workflow.on.workflow_dispatch as {
      inputs: Record<string, { type: string; default: boolean }>;
    };
    expect(dispatch.inputs.allow_shrink).toMatchObject({ type: "boolean", default: false });
    const build = steps[runs(steps, /npm run build/)]!;
    expect(build.env?.OPENDATA_ALLOW_SHRINK).toBe("${{ inputs.allow_shrink && '1' || '0' }}");
  });

  it("stops before deploying while wrangler.toml has REPLACE_ placeholders", async () => {
    const { steps } = await load("deploy.yml");
    const check = runs(steps, /grep -n 'REPLACE_' wrangler\.toml/);
    expect(check).toBeGreaterThan(-1);
    expect(check).toBeLessThan(runs(steps, /wrangler\.mjs deploy/));
  });

  it("gives the Cloudflare secrets to the deploy and rollback steps only, and only as ${{ secrets.* }}", async () => {
    const { text, steps } = await load("deploy.yml");
    const privileged = [/wrangler\.mjs deploy/, /wrangler\.mjs rollback/].map(
      (r) => steps[runs(steps, r)]!,
    );
    for (const step of privileged) {
      for (const name of SECRETS) expect(step.env?.[name]).toBe(`\${{ secrets.${name} }}`);
    }
    for (const step of steps) {
      if (privileged.includes(step)) continue;
      expect(JSON.stringify(step), step.name).not.toMatch(
        /secrets\.|CLOUDFLARE_(API_TOKEN|ACCOUNT_ID)/,
      );
    }
    // Every mention of a secret's name is the env key or the secrets reference, nothing else.
    for (const name of SECRETS) {
      const mentions = text.split("\n").filter((line) => line.includes(name));
      expect(mentions.map((l) => l.trim())).toEqual(
        privileged.map(() => `${name}: \${{ secrets.${name} }}`),
      );
    }
  });

  it("checks the deployment against the build when its URL is set, and rolls back only if that check fails", async () => {
    const { steps } = await load("deploy.yml");
    const deploy = runs(steps, /^node scripts\/wrangler\.mjs deploy\b/m);
    const verify = runs(steps, /^npm run -s verify -- "\$OPENDATA_DEPLOYMENT_URL"/m);
    const rollback = runs(steps, /wrangler\.mjs rollback --message "[^"]+" --yes/);
    expect(verify).toBeGreaterThan(deploy);
    expect(rollback).toBeGreaterThan(verify);
    expect(steps[verify]!.if).toBe("vars.OPENDATA_DEPLOYMENT_URL != ''");
    expect(steps[verify]!.env?.OPENDATA_DEPLOYMENT_URL).toBe("${{ vars.OPENDATA_DEPLOYMENT_URL }}");
    expect(steps[verify]!.run).toContain('--summary "$GITHUB_STEP_SUMMARY"');
    expect(steps[rollback]!.if).toBe(
      `failure() && steps.${steps[verify]!.id}.outcome == 'failure'`,
    );
  });

  it("deploys with Workers Logs turned on in wrangler.toml", async () => {
    const toml = await readFile(join(PROJECT_ROOT, "wrangler.toml"), "utf8");
    expect(toml).toMatch(/^\[observability\]\nenabled = true$/m);
  });

  it("commits no account id or token", async () => {
    for (const file of ["checks.yml", "deploy.yml"]) {
      const { text } = await load(file);
      expect(text, file).not.toMatch(/\b[0-9a-f]{32}\b/i); // a Cloudflare account id
      expect(text, file).not.toMatch(/\b[A-Za-z0-9_-]{40}\b/); // an API token
    }
    const toml = await readFile(join(PROJECT_ROOT, "wrangler.toml"), "utf8");
    expect(toml).not.toMatch(/^\s*account_id\s*=/m);
  });
});

/** Runs a step's script as GitHub runs it (bash -e -o pipefail), in `cwd` with `env`. */
async function runStep(script: string, cwd: string, env: Record<string, string>) {
  const file = join(cwd, ".step.sh");
  await writeFile(file, script);
  try {
    const { stdout } = await promisify(execFile)(
      "bash",
      ["--noprofile", "--norc", "-eo", "pipefail", file],
      {
        cwd,
        env: { PATH: process.env.PATH, HOME: cwd, ...env },
      },
    );
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe("the deploy workflow's scripts, run here with a stand-in for gh", () => {
  let dir: string;
  let first: string;
  let second: string;

  async function previous(gh: string, before = first) {
    const bin = join(dir, "bin");
    await writeFile(join(bin, "gh"), `#!/bin/sh\n${gh}\n`);
    await chmod(join(bin, "gh"), 0o755);
    const output = join(dir, "output");
    await writeFile(output, "");
    const { steps } = await load("deploy.yml");
    const run = await runStep(steps.find((s) => s.id === "previous")!.run!, dir, {
      PATH: `${bin}:${process.env.PATH}`,
      GITHUB_OUTPUT: output,
      GITHUB_REPOSITORY: "publisher/opendata",
      BEFORE: before,
    });
    return { ...run, output: await readFile(output, "utf8") };
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "opendata-edge-deploy-"));
    await writeFile(join(dir, "a.txt"), "1");
    first = await commitAll(dir, "first");
    await writeFile(join(dir, "a.txt"), "2");
    second = await commitAll(dir, "second");
    await mkdir(join(dir, "bin"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("takes the commit of the last successful deployment", async () => {
    const run = await previous(`echo ${second}`);
    expect(run.code).toBe(0);
    expect(run.output).toBe(`sha=${second}\n`);
  });

  it("has no baseline on the first deployment", async () => {
    const run = await previous('echo ""');
    expect(run.output).toBe("sha=\n");
  });

  it("falls back to the commit before the push when GitHub cannot say, with a warning", async () => {
    const failing = await previous("exit 1");
    expect(failing.code).toBe(0);
    expect(failing.output).toBe(`sha=${first}\n`);
    expect(failing.stdout).toContain("::warning title=publication guard::could not list");
    const gone = await previous(`echo ${"f".repeat(40)}`);
    expect(gone.output).toBe(`sha=${first}\n`);
    expect(gone.stdout).toContain("is not in the history");
  });

  it.each([
    [
      "the live deployment when its URL is set",
      "https://opendata.example",
      "abc",
      "build -- --publish",
    ],
    [
      "the previously deployed commit otherwise",
      "",
      "abc",
      "build -- --publish --baseline-ref abc",
    ],
    ["the last commit on the first deployment", "", "", "build -- --publish"],
  ])("builds for publication against %s", async (_, url, sha, expected) => {
    const bin = join(dir, "bin");
    await writeFile(join(bin, "npm"), '#!/bin/sh\necho "npm $*"\n');
    await chmod(join(bin, "npm"), 0o755);
    const { steps } = await load("deploy.yml");
    const script = steps[runs(steps, /npm run build/)]!.run!;
    const run = await runStep(script, dir, {
      PATH: `${bin}:${process.env.PATH}`,
      OPENDATA_DEPLOYMENT_URL: url,
      PREVIOUS_SHA: sha,
    });
    expect(run.stdout.trim()).toBe(`npm run ${expected}`);
  });

  it.each([
    ["succeeds", "exit 0", "Rolled back to the previous version: abc did not serve"],
    ["fails", "exit 1", "Rollback failed: the deployment of abc is still live"],
  ])(
    "rolls back with wrangler and fails the run whether the rollback %s",
    async (_, result, said) => {
      // Its own folder: a stand-in for node must not shadow node in the other steps' tests.
      const bin = join(dir, "bin-node");
      await mkdir(bin, { recursive: true });
      await writeFile(join(bin, "node"), `#!/bin/sh\necho "node $*"\n${result}\n`);
      await chmod(join(bin, "node"), 0o755);
      const summary = join(dir, "summary.md");
      await writeFile(summary, "");
      const { steps } = await load("deploy.yml");
      const script = steps[runs(steps, /wrangler\.mjs rollback/)]!.run!;
      const run = await runStep(script, dir, {
        PATH: `${bin}:${process.env.PATH}`,
        GITHUB_SHA: "abc",
        GITHUB_STEP_SUMMARY: summary,
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        "node scripts/wrangler.mjs rollback --message Deployment check failed for abc --yes",
      );
      expect(run.stdout).toContain("::error title=Deployment check::");
      expect(await readFile(summary, "utf8")).toContain(said);
    },
  );

  it("stops on REPLACE_ placeholders in wrangler.toml, and passes once they are filled in", async () => {
    const { steps } = await load("deploy.yml");
    const script = steps[runs(steps, /grep -n 'REPLACE_' wrangler\.toml/)]!.run!;
    await writeFile(join(dir, "wrangler.toml"), 'id = "REPLACE_WITH_KV_NAMESPACE_ID"\n');
    const unfilled = await runStep(script, dir, {});
    expect(unfilled.code).toBe(1);
    expect(unfilled.stdout).toContain("::error file=wrangler.toml");
    await writeFile(join(dir, "wrangler.toml"), 'id = "0123"\n');
    expect((await runStep(script, dir, {})).code).toBe(0);
  });
});
