/**
 * A publisher's repository (issue 45, item 5): the build and the live preview on a git repository
 * of daily commits of one real-shaped ATM feed (bench/daily-repo.ts), beside the same content
 * outside git (a copy of the last commit's tree without .git): a cold build (no cache), a cold
 * build filling an empty cache and the cache's size, a build after one record is edited (warm
 * cache), and the preview's save to the new ETag served. Then the floors the targets are set
 * against: parsing 100 past versions once, and compressing one body at the published settings.
 * Each figure is given with the load average when it was taken: the machine may be shared.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { load } from "js-yaml";
import { DATASETS } from "../build/core/datasets.js";
import { PROJECT_ROOT } from "../build/core/paths.js";
import { compressBrotli, compressGzip, PUBLISHED_COMPRESSION } from "../build/encode/variants.js";
import { parseYaml } from "../build/read/yaml-source.js";
import { runCheckJob } from "../build/check/pool.js";
import { createAjv } from "../build/check/schemas.js";
import { buildOnce, type BuildRun } from "./build-bench.js";
import { dailyFeeds, dailyRepository, START_FEED, type DailyRepository } from "./daily-repo.js";
import { GIT_ENV } from "./git-env.js";
import { measure, type PreviewRun } from "./preview-bench.js";
import { median, table } from "./report.js";

const run = promisify(execFile);

/** The 1-minute load average, as shown beside each figure. */
const load1 = () => loadavg()[0]!.toFixed(1);

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", maxBuffer: 1 << 28 });
}

