import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BuildCache } from "../../../build/core/cache.js";
import { checkFiles } from "../../../build/check/cached-checks.js";
import type { CheckJob } from "../../../build/read/check-jobs.js";
import type { CheckedFile } from "../../../build/check/one-file.js";
import { PROJECT_ROOT } from "../../../build/core/paths.js";
import { schemaAjv } from "../../helpers/schemas.js";

const SITE = [
  'License: "https://www.openbanking.org.uk/open-licence"',
  'TermsOfUse: "https://www.openbanking.org.uk/terms"',
].join("\n");

// A comment block of about `bytes` bytes: it changes no value, only how much there is to parse.
const padding = (bytes: number) => "# padding to make the file large\n".repeat(bytes / 33);

function siteJob(file: string, text: string): CheckJob {
  return { file, text, schema: "site.schema.json", recordsKey: null, identity: [] };
}

// Over 1,000,000 bytes in all, the size from which the build checks on worker threads.
const LARGE_JOBS: CheckJob[] = [
  siteJob("content/a/site.yaml", `${padding(400_000)}${SITE}\n`),
  siteJob("content/b/site.yaml", `${SITE}\nLicence: "typo"\n${padding(700_000)}`),
  siteJob("content/c/site.yaml", `${SITE}\n`),
];

const timing = () => ({ parseMs: 0, validateMs: 0 });
const ajv = schemaAjv();
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
});

// Under vitest the pool's threads run the compiled check code in .out/ (check/pool.ts), which the
// run compiles first (test/helpers/global-setup.ts), so these tests never run thread code older
// than the source they test.

/** The newest modification time under `path`, in ms. */
async function newest(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.mtimeMs;
  const names = await readdir(path);
  return Math.max(info.mtimeMs, ...(await Promise.all(names.map((n) => newest(join(path, n))))));
}

describe("checking files on worker threads", () => {
  it("runs thread code compiled no earlier than the last edit of the build's source", async () => {
    const compiled = (await stat(join(PROJECT_ROOT, ".out", ".compiled-build"))).mtimeMs;
    const sources = await Promise.all(
      ["build", "contract"].map((d) => newest(join(PROJECT_ROOT, d))),
    );
    expect(compiled).toBeGreaterThanOrEqual(Math.max(...sources));
  });

  // One run on two threads, whose results and timing the three tests below read: each thread
  // loads the check code and compiles the schemas, which is most of what a run costs here.
  const spentOnThreads = timing();
  let onThreads: ReturnType<typeof checkFiles> | undefined;
  const threaded = () =>
    (onThreads ??= checkFiles(LARGE_JOBS, {
      ajv,
      cache: undefined,
      threads: 2,
      timing: spentOnThreads,
    }));

  it("returns each file's result in the order of the jobs, whichever thread finished first", async () => {
    const checked = await threaded();
    expect(checked.map((c) => [c.file, c.valid])).toEqual([
      ["content/a/site.yaml", true],
      ["content/b/site.yaml", false],
      ["content/c/site.yaml", true],
    ]);
    expect(checked[0]!.value).toEqual({
      License: "https://www.openbanking.org.uk/open-licence",
      TermsOfUse: "https://www.openbanking.org.uk/terms",
    });
    expect(checked[1]!.diagnostics.map((d) => [d.line, d.column, d.pointer])).toEqual([
      [3, 1, "/Licence"],
    ]);
  });

  it("gives the same results on threads as in one thread", async () => {
    const single = await checkFiles(LARGE_JOBS, { ajv, cache: undefined, threads: 1 });
    expect(await threaded()).toEqual(single);
  });

  it("adds the threads' parse and validation time to the timing it is given", async () => {
    await threaded();
    expect(spentOnThreads.parseMs).toBeGreaterThan(0);
    expect(spentOnThreads.validateMs).toBeGreaterThan(0);
  });
});

describe("checking files through the cache", () => {
  const jobs = [
    siteJob("content/site.yaml", `${SITE}\n`),
    siteJob("content/other/site.yaml", `${SITE}\nLicence: "typo"\n`),
  ];

  async function cacheIn(): Promise<{ dir: string; cache: () => BuildCache }> {
    const dir = await mkdtemp(join(tmpdir(), "check-cache-"));
    folders.push(dir);
    return { dir, cache: () => new BuildCache(dir, "fingerprint") };
  }

  it("stores the result of a valid file only", async () => {
    const { dir, cache } = await cacheIn();
    await checkFiles(jobs, { ajv, cache: cache(), threads: 1 });
    const entries = await readdir(dir);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatch(/^[0-9a-f]{64}\.check$/);
  });

  it("does not parse a valid file again when its text is unchanged, and gives the same result", async () => {
    const { cache } = await cacheIn();
    const first = await checkFiles(jobs.slice(0, 1), { ajv, cache: cache(), threads: 1 });
    const spent = timing();
    const again = await checkFiles(jobs.slice(0, 1), {
      ajv,
      cache: cache(),
      threads: 1,
      timing: spent,
    });
    expect(spent.parseMs).toBe(0);
    expect(again).toEqual(first);
  });

  it("parses a file again when its text changed", async () => {
    const { cache } = await cacheIn();
    await checkFiles(jobs.slice(0, 1), { ajv, cache: cache(), threads: 1 });
    const spent = timing();
    const edited = [siteJob("content/site.yaml", `${SITE}\nPublisherName: "Fernbrook"\n`)];
    const [checked] = await checkFiles(edited, { ajv, cache: cache(), threads: 1, timing: spent });
    expect(spent.parseMs).toBeGreaterThan(0);
    expect(checked!.value).toMatchObject({ PublisherName: "Fernbrook" });
  });

  it("takes a result kept in memory from the run before without reading the cache, and keeps only this run's valid ones", async () => {
    const { dir, cache } = await cacheIn();
    const kept = new Map<string, CheckedFile>();
    const first = await checkFiles(jobs, { ajv, cache: cache(), threads: 1, kept });
    expect(kept.size).toBe(1);
    expect([...kept.values()][0]).toBe(first[0]);
    // The cache emptied: only what memory holds can spare the valid file its parse.
    for (const entry of await readdir(dir)) await rm(join(dir, entry));
    const spent = timing();
    const again = await checkFiles(jobs.slice(0, 1), {
      ajv,
      cache: cache(),
      threads: 1,
      kept,
      timing: spent,
    });
    expect(spent.parseMs).toBe(0);
    expect(again[0]).toBe(first[0]);
    const edited = [siteJob("content/site.yaml", `${SITE}\nPublisherName: "Fernbrook"\n`)];
    await checkFiles(edited, { ajv, cache: cache(), threads: 1, kept });
    expect([...kept.values()].map((c) => c.value)).toEqual([
      expect.objectContaining({ PublisherName: "Fernbrook" }),
    ]);
  });
});
