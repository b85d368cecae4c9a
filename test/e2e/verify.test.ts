/**
 * `npm run verify` against real Workers on loopback: one serving the very build whose manifest it
 * is given (every path the same, exit 0), one serving a build of other content, an ATM changed
 * (the ATM paths and the landing page differ and are named, exit 1). Each Worker is a scratch copy (its sources,
 * wrangler.toml and a dist/ of its own, built with the live-standard aliases on), as in
 * aliases.test.ts, so the project's dist/ is left alone.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";
import { buildFixture, sampleFixture, type Fixture } from "../helpers/fixtures.js";
import { warmCache } from "../helpers/sample-build.js";
import { copyWorkerSources, startWorkerAt } from "../helpers/worker.js";
import { ensureCompiled, runNode, verifyInProcess as verify } from "../helpers/cli.js";

interface Scratch {
  readonly content: Fixture;
  readonly root: string;
  readonly manifest: string;
  readonly worker: { readonly base: URL; dispose(): Promise<void> };
}

/**
 * A Worker serving a build of the sample with `files` laid over it. The build starts from
 * `cacheDir`, a copy of the run's cache, as a rebuild after an edit does: it compresses only the
 * bodies the edit changed.
 */
async function scratchWorker(files: Record<string, string>, cacheDir: string): Promise<Scratch> {
  const content = await sampleFixture(files);
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-verify-"));
  await copyWorkerSources(root);
  const built = await buildFixture(content, { outDir: join(root, "dist"), cacheDir });
  expect(built.diagnostics).toEqual([]);
  const worker = await startWorkerAt(join(root, "wrangler.toml"));
  return { content, root, manifest: join(root, "dist", "manifest.json"), worker };
}

const ATM_FILE = "atms/pennyfold-building-society.yaml";
let same: Scratch;
let other: Scratch;

beforeAll(async () => {
  const site = await readFile(join(PROJECT_ROOT, "content", "site.yaml"), "utf8");
  const atms = await readFile(join(PROJECT_ROOT, "content", ATM_FILE), "utf8");
  expect(atms).toContain('MinimumPossibleAmount: "10.00"');
  const aliases = { "site.yaml": `${site}OpenBankingPaths: true\n` };
  const cacheDir = await warmCache();
  try {
    same = await scratchWorker(aliases, cacheDir);
    other = await scratchWorker(
      {
        ...aliases,
        [ATM_FILE]: atms.replace(
          'MinimumPossibleAmount: "10.00"',
          'MinimumPossibleAmount: "20.00"',
        ),
      },
      cacheDir,
    );
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}, 180_000);

afterAll(async () => {
  for (const scratch of [same, other]) {
    await scratch?.worker.dispose();
    await scratch?.content.cleanup();
    if (scratch) await rm(scratch.root, { recursive: true, force: true });
  }
});

describe("verify against a Worker serving the same build", () => {
  it("reports every path the same (data sets, aliases, documents, near-me queries, changes) and exits 0", async () => {
    const run = await verify([same.worker.base.href, "--manifest", same.manifest, "--wait", "0"]);
    const perPath = run.lines.slice(0, -1);
    expect(perPath.filter((line) => !line.startsWith("same "))).toEqual([]);
    // 8 data sets, 10 live-standard aliases, 6 documents (the feed and the API reference among
    // them), 6 near-me queries, 8 changes endpoints and their 8 aliases (the service metrics'
    // versioned one).
    expect(perPath).toHaveLength(46);
    for (const path of [
      "/std/v2.2/atms  (data set atms)",
      "/open-banking/v2.2/atms  (data set atms, alias)",
      "/open-banking/fca-service-metrics/bca  (data set service-metrics-bca, alias)",
      "/openapi.json  (document)",
      "/  (document)",
      "/x-std/v2.2/atms/country/GB  (data set atms, near me)",
      "/x-std/v2.2/personal-current-accounts/segment/Basic  (data set personal-current-accounts, near me)",
      "/x-std/changes.atom  (document)",
    ]) {
      expect(perPath).toContain(`same         ${path}`);
    }
    expect(run.lines.at(-1)).toMatch(
      /^verify: all 46 paths at http:\/\/127\.0\.0\.1:\d+ are the same as /,
    );
    expect(run.code).toBe(0);
  });
});

describe("verify against a Worker serving a build of other content", () => {
  it("names the ATM paths (and the landing page) that differ, keeps asking until the wait is over, and exits 1", async () => {
    // A wait of 3 s at 0.4 s intervals: asked several times, then the wait is over. Not shorter:
    // the first pause is 0.4 s only while the first round (45 requests) takes under 2.6 s, and
    // under the whole suite's load it took 1.9 s with a 2 s wait.
    const started = Date.now();
    const run = await verify([
      other.worker.base.href,
      "--manifest",
      same.manifest,
      "--wait",
      "3s",
      "--interval",
      "400ms",
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    const notSame = run.lines.slice(0, -1).filter((line) => !line.startsWith("same "));
    expect(notSame.map((line) => line.split(/\s+/).slice(0, 2))).toEqual([
      ["different", "/std/v2.2/atms"],
      ["different", "/open-banking/v2.2/atms"],
      // The landing page shows what the data sets hold, so it changes with them.
      ["different", "/"],
      // So does the API reference, whose ATM examples are cut from the ATMs published.
      ["different", "/reference"],
      ["different", "/x-std/v2.2/atms/country/GB"],
    ]);
    // Same date (one fixed epoch), other bytes: the tag and the body hash differ.
    expect(notSame[0]).toMatch(
      /: ETag "[0-9a-f]{24}…", not "[0-9a-f]{24}…"; body SHA-256 [0-9a-f]{24}…, not [0-9a-f]{24}…$/,
    );
    expect(notSame[4]).toMatch(
      /: ETag "near\.1\.[0-9a-f]{17}…", not one starting "near\.1\.[0-9a-f]{17}…$/,
    );
    expect(run.lines.at(-1)).toMatch(
      /are not the same as .*\(5 different, 0 unreachable\); data sets: atms$/,
    );
    expect(run.stderr[0]).toMatch(
      /^verify: 5 of 46 paths not the same yet; asking again in 0\.4 s/,
    );
    expect(run.code).toBe(1);
  });

  it("exits 1 from the compiled command too, with every line and the job summary written", async () => {
    await ensureCompiled();
    const summary = join(other.root, "summary.md");
    const run = await runNode(
      join(PROJECT_ROOT, ".out/build/cli/verify.js"),
      [other.worker.base.href, "--manifest", same.manifest, "--wait", "0", "--summary", summary],
      { cwd: PROJECT_ROOT },
    );
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split("\n")).toHaveLength(47);
    const markdown = await readFile(summary, "utf8");
    expect(markdown).toContain("5 of 46 paths at http://127.0.0.1:");
    expect(markdown).toContain("| `/std/v2.2/atms` | data set atms | different: ETag");
  });
});
