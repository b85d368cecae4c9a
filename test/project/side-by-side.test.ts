/**
 * scripts/side-by-side.mjs, which runs `npm test`'s static checks beside its tests: every command
 * runs at once and to its end, each one's output comes out whole in the order given (the --main
 * command's first, as it comes, with the arguments after it), and the exit status is the first
 * failure's.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

const SCRIPT = join(PROJECT_ROOT, "scripts", "side-by-side.mjs");
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "opendata-edge-side-by-side-"));
  // Writes its file, then waits (up to 20 s) for the other's: it ends only if both run at once.
  const meet = (me: string, other: string) => `
    import { existsSync, writeFileSync } from "node:fs";
    writeFileSync(${JSON.stringify(join(dir, me))}, "");
    const until = Date.now() + 20_000;
    while (!existsSync(${JSON.stringify(join(dir, other))})) {
      if (Date.now() > until) { console.log("${me} waited alone"); process.exit(3); }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    console.log("${me} met ${other}");
    console.error("${me} on stderr");`;
  await writeFile(join(dir, "a.mjs"), meet("a", "b"));
  await writeFile(join(dir, "b.mjs"), meet("b", "a"));
  await writeFile(join(dir, "fail.mjs"), 'console.log("failing"); process.exit(5);');
  await writeFile(join(dir, "fine.mjs"), 'console.log("fine");');
  await writeFile(join(dir, "fail-later.mjs"), 'console.log("failing too"); process.exit(6);');
  await writeFile(join(dir, "args.mjs"), "console.log(JSON.stringify(process.argv.slice(2)));");
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function sideBySide(...commands: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, ...commands]);
    return { status: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { status: code, stdout, stderr };
  }
}

/** The shell command that runs one of the test's scripts with this Node. */
const node = (script: string) => `"${process.execPath}" "${join(dir, script)}"`;

describe("side-by-side", () => {
  it("runs the commands at the same time and writes each one's output whole, in the order given", async () => {
    expect(await sideBySide(node("b.mjs"), node("a.mjs"))).toEqual({
      status: 0,
      stdout: "b met a\na met b\n",
      stderr: "b on stderr\na on stderr\n",
    });
  });

  it("runs every command to its end and exits with the first failure's status", async () => {
    const run = await sideBySide(node("fail.mjs"), node("fine.mjs"), node("fail-later.mjs"));
    expect(run.status).toBe(5);
    expect(run.stdout).toBe("failing\nfine\nfailing too\n");
    expect(run.stderr).toBe(
      `\n${node("fail.mjs")} failed (exit status 5)\n\n${node("fail-later.mjs")} failed (exit status 6)\n`,
    );
  });

  it("runs the --main command beside the others, its output first, then theirs whole", async () => {
    // Each of the two meets the other: they finish only if they run at the same time.
    const run = await sideBySide(node("a.mjs"), node("fine.mjs"), "--main", node("b.mjs"));
    expect(run).toEqual({
      status: 0,
      stdout: "b met a\na met b\nfine\n",
      stderr: "b on stderr\na on stderr\n",
    });
  });

  it("passes every argument after the --main command on to it, as given", async () => {
    const args = ["--reporter=json", "--outputFile.json=.out/a b.json", "it's", "$HOME"];
    const run = await sideBySide(node("fine.mjs"), "--main", node("args.mjs"), ...args);
    expect(run.stdout).toBe(`${JSON.stringify(args)}\nfine\n`);
  });

  it("exits with a check's failure before the --main command's, and names both", async () => {
    const run = await sideBySide(node("fail-later.mjs"), "--main", node("fail.mjs"));
    expect(run.status).toBe(6);
    expect(run.stdout).toBe("failing\nfailing too\n");
    expect(run.stderr).toBe(
      `\n${node("fail-later.mjs")} failed (exit status 6)\n\n${node("fail.mjs")} failed (exit status 5)\n`,
    );
    expect((await sideBySide(node("fine.mjs"), "--main", node("fail.mjs"))).status).toBe(5);
  });

  it("says how to use it when given no command", async () => {
    const run = await sideBySide();
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^usage: node scripts\/side-by-side\.mjs/);
    const noMain = await sideBySide(node("fine.mjs"), "--main");
    expect(noMain.status).toBe(2);
    expect(noMain.stderr).toBe("side-by-side: --main needs a command after it\n");
  });
});
