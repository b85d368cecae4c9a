/**
 * Scratch git repositories holding the sample content (test/build/integrity.test.ts,
 * test/build/cli/content-edits.test.ts): the sample committed once at SAMPLE_SECONDS, then edited
 * and committed by shell scripts under a fixed identity and no user or system configuration.
 */
import { execFile } from "node:child_process";
import { cp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { CONTENT_DIR } from "../../build/core/paths.js";

const run = promisify(execFile);

/** The sample's commit time (2025-11-24T16:00:00Z). */
export const SAMPLE_SECONDS = 1_764_000_000;

// No user or system configuration (no signing, no hooks), a fixed identity.
const GIT_ENV = {
  PATH: process.env.PATH,
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Editor",
  GIT_AUTHOR_EMAIL: "editor@example.invalid",
  GIT_COMMITTER_NAME: "Editor",
  GIT_COMMITTER_EMAIL: "editor@example.invalid",
};

/** Runs a shell script (git commands) in `cwd`, any commit dated `seconds`; its stdout. */
export async function gitScript(
  cwd: string,
  script: string,
  seconds = SAMPLE_SECONDS,
): Promise<string> {
  const date = `@${seconds} +0000`;
  const env = { ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  return (await run("sh", ["-c", script], { cwd, env })).stdout;
}

/** Makes `root` a repository whose one commit, at SAMPLE_SECONDS, is the sample as content/. */
export async function sampleRepo(root: string): Promise<void> {
  await cp(CONTENT_DIR, join(root, "content"), { recursive: true });
  await gitScript(root, "git init -q -b main && git add -A && git commit -q -m sample");
}
