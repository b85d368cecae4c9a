/**
 * No content crashes the build (issue 51): whatever edits an editor makes to the sample content
 * in a git repository (files and folders removed, emptied, made binary, renamed; brands renamed,
 * duplicated, emptied, brought back; site.yaml removed, emptied, made wrong, given Sites, one
 * naming a brand the content no longer has; commits dated in order, in the same second, before
 * the last or ahead of the clock; merges on the first-parent line; the last edits committed or
 * left in the work tree), `npm run build` and `npm run validate`, run in this process as their
 * CLI runs them (build/cli/build-run.ts), end with 0 and their output or with 1 and every
 * problem at its file and line: never 2, never an internal error or a stack trace. A build that
 * passes made every document (/reference, /openapi.json, the landing page, the feed); one that
 * fails wrote nothing.
 *
 * Each case is a copy of one scratch repository holding the sample as its first commit, edited
 * and committed by the generated steps, with git run under a fixed identity and no user
 * configuration. The builds share one cache folder, as an editor's builds do.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_DIR } from "../../build/core/paths.js";
import { DATASETS } from "../../build/core/datasets.js";
import { buildCommand, type Run } from "../helpers/cli.js";
import { gitScript, SAMPLE_SECONDS, sampleRepo } from "../helpers/sample-repo.js";

/** Cases `npm test` runs: about 0.6 s each (two builds and the git work), so about 45 s in all. */
const RUNS = Number(process.env.INTEGRITY_RUNS ?? 75);

// A commit "ahead of the clock": 2100-01-01, after any clock this test runs under.
const AHEAD_OF_THE_CLOCK = 4_102_444_800;

const SAMPLE_BRANDS = ["Thistlecombe Bank", "Pennyfold Building Society"] as const;

/** One edit an editor makes to the work tree; `pick` chooses among what is there. */
type Edit =
  | { readonly kind: "remove-file"; readonly pick: number }
  | { readonly kind: "remove-folder"; readonly pick: number }
  | { readonly kind: "remove-every-data-set" }
  | { readonly kind: "empty-file"; readonly pick: number }
  | { readonly kind: "binary-file"; readonly pick: number; readonly bytes: Uint8Array }
  | { readonly kind: "rename-file"; readonly pick: number; readonly into: "file" | "brand-folder" }
  | { readonly kind: "rename-brand"; readonly pick: number; readonly name: string }
  | { readonly kind: "duplicate-brand"; readonly pick: number }
  | { readonly kind: "empty-brand"; readonly pick: number }
  | { readonly kind: "edit-record"; readonly pick: number }
  | { readonly kind: "restore"; readonly pick: number }
  | { readonly kind: "restore-all" }
  | { readonly kind: "name-not-utf8"; readonly pick: number }
  | { readonly kind: "data-set-as-file"; readonly pick: number }
  | { readonly kind: "site"; readonly as: SiteEdit };

type SiteEdit =
  | "missing"
  | "empty"
  | "a list"
  | "a wrong value"
  | "one past version"
  | "no history"
  | "sites"
  | "sites naming a removed brand";

/** When a commit is dated, against the one before it. */
type CommitTime = "later" | "same second" | "earlier" | "ahead of the clock";

type Step =
  | { readonly kind: "edit"; readonly edit: Edit }
  | { readonly kind: "commit"; readonly time: CommitTime }
  | { readonly kind: "merge"; readonly time: CommitTime };

