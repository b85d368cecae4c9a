/**
 * The landing page's shell examples as a reader copies them (the text of each <pre> block), and
 * run as a reader pastes them: in bash, with ORIGIN set to the page's origin or left unset.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The text of every <pre> block of `html`, as the browser shows it: no tags, entities read. */
export function shellExamples(html: string): string[] {
  return [...html.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]*>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, "&"),
  );
}

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `script` with bash in an empty folder, with ORIGIN set to `origin` unless undefined. */
export async function runExample(script: string, origin: string | undefined): Promise<Ran> {
  const folder = await mkdtemp(join(tmpdir(), "opendata-edge-example-"));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  if (origin !== undefined) env.ORIGIN = origin;
  try {
    // stdin is /dev/null: on a socket, bash would take itself for a remote shell and read ~/.bashrc.
    const child = spawn("bash", ["-c", script], {
      cwd: folder,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 20_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const code = await new Promise<number>((resolve) => child.on("close", (c) => resolve(c ?? 1)));
    return { code, stdout, stderr };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * The HTTP statuses in curl -i output, in order. A status line need not start a line: a body
 * with no newline at its end runs into the next answer's.
 */
export const statusesOf = (output: string): number[] =>
  [...output.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