/** Appends " edit n" to the street of one record (a different one each n), as an editor would. */
export async function editOneRecord(content: string, file: string, n: number): Promise<void> {
  const path = join(content, ...file.split("/"));
  const text = await readFile(path, "utf8");
  const streets = [...text.matchAll(/^( +StreetName: "[^"]*?)( edit \d+)?"$/gm)];
  if (streets.length === 0) throw new Error(`no StreetName in ${path}`);
  const hit = streets[(n * 37) % streets.length]!;
  const edited = `${hit[1]} edit ${n}"`;
  await writeFile(path, text.slice(0, hit.index) + edited + text.slice(hit.index + hit[0].length));
}

export async function bytesOf(path: string): Promise<number> {
  const { stdout } = await run("du", ["-sb", path]);
  return Number(stdout.split("\t")[0]);
}

interface Place {
  readonly name: string;
  readonly content: string;
  /** The repository the content is the work tree of; none: outside git. */
  readonly repo?: string;
  /** The file an edit changes, under content/. */
  readonly file: string;
  cold?: BuildRun & { load: string };
  filling?: BuildRun & { load: string };
  cacheBytes?: number;
  warm: (BuildRun & { load: string })[];
  preview?: { runs: PreviewRun[]; load: string };
}

async function buildsAt(place: Place, file: string, scratch: string, edits: number): Promise<void> {
  const dist = join(scratch, `dist-${place.name}`);
  const cache = join(scratch, `cache-${place.name}`);
  process.stderr.write(`  ${place.name}: cold build (no cache)...\n`);
  let at = load1();
  place.cold = {
    ...(await buildOnce(place.content, join(scratch, `cold-${place.name}`), "none")),
    load: at,
  };
  process.stderr.write(`  ${place.name}: cold build filling an empty cache...\n`);
  at = load1();
  place.filling = { ...(await buildOnce(place.content, dist, cache)), load: at };
  place.cacheBytes = await bytesOf(cache);
  for (let n = 0; n < edits; n++) {
    process.stderr.write(`  ${place.name}: build after one edit, ${n + 1} of ${edits}...\n`);
    await editOneRecord(place.content, file, n);
    at = load1();
    place.warm.push({ ...(await buildOnce(place.content, dist, cache)), load: at });
  }
}

/**
 * Whether the repository's first commit holds what `npm run import -- --repair --force` (the
 * compiled CLI, in a process of its own) writes for the first day's feed, but for the comment line
 * naming the feed and the time of the import (test/bench/daily-repo.test.ts compares that too).
 */
async function firstDayAsImported(
  repo: DailyRepository,
  seed: number,
  feed: string | undefined,
): Promise<boolean> {
  const day = dailyFeeds({ days: 1, seed, feed }).next().value;
  if (!day) throw new Error("no first day");
  const cwd = await mkdtemp(join(tmpdir(), "opendata-edge-daily-import-"));
  try {
    // The importer reads the real feed where it lies, or a generated one written outside the project.
    const input = repo.real ? day.source : join(cwd, day.source);
    if (!repo.real) await writeFile(input, JSON.stringify(day.feed));
    const cli = join(PROJECT_ROOT, ".out", "build", "cli", "import.js");
    await run(
      process.execPath,
      [cli, "--content", "content", "--no-cache", "--repair", "--force", input],
      { cwd, maxBuffer: 1 << 26 },
    ).catch(
      // Exit 1: written, with problems the build would report too; the files are compared anyway.
      (error: { code?: number }) => {
        if (error.code !== 1) throw error;
      },
    );
    const first = git(repo.repo, "rev-list", "--max-parents=0", "main").trim();
    const committed = git(repo.repo, "show", `${first}:content/${repo.file}`);
    const imported = await readFile(join(cwd, "content", ...repo.file.split("/")), "utf8");
    const named = (text: string) => text.replace(/^# Imported by npm run import from .*$/m, "");
    return named(committed) === named(imported);
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

/**
 * The six real feeds issue 45 measured as one publisher (4,264 ATMs and 911 branches of Santander,
 * NatWest, HSBC, Bank of Scotland and Bank of Ireland, 5.5 MB of YAML), imported by the compiled
 * importer into a repository of one commit; undefined when a feed is not in ../shared/feeds.
 */
const SIX_FEEDS = [
  "santander_atm_v2.2_2020-02-11.json",
  "natwest_atm_v2.x_2020-02-29.json",
  "hsbc_atm_v2.2_2024-01-21.json",
  "bankofscotland_atm_v2.2_2020-02-21.json",
  "natwest_branch_v2.x_2020-02-29.json",
  "bankofireland_branch_v2.x_2019-08-21.json",
];

async function sixFeedRepository(scratch: string): Promise<Place | undefined> {
  const feeds = SIX_FEEDS.map((name) => join(PROJECT_ROOT, "..", "shared", "feeds", name));
  if (!feeds.every((feed) => existsSync(feed))) return undefined;
  process.stderr.write("  six real feeds: importing into one commit...\n");
  const root = join(scratch, "six-feeds");
  const content = join(root, "content");
  await mkdir(content, { recursive: true });
  await writeFile(
    join(content, "site.yaml"),
    'License: "https://www.openbanking.org.uk/open-licence"\nTermsOfUse: "https://www.openbanking.org.uk/terms"\n',
  );
  const cli = join(PROJECT_ROOT, ".out", "build", "cli", "import.js");
  for (const feed of feeds) {
    await run(
      process.execPath,
      [cli, "--content", content, "--no-cache", "--repair", "--force", feed],
      {
        maxBuffer: 1 << 26,
      },
    ).catch((error: { code?: number }) => {
      // Exit 1: written, with problems the build reports as warnings or fixes; the content builds.
      if (error.code !== 1) throw error;
    });
  }
  git(root, "init", "-q", "-b", "main");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "Six real feeds");
  return {
    name: "six real feeds, one commit",
    content,
    repo: root,
    file: "atms/hsbc-uk.yaml",
    warm: [],
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const msf = (ms: number) => `${Math.round(ms)} ms`;

export async function dailyBenchmarks(options: {
  quick: boolean;
  runs: number;
  days?: number | undefined;
  seed?: number | undefined;
  feed?: string | undefined;
}): Promise<string> {
  const days = options.days ?? (options.quick ? 150 : 200);
  const seed = options.seed ?? 45;
  const feed = options.feed ?? join(PROJECT_ROOT, START_FEED);
  process.stderr.write(`  the repository: ${days} daily commits...\n`);
  const repo = await dailyRepository({ days, seed, feed });
  const out: string[] = [];
  const scratch = await mkdtemp(join(tmpdir(), "opendata-edge-daily-bench-"));
  try {
    const asImported = await firstDayAsImported(repo, seed, feed);
    const yamlBytes = await bytesOf(join(repo.contentDir, ...repo.file.split("/")));
    const gitBytes = await bytesOf(join(repo.repo, ".git"));
    out.push(
      `### The repository: ${days} daily commits of ${repo.real ? "a real ATM feed" : "a generated ATM feed"}`,
      "",
      repo.real
        ? `Started from \`${repo.source}\` (read where it lies, not copied), imported as \`npm run import -- --repair --force\` would on each day.`
        : `**The real feed was not found at \`${feed}\`**: started from a generated feed of 1,234 ATMs (bench/generate.ts) instead.`,
      "",
      table(
        [
          "days (commits)",
          "records on the last day",
          "the file's YAML",
          "added",
          "moved",
          "changed",
          "removed",
          ".git",
          "made in",
          "day 0 as the importer writes it",
        ],
        [
          [
            days,
            repo.records.toLocaleString("en"),
            `${(yamlBytes / 1e6).toFixed(2)} MB`,
            repo.changes.added,
            repo.changes.moved,
            repo.changes.changed,
            repo.changes.removed,
            `${(gitBytes / 1e6).toFixed(1)} MB`,
            repo.generatedMs > 0 ? s(repo.generatedMs) : "reused from .out/bench-repos/",
            asImported ? "yes, byte for byte" : "**no**",
          ],
        ],
      ),
      "",
    );

    // The same content outside git: the last commit's tree, copied without .git.
    const plainRoot = join(scratch, "plain");
    await cp(repo.contentDir, join(plainRoot, "content"), { recursive: true });
    const places: Place[] = [
      { name: "in git", content: repo.contentDir, repo: repo.repo, file: repo.file, warm: [] },
      { name: "outside git", content: join(plainRoot, "content"), file: repo.file, warm: [] },
    ];
    const six = await sixFeedRepository(scratch);
    if (six) places.push(six);
    const edits = Math.max(3, options.runs);
    try {
      for (const place of places) await buildsAt(place, place.file, scratch, edits);
    } finally {
      git(repo.repo, "checkout", "-q", "--", "content");
      if (six) git(six.repo!, "checkout", "-q", "--", "content");
    }

    // The preview, in a copy of the repository (git history and all) and outside git.
    const saves = Math.max(7, options.runs);
    for (const place of places) {
      process.stderr.write(`  ${place.name}: the preview, ${saves} saves...\n`);
      const at = load1();
      const runs = await measure(
        async (content) => {
          if (place.repo) {
            const root = dirname(content);
            git(root, "init", "-q", "-b", "main");
            git(root, "fetch", "-q", place.repo, "main");
            git(root, "reset", "-q", "--hard", "FETCH_HEAD");
          } else {
            await cp(join(plainRoot, "content"), content, { recursive: true });
          }
        },
        // Numbered after the builds' edits, so each save changes the text.
        (content, n) => editOneRecord(content, place.file, 100 + n),
        "/std/v2.2/atms",
        saves,
      );
      place.preview = { runs, load: `${at} to ${load1()}` };
    }

    out.push("### Builds, in git and outside it (each in a fresh process)", "");
    const rows: (string | number)[][] = [];
    for (const p of places) {
      const row = (what: string, b: BuildRun & { load: string }) => [
        what,
        p.name,
        s(b.wallMs),
        s(b.cpuMs),
        msf(b.timings.history),
        msf(b.timings.check),
        msf(b.timings.encode),
        msf(b.timings.parts.compressMs),
        msf(b.timings.documents),
        `${b.maxRssMB.toFixed(0)} MB`,
        b.load,
      ];
      rows.push(row("cold, `--no-cache`", p.cold!));
      rows.push(row("cold, filling an empty cache", p.filling!));
      const wallMs = median(p.warm.map((b) => b.wallMs));
      const mid = p.warm.find((b) => b.wallMs === wallMs) ?? p.warm[0]!;
      rows.push(
        row(
          `after one record edited, warm cache (median of ${p.warm.length}: ${p.warm.map((b) => msf(b.wallMs)).join(", ")})`,
          { ...mid, load: p.warm.map((b) => b.load).join(", ") },
        ),
      );
    }
    out.push(
      table(
        [
          "build",
          "content",
          "wall",
          "CPU",
          "history",
          "check",
          "encode",
          "compress (summed over parallel calls)",
          "documents",
          "peak RSS",
          "load (1 min)",
        ],
        rows,
      ),
      "",
      `\`.cache/\` after the cold build: ${places.map((p) => `${p.name} ${(p.cacheBytes! / 1e6).toFixed(1)} MB`).join(", ")}.`,
      "",
      "Wall and CPU are the build's own (build-once.js, from before `runBuild` to after it; the CPU is the process's, worker and zlib threads included, not the git processes the history starts); the steps are wall times (pipeline.ts), compress the sum of its calls' durations, which overlap on the thread pool.",
      "",
    );

    out.push(
      "### The live preview: from a save to the new ETag served (one ATM record edited)",
      "",
    );
    out.push(
      table(
        [
          "content",
          "saves",
          "median",
          "min",
          "max",
          "of which build and publish (median)",
          "load (1 min)",
        ],
        places.map((p) => {
          const r = p.preview!.runs;
          return [
            p.name,
            r.length,
            msf(median(r.map((x) => x.servedMs))),
            msf(Math.min(...r.map((x) => x.servedMs))),
            msf(Math.max(...r.map((x) => x.servedMs))),
            msf(median(r.map((x) => x.buildMs))),
            p.preview!.load,
          ];
        }),
      ),
      "",
    );

    // The floors: parsing 100 past versions once, and compressing one body.
    process.stderr.write("  floors...\n");
    const commits = git(repo.repo, "rev-list", "-100", "main").trim().split("\n");
    const texts = commits.map((c) => git(repo.repo, "show", `${c}:content/${repo.file}`));
    const megabytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
    const timeIt = (work: () => void) => {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const began = performance.now();
        work();
        times.push(performance.now() - began);
      }
      return median(times);
    };
    let at = load1();
    const parseMs = timeIt(() => texts.forEach((t, i) => parseYaml(`v${i}.yaml`, t)));
    const jsYamlMs = timeIt(() => texts.forEach((t) => load(t)));
    const parseLoad = `${at} to ${load1()}`;
    const atms = DATASETS.find((d) => d.id === "atms")!;
    const body = await readFile(
      join(scratch, "dist-in git", ...`${atms.path.slice(1)}.json`.split("/")),
    );
    const quality = PUBLISHED_COMPRESSION.brotliQuality(body.length);
    at = load1();
    const timeAsync = async (work: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const began = performance.now();
        await work();
        times.push(performance.now() - began);
      }
      return median(times);
    };
    const brMs = await timeAsync(() => compressBrotli(body));
    const gzMs = await timeAsync(() => compressGzip(body));
    // A save's floor: the edited file checked once (parsed with positions and validated), warm,
    // as the preview's long-lived process checks it.
    const ajv = createAjv();
    const job = {
      file: repo.file,
      text: texts[0]!,
      schema: atms.brandSchema,
      recordsKey: atms.recordsKey,
      identity: atms.identity,
    };
    for (let i = 0; i < 3; i++) runCheckJob(job, ajv, undefined);
    const checkTimes: number[] = [];
    for (let i = 0; i < 7; i++) {
      const began = performance.now();
      runCheckJob(job, ajv, undefined);
      checkTimes.push(performance.now() - began);
    }
    const checkMs = median(checkTimes);
    out.push(
      "### The floors (in this process, median of 3)",
      "",
      table(
        ["work", "time", "load (1 min)"],
        [
          [
            `parsing the last ${texts.length} versions of the file once (${megabytes.toFixed(1)} MB), the build's parser (js-yaml with positions)`,
            msf(parseMs),
            parseLoad,
          ],
          ["the same, bare js-yaml `load`", msf(jsYamlMs), parseLoad],
          [
            `compressing the ATM body (${(body.length / 1e6).toFixed(2)} MB) with brotli at quality ${quality} (published)`,
            msf(brMs),
            at,
          ],
          [
            `the same body with gzip at level ${PUBLISHED_COMPRESSION.gzipLevel} (published)`,
            msf(gzMs),
            at,
          ],
          [
            `checking the edited file once (${(Buffer.byteLength(texts[0]!) / 1e6).toFixed(2)} MB: parsed with positions, validated), warm, median of 7: a save's floor`,
            msf(checkMs),
            at,
          ],
        ],
      ),
    );
    return out.join("\n");
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