const pick = fc.nat({ max: 1000 });
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant("remove-file" as const), pick }),
  fc.record({ kind: fc.constant("remove-folder" as const), pick }),
  fc.constant({ kind: "remove-every-data-set" as const }),
  fc.record({ kind: fc.constant("empty-file" as const), pick }),
  fc.record({
    kind: fc.constant("binary-file" as const),
    pick,
    bytes: fc.uint8Array({ minLength: 1, maxLength: 24 }),
  }),
  fc.record({
    kind: fc.constant("rename-file" as const),
    pick,
    into: fc.constantFrom("file" as const, "brand-folder" as const),
  }),
  fc.record({
    kind: fc.constant("rename-brand" as const),
    pick,
    name: fc.constantFrom(...SAMPLE_BRANDS, "Harbourside Bank", "Thistlecombe"),
  }),
  fc.record({ kind: fc.constant("duplicate-brand" as const), pick }),
  fc.record({ kind: fc.constant("empty-brand" as const), pick }),
  fc.record({ kind: fc.constant("edit-record" as const), pick }),
  fc.record({ kind: fc.constant("restore" as const), pick }),
  fc.constant({ kind: "restore-all" as const }),
  fc.record({ kind: fc.constant("name-not-utf8" as const), pick }),
  fc.record({ kind: fc.constant("data-set-as-file" as const), pick }),
  fc.record({
    kind: fc.constant("site" as const),
    as: fc.constantFrom<SiteEdit>(
      "missing",
      "empty",
      "a list",
      "a wrong value",
      "one past version",
      "no history",
      "sites",
      "sites naming a removed brand",
    ),
  }),
);
const time = fc.constantFrom<CommitTime>("later", "same second", "earlier", "ahead of the clock");
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("edit" as const), edit }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("commit" as const), time }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("merge" as const), time }) },
);

let scratch: string;
let template: string;
let cacheDir: string;
let sampleFiles: string[];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "opendata-edge-integrity-"));
  template = join(scratch, "template");
  cacheDir = join(scratch, "cache");
  await sampleRepo(template);
  sampleFiles = await filesUnder(join(template, "content"));
});

afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Every file under `dir` whose name is UTF-8 (the others name no file as text), in byte order. */
async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && !e.name.includes("\uFFFD"))
      .map((e) => relative(dir, join(e.parentPath, e.name)))
      .sort();
  } catch {
    return [];
  }
}

/** Every folder under `dir` (the data sets' and the brands'), relative to it, in byte order. */
async function foldersUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => relative(dir, join(e.parentPath, e.name)))
      .sort();
  } catch {
    return [];
  }
}

const chosen = <T>(items: readonly T[], n: number): T | undefined =>
  items.length === 0 ? undefined : items[n % items.length];

/** The brand files: the YAML files of the data sets' folders. */
const brandFiles = (files: readonly string[]) =>
  files.filter((f) => f.includes("/") && f.endsWith(".yaml"));

const sitesBlock = (brands: readonly string[]) =>
  [
    "Sites:",
    ...brands.flatMap((brand, i) => [
      `  - Name: site${i}`,
      `    Host: site${i}.example`,
      `    Brands: ["${brand}"]`,
    ]),
    "  - Name: group",
    "    Host: group.example",
    "",
  ].join("\n");

