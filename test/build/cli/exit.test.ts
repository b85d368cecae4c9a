/**
 * Every CLI's output reaches the reader whole through a pipe (as in every CI log), not only
 * through a file or a terminal: the same bytes and the same exit code either way, with output
 * well beyond a pipe's buffer (64 KiB on Linux) and a reader that is slow to start.
 */
import { spawn } from "node:child_process";
import { open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../../build/core/paths.js";
import { envelopeOf } from "../../helpers/import.js";
import { sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { BUILD_CLI, DIFF_CLI, WITHOUT_SAMPLE_DATA, commitAll } from "../../helpers/cli.js";

const IMPORT_CLI = join(PROJECT_ROOT, ".out/build/cli/import.js");

interface Output {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
// How long the piped run's reader waits once output is there (see throughPipes).
const LATE_MS = 200;

/** Runs `script` with stdout and stderr on pipes that are read only after a pause. */
function throughPipes(script: string, args: readonly string[], cwd: string): Promise<Output> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: ENV });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    // The pipes fill while nobody reads, so the CLI finishes with output still queued. Paused,
    // not unread: a child whose streams have no reader yet loses what it wrote when it closes.
    child.stdout.pause();
    child.stderr.pause();
    // The reader starts LATE_MS after the first byte is waiting for it, not after the spawn: the
    // CLI writes its whole report at once when its checks end, so by then it has queued it all
    // and is on its way out, however long the process took to start on a loaded machine.
    const waiting = setInterval(() => {
      if (child.stdout.readableLength + child.stderr.readableLength === 0) return;
      clearInterval(waiting);
      setTimeout(() => {
        child.stdout.resume();
        child.stderr.resume();
      }, LATE_MS);
    }, 5);
    child.on("error", fail);
    child.on("close", (code) => {
      clearInterval(waiting);
      done({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}

/** Runs `script` with stdout and stderr written straight to files. */
async function toFiles(script: string, args: readonly string[], cwd: string): Promise<Output> {
  const outFile = join(cwd, "stdout.txt");
  const errFile = join(cwd, "stderr.txt");
  const [out, err] = [await open(outFile, "w"), await open(errFile, "w")];
  try {
    const code = await new Promise<number | null>((done, fail) => {
      const child = spawn(process.execPath, [script, ...args], {
        cwd,
        env: ENV,
        stdio: ["ignore", out.fd, err.fd],
      });
      child.on("error", fail);
      child.on("close", done);
    });
    return {
      code,
      stdout: await readFile(outFile, "utf8"),
      stderr: await readFile(errFile, "utf8"),
    };
  } finally {
    await out.close();
    await err.close();
  }
}

/** An ATM brand file of `count` records, each with a field the schema does not allow. */
function invalidAtms(count: number): string {
  const lines = ["BrandName: Overflow Bank", "ATM:"];
  for (let i = 1; i <= count; i++) {
    lines.push(
      `  - Identification: "OVF-${i}"`,
      '    SupportedCurrencies: ["GBP"]',
      '    Location: { PostalAddress: { Country: "GB", TownName: "Wexby" } }',
      `    Colour: "blue ${i}"`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const fixtures: Fixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.cleanup();
});

/** The sample's site.yaml and `files`: what each case prints comes from the files it writes alone. */
async function fixtureWith(files: Record<string, string> = {}): Promise<Fixture> {
  const fixture = await sampleFixture({ ...WITHOUT_SAMPLE_DATA, ...files });
  fixtures.push(fixture);
  return fixture;
}

/** The same run through pipes and to files: equal output and exit code, and more than a pipe holds. */
function expectWhole(piped: Output, filed: Output, code: number): void {
  expect(filed.code).toBe(code);
  expect(piped.code).toBe(code);
  expect(filed.stdout.length + filed.stderr.length).toBeGreaterThan(64 * 1024);
  expect(piped.stdout).toBe(filed.stdout);
  expect(piped.stderr).toBe(filed.stderr);
}

describe("output through a pipe", () => {
  describe.each(["validate", "build"])("npm run %s", (command) => {
    it("prints every problem and the count, and exits 1, as when written to a file", async () => {
      const fixture = await fixtureWith({ "atms/overflow-bank.yaml": invalidAtms(1200) });
      // --verbose: every problem printed, not grouped by kind, so the output outgrows a pipe.
      const args = [command, "--verbose", "--content", "content", "--out", "dist", "--no-cache"];
      // Both at once: the pipes' reader starts late on purpose, and the two runs share nothing.
      const [filed, piped] = await Promise.all([
        toFiles(BUILD_CLI, args, fixture.root),
        throughPipes(BUILD_CLI, args, fixture.root),
      ]);
      expectWhole(piped, filed, 1);
      expect(piped.stderr).toContain("\n1,200 problems in 1 file.");
    }, 120_000);
  });

  describe("npm run import", () => {
    it("prints every problem of the imported files and exits 1, as when written to a file", async () => {
      const records = Array.from({ length: 1200 }, (_, i) => ({
        Identification: `OVF-${i + 1}`,
        SupportedCurrencies: ["GBP"],
        Location: { PostalAddress: { Country: "GB", TownName: "Wexby" } },
        Colour: `blue ${i + 1}`,
      }));
      const feed = JSON.stringify(envelopeOf([{ BrandName: "Overflow Bank", ATM: records }]));
      // Each run imports into its own copy (an import does not replace a brand without --force),
      // both at once.
      const runs = await Promise.all(
        [toFiles, throughPipes].map(async (run) => {
          const fixture = await fixtureWith();
          await writeFile(join(fixture.root, "feed.json"), feed);
          return run(
            IMPORT_CLI,
            ["--verbose", "--content", "content", "--no-cache", "feed.json"],
            fixture.root,
          );
        }),
      );
      expectWhole(runs[1]!, runs[0]!, 1);
      expect(runs[1]!.stderr).toContain("1,200 problems in 1 imported file.");
    }, 120_000);
  });

  describe("npm run diff", () => {
    it("prints the whole change summary and exits 0, as when written to a file", async () => {
      const branches = (label: string) =>
        [
          "BrandName: Overflow Bank",
          "Branch:",
          ...Array.from({ length: 40 }, (_, i) =>
            [
              `  - Identification: "OVF-${i + 1}"`,
              '    SequenceNumber: "0"',
              `    Name: "${label} ${i + 1}"`,
              "    Type: Physical",
              "    CustomerSegment: [Personal]",
              "    PostalAddress:",
              "      AddressLine:",
              ...[1, 2, 3, 4, 5].map(
                (n) => `        - "${label} line ${n}: ${"words ".repeat(8)}"`,
              ),
              "      PostCode: ZZ1 1ZZ",
            ].join("\n"),
          ),
          "",
        ].join("\n");
      const fixture = await fixtureWith({ "branches/overflow-bank.yaml": branches("Before") });
      const base = await commitAll(fixture.root, "before");
      await fixture.put({ "branches/overflow-bank.yaml": branches("After") });
      const args = ["--content", "content", "--no-cache", base];
      // Both at once: a diff only reads the content and the repository.
      const [filed, piped] = await Promise.all([
        toFiles(DIFF_CLI, args, fixture.root),
        throughPipes(DIFF_CLI, args, fixture.root),
      ]);
      expect(filed.code, filed.stderr + piped.stderr).toBe(0);
      expect(piped.code).toBe(0);
      expect(filed.stdout.length).toBeGreaterThan(20 * 1024);
      expect(piped.stdout).toBe(filed.stdout);
      expect(piped.stderr).toBe(filed.stderr);
    }, 120_000);
  });
});
