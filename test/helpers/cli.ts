/** Helpers for tooling tests: the compiled CLIs, and temporary git repositories of content. */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { runBuildCommand } from "../../build/cli/build-run.js";
import { runVerify } from "../../build/cli/verify-run.js";
import { CONTENT_DIR, PROJECT_ROOT } from "../../build/core/paths.js";
import { FIXTURE_EPOCH } from "./fixtures.js";

const run = promisify(execFile);

/**
 * Laid over sampleFixture's files: every data set folder of the sample taken out, site.yaml kept.
 * For a test of what a command prints about the files the test writes, so a run checks those
 * alone (the sample's files would be checked again by every run under --no-cache).
 */
export const WITHOUT_SAMPLE_DATA: Readonly<Record<string, null>> = Object.fromEntries(
  readdirSync(CONTENT_DIR)
    .filter((name) => name !== "site.yaml")
    .map((name) => [name, null]),
);

export const BUILD_CLI = join(PROJECT_ROOT, ".out/build/cli/build.js");
export const DIFF_CLI = join(PROJECT_ROOT, ".out/build/cli/diff.js");

/**
 * Brings .out/ up to date the way `npm run compile` does (scripts/compile.mjs, which compiles only
 * when a source changed), so the tests run the current code whether or not `npm test` compiled it
 * just before. Run once per run, before any test (global-setup.ts).
 */
export async function ensureCompiled(): Promise<void> {
  await run(process.execPath, [join(PROJECT_ROOT, "scripts", "compile.mjs")], {
    cwd: PROJECT_ROOT,
  });
}

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `npm run build` or `npm run validate` in this process, as build.ts runs it in its own
 * (build-run.ts), with `env` as its whole environment: what it printed comes back as the text a
 * process would have written, one line per call.
 */
export async function buildCommand(
  argv: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runBuildCommand([...argv], {
    cwd: options.cwd,
    env: options.env ?? {},
    stdout: (line) => stdout.push(`${line}\n`),
    stderr: (line) => stderr.push(`${line}\n`),
  });
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

/** Runs a compiled CLI with node; never throws on a non-zero exit. */
export async function runNode(
  script: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Run> {
  // A clean environment: no GitHub Actions or override variables leak in from the caller's.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...options.env,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], {
      cwd: options.cwd,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === "number" ? failed.code : -1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? "",
    };
  }
}

/** The environment git runs in here: a fixed identity and commit time, no user configuration. */
function gitEnv(cwd: string, time: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: cwd,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Editor",
    GIT_AUTHOR_EMAIL: "editor@example.org",
    GIT_COMMITTER_NAME: "Editor",
    GIT_COMMITTER_EMAIL: "editor@example.org",
    GIT_AUTHOR_DATE: `${time} +0000`,
    GIT_COMMITTER_DATE: `${time} +0000`,
  };
}

/** Runs git in `cwd` with a fixed identity and commit time, so commits are reproducible. */
export async function git(
  cwd: string,
  args: readonly string[],
  time = FIXTURE_EPOCH,
): Promise<string> {
  const { stdout } = await run("git", [...args], { cwd, env: gitEnv(cwd, time) });
  return stdout;
}

/** Makes `root` a git repository and commits everything in it; returns the commit id. */
export async function commitAll(
  root: string,
  message: string,
  time = FIXTURE_EPOCH,
): Promise<string> {
  // One process for the four git commands: each process the test worker starts costs it tens of
  // milliseconds, its memory being large.
  const { stdout } = await run(
    "sh",
    [
      "-c",
      '{ [ -e .git ] || git init -q -b main; } && git add -A && git commit -q -m "$1" && git rev-parse HEAD',
      "sh",
      message,
    ],
    { cwd: root, env: gitEnv(root, time) },
  );
  return stdout.trim();
}

/**
 * `npm run verify -- <argv>` run in this process from the project's folder: its exit code, each
 * line it printed to stdout, and what it printed to stderr.
 */
export async function verifyInProcess(
  argv: string[],
): Promise<{ code: number; lines: string[]; stderr: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVerify(argv, {
    cwd: PROJECT_ROOT,
    env: {},
    stdout: (line) => out.push(...line.split("\n")),
    stderr: (line) => err.push(line),
  });
  return { code, lines: out, stderr: err };
}