/** Makes `edit` in the content folder; a no-op where there is nothing for it to act on. */
async function apply(content: string, e: Edit): Promise<void> {
  const files = await filesUnder(content);
  const target = (path: string) => join(content, path);
  switch (e.kind) {
    case "remove-file": {
      const file = chosen(files, e.pick);
      if (file) await rm(target(file));
      return;
    }
    case "remove-folder": {
      const folder = chosen(await foldersUnder(content), e.pick);
      if (folder) await rm(target(folder), { recursive: true, force: true });
      return;
    }
    case "remove-every-data-set":
      for (const d of DATASETS) await rm(target(d.contentDir), { recursive: true, force: true });
      return;
    case "empty-file": {
      const file = chosen(files, e.pick);
      if (file) await writeFile(target(file), "");
      return;
    }
    case "binary-file": {
      const file = chosen(files, e.pick);
      if (file) await writeFile(target(file), e.bytes);
      return;
    }
    case "rename-file": {
      const file = chosen(brandFiles(files), e.pick);
      if (!file) return;
      const [folder] = file.split("/");
      const to =
        e.into === "file" ? `${folder}/renamed-${files.length}.yaml` : `${folder}/moved/part.yaml`;
      await mkdir(dirname(target(to)), { recursive: true });
      await writeFile(target(to), await readFile(target(file)));
      await rm(target(file));
      return;
    }
    case "rename-brand":
    case "empty-brand":
    case "edit-record": {
      const file = chosen(brandFiles(files), e.pick);
      if (!file) return;
      const text = await readFile(target(file), "utf8");
      const dataset = DATASETS.find((d) => file.startsWith(`${d.contentDir}/`));
      const brand = /^BrandName:.*$/m.exec(text)?.[0] ?? 'BrandName: "Empty Bank"';
      const edited =
        e.kind === "rename-brand"
          ? text.replace(/^BrandName:.*$/m, `BrandName: "${e.name}"`)
          : e.kind === "empty-brand"
            ? `${brand}\n${dataset?.recordsKey ? `${dataset.recordsKey}: []\n` : ""}`
            : // The first Identification changed: a new record, the old one gone (a data change).
              text.replace(/Identification: "([^"]*)"/, 'Identification: "$1-EDITED"');
      await writeFile(target(file), edited);
      return;
    }
    case "duplicate-brand": {
      const file = chosen(brandFiles(files), e.pick);
      if (!file) return;
      const [folder] = file.split("/");
      await writeFile(target(`${folder}/zz-copy.yaml`), await readFile(target(file)));
      return;
    }
    case "restore": {
      const file = chosen(sampleFiles, e.pick)!;
      // A file may stand where its folder was (a data set's folder made a file): nothing to restore.
      const folder = await stat(dirname(target(file))).catch(() => undefined);
      if (folder && !folder.isDirectory()) return;
      await mkdir(dirname(target(file)), { recursive: true });
      // A folder may stand where the file was (a brand made a folder): the file goes beside it.
      if ((await stat(target(file)).catch(() => undefined))?.isDirectory()) return;
      await writeFile(target(file), await readFile(join(CONTENT_DIR, file)));
      return;
    }
    case "name-not-utf8": {
      // A copy of a brand file under a name with a byte no UTF-8 text has (0xff).
      const file = chosen(brandFiles(files), e.pick);
      if (!file) return;
      const [folder] = file.split("/");
      const name = Buffer.concat([
        Buffer.from(`${target(folder!)}/bad`),
        Buffer.from([0xff, 0x2e]),
        Buffer.from("yaml"),
      ]);
      await writeFile(name, await readFile(target(file)));
      return;
    }
    case "data-set-as-file": {
      // A data set's folder replaced by a file of its name.
      const dataset = chosen(DATASETS, e.pick)!;
      await rm(target(dataset.contentDir), { recursive: true, force: true });
      await writeFile(target(dataset.contentDir), "BrandName: x\n");
      return;
    }
    case "restore-all":
      // The sample as it was first committed: the Data of a past version again.
      await rm(content, { recursive: true, force: true });
      await cp(CONTENT_DIR, content, { recursive: true });
      return;
    case "site": {
      const site = target("site.yaml");
      const sample = await readFile(join(CONTENT_DIR, "site.yaml"), "utf8");
      if (e.as === "missing") await rm(site, { force: true });
      else if (e.as === "empty") await writeFile(site, "");
      else if (e.as === "a list") await writeFile(site, "- License\n- TermsOfUse\n");
      else if (e.as === "a wrong value") await writeFile(site, `${sample}CacheMaxAgeSeconds: -1\n`);
      else if (e.as === "one past version")
        await writeFile(site, `${sample}ChangeHistoryVersions: 1\n`);
      else if (e.as === "no history") await writeFile(site, `${sample}ChangeHistoryVersions: 0\n`);
      else if (e.as === "sites") await writeFile(site, sample + sitesBlock(SAMPLE_BRANDS));
      else await writeFile(site, sample + sitesBlock([...SAMPLE_BRANDS, "Removed Bank"]));
      return;
    }
  }
}

/** The next commit's time, given the last one's. */
function nextSeconds(last: number, t: CommitTime): number {
  if (t === "same second") return last;
  if (t === "earlier") return last - 3600;
  if (t === "ahead of the clock") return AHEAD_OF_THE_CLOCK + (last % 1000);
  return last + 86_400;
}

/** Commits the work tree on main, or on a side branch merged into main with --no-ff. */
async function commit(root: string, s: Extract<Step, { kind: "commit" | "merge" }>, at: number) {
  const all = "git add -A && git commit -q --allow-empty -m edit";
  if (s.kind === "commit") return gitScript(root, all, at);
  return gitScript(
    root,
    `git checkout -q -b side && ${all} && git checkout -q main && ` +
      "git merge -q --no-ff -m merge side && git branch -q -D side",
    at,
  );
}

// A problem as the CLI prints it: file:line:column: pointer: message, the file under content/.
const PROBLEM = /^content\/[^:]*:[1-9]\d*:[1-9]\d*: \/\S*: \S/;
const COUNT = /^(\d[\d,]*) problems? in /;

/** What the run must be, whatever the content: 0, or 1 with every problem at its file and line. */
function checkRun(r: Run, what: string): void {
  const said = `${what} exited ${r.code}:\n${r.stderr}\n${r.stdout}`;
  expect([0, 1], said).toContain(r.code);
  expect(r.stderr, said).not.toMatch(/internal error|build failed|^\s+at /m);
  if (r.code === 0) return;
  const lines = r.stderr.split("\n");
  const count = lines.map((l) => COUNT.exec(l)).find(Boolean);
  expect(count, said).toBeTruthy();
  const problems = lines.filter((l) => /^content\/[^\s]*:\d/.test(l) || /^\S+:\d+:\d+: /.test(l));
  // With --verbose each problem is a line of its own, none grouped.
  expect(problems.length, said).toBe(Number(count![1]!.replaceAll(",", "")));
  for (const line of problems) expect(line, said).toMatch(PROBLEM);
}

const DOCUMENTS = ["index.html", "openapi.json", "reference.html", "x-std/changes.atom"];

/** Each case its own folder under the scratch folder. */
let cases = 0;

describe("any content in git", () => {
  it(
    "builds and validates with exit 0, or exit 1 naming every problem at its file and line, never an internal error",
    async () => {
      const seen = { built: 0, failed: 0, committed: 0, uncommitted: 0, merges: 0, ahead: 0 };
      await fc.assert(
        fc.asyncProperty(
          fc.array(step, { minLength: 1, maxLength: 8 }),
          fc.boolean(),
          async (steps, cached) => {
            const root = join(scratch, `case-${cases++}`);
            await cp(template, root, { recursive: true });
            const content = join(root, "content");
            let last = SAMPLE_SECONDS;
            let dirty = false;
            try {
              for (const s of steps) {
                if (s.kind === "edit") {
                  await mkdir(content, { recursive: true });
                  await apply(content, s.edit);
                  dirty = true;
                  continue;
                }
                last = nextSeconds(last, s.time);
                await commit(root, s, last);
                dirty = false;
                if (s.kind === "merge") seen.merges++;
                if (s.time === "ahead of the clock") seen.ahead++;
              }
              if (dirty) seen.uncommitted++;
              else seen.committed++;
              // The editor's cache, shared by the cases, or none: what a cold build does differs.
              const cache = cached ? ["--cache", cacheDir] : ["--no-cache"];
              const argv = ["--content", "content", "--out", "dist", ...cache];
              const options = { cwd: root, env: {} };
              const flags = ["--threads", "1", "--verbose"];
              const validated = await buildCommand(["validate", ...argv, ...flags], options);
              checkRun(validated, "validate");
              const built = await buildCommand(["build", ...argv, ...flags], options);
              checkRun(built, "build");
              // validate reports every problem the build would: the two agree.
              expect(built.code, `${built.stderr}\n${validated.stderr}`).toBe(validated.code);
              const written = await filesUnder(join(root, "dist"));
              if (built.code === 0) {
                seen.built++;
                // Every document, made for each site with Sites (under its folder), else at the top.
                const sites = [...new Set(written.flatMap((f) => /^sites\/[^/]+\//.exec(f) ?? []))];
                for (const folder of sites.length > 0 ? sites : [""])
                  for (const document of DOCUMENTS) expect(written).toContain(folder + document);
              } else {
                seen.failed++;
                // A failed build writes nothing.
                expect(written).toEqual([]);
              }
            } finally {
              await rm(root, { recursive: true, force: true });
            }
          },
        ),
        { numRuns: RUNS },
      );
      // A longer run (INTEGRITY_RUNS) says what it reached.
      if (process.env.INTEGRITY_RUNS) console.info(`integrity: ${RUNS} cases`, seen);
      // The generator reached each kind of case, so a run that stopped reaching one fails here.
      for (const [kind, n] of Object.entries(seen)) expect(n, kind).toBeGreaterThan(0);
    },
    Math.max(600_000, RUNS * 5_000),
  );
});
