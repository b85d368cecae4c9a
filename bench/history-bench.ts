/**
 * The history's cost (build/history/): the bytes its change answers add to dist/ per data set, and
 * what a build costs with it against without it, each build in a fresh process, side by side in
 * one sitting. By default on set P (build-bench.ts) in a generated git history: the generated
 * content as the first commit, then `--versions` commits (100) each changing one record of every
 * v2.2 data set, an hour apart. With `--repo DIR`, on the content folder of an existing repository
 * instead (a real feed's history, made outside this project).
 *
 *   node .out/bench/history-bench.js [--versions N] [--runs N] [--repo DIR]
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PUBLISHER } from "./build-bench.js";
import { generateContent } from "./generate.js";
import { GIT_ENV } from "./git-env.js";
import { median, table } from "./report.js";

const run = promisify(execFile);
const HERE = new URL(".", import.meta.url).pathname;
const NODE_FLAGS = ["--max-semi-space-size=64"];

interface Once {
  ok: boolean;
  problems: unknown[];
  wallMs: number;
  changes: Record<string, { answers: number; identity: number; br: number; gzip: number }>;
  bodies: Record<string, number>;
  manifestBytes: number;
  note: string | null;
}

async function once(content: string, out: string, cache: string, history: boolean): Promise<Once> {
  const { stdout } = await run(
    process.execPath,
    [
      ...NODE_FLAGS,
      join(HERE, "history-once.js"),
      content,
      out,
      cache,
      history ? "history" : "none",
    ],
    { maxBuffer: 1 << 24 },
  );
  const result = JSON.parse(stdout) as Once;
  if (!result.ok) throw new Error(`benchmark build failed: ${JSON.stringify(result.problems)}`);
  return result;
}

async function commit(repo: string, seconds: number): Promise<void> {
  const env = {
    ...GIT_ENV,
    GIT_AUTHOR_DATE: `@${seconds} +0000`,
    GIT_COMMITTER_DATE: `@${seconds} +0000`,
  };
  await run("git", ["add", "-A", "content"], { cwd: repo, env });
  await run("git", ["commit", "-q", "-m", `version at ${seconds}`], { cwd: repo, env });
}

/** One value of one file per v2.2 data set changed, a different file each time, as editors do. */
async function editRecords(content: string, n: number): Promise<void> {
  const edits: [folder: string, change: (text: string) => string][] = [
    [
      "atms",
      (t) =>
        t.replace(
          /MinimumPossibleAmount: "?(\d+)\.00"?/,
          (_, a) => `MinimumPossibleAmount: "${Number(a) + 10}.00"`,
        ),
    ],
    ["branches", (t) => t.replace(/^(\s+Name: .*?)( v\d+)?$/m, `$1 v${n}`)],
    ...[
      "personal-current-accounts",
      "business-current-accounts",
      "unsecured-sme-loans",
      "commercial-credit-cards",
    ].map((folder): [string, (t: string) => string] => [
      folder,
      (t) => t.replace(/^(\s*- Name: .*?)( v\d+)?$/m, `$1 v${n}`),
    ]),
  ];
  for (const [folder, change] of edits) {
    const dir = join(content, folder, `synthetic-brand-${n % 2}`);
    const files = (await readdir(dir)).filter((f) => f.endsWith(".yaml")).sort();
    const file = join(dir, files[Math.floor(n / 2) % files.length]!);
    const text = await readFile(file, "utf8");
    const edited = change(text);
    if (edited === text) throw new Error(`no edit made in ${file}`);
    await writeFile(file, edited);
  }
}

const T0 = 1_790_000_000;

/** Set P's content as a first commit, then `versions` commits, each changing every v2.2 data set. */
export async function generatedHistory(root: string, versions: number): Promise<string> {
  const repo = join(root, "repo");
  const content = join(repo, "content");
  await generateContent(content, PUBLISHER);
  await run("git", ["init", "-q", "-b", "main"], { cwd: repo, env: GIT_ENV });
  await commit(repo, T0);
  for (let i = 1; i <= versions; i++) {
    await editRecords(content, i);
    await commit(repo, T0 + i * 3600);
  }
  return repo;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function historyBenchmarks(options: {
  runs: number;
  versions: number;
  repo?: string;
}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-history-bench-"));
  const out: string[] = [];
  try {
    const repo = options.repo ?? (await generatedHistory(root, options.versions));
    const content = join(repo, "content");
    const dist = (name: string) => join(root, `dist-${name}`);
    const caches = { without: join(root, "cache-without"), with: join(root, "cache-with") };

    // Cold: no cache at all, once each (a cold history build rebuilds every kept version).
    process.stderr.write("  cold builds...\n");
    const coldWithout = await once(content, dist("cold-without"), "none", false);
    const coldWith = await once(content, dist("cold-with"), "none", true);

    // Warm: each cache filled by one build, then builds side by side, alternating.
    await once(content, dist("without"), caches.without, false);
    await once(content, dist("with"), caches.with, true);
    const warm = { without: [] as number[], with: [] as number[] };
    let last: Once | undefined;
    for (let i = 0; i < options.runs; i++) {
      process.stderr.write(`  warm builds, round ${i + 1} of ${options.runs}...\n`);
      warm.without.push((await once(content, dist("without"), caches.without, false)).wallMs);
      last = await once(content, dist("with"), caches.with, true);
      warm.with.push(last.wallMs);
    }

    // A new commit, as a deploy sees: the data sets changed, so every answer is made again.
    let afterCommit: { without: number; with: number } | undefined;
    if (!options.repo) {
      await editRecords(content, options.versions + 1);
      await commit(repo, T0 + (options.versions + 1) * 3600);
      afterCommit = {
        without: (await once(content, dist("without"), caches.without, false)).wallMs,
        with: (await once(content, dist("with"), caches.with, true)).wallMs,
      };
    }

    const result = last!;
    const datasets = Object.keys(result.changes);
    out.push(
      `### Bytes the history adds to dist/ (${options.repo ? "the repository given" : `set P, ${options.versions + 1} versions in git`})`,
    );
    out.push("");
    out.push(
      table(
        [
          "data set",
          "full list (identity)",
          "answers kept",
          "answers: identity",
          "br",
          "gzip",
          "identity / full list",
        ],
        datasets.map((d) => {
          const c = result.changes[d]!;
          const body = result.bodies[d]!;
          return [
            d,
            kb(body),
            c.answers,
            kb(c.identity),
            kb(c.br),
            kb(c.gzip),
            (c.identity / body).toFixed(2),
          ];
        }),
      ),
    );
    const total = (k: "identity" | "br" | "gzip") =>
      datasets.reduce((n, d) => n + result.changes[d]![k], 0);
    out.push("");
    out.push(
      `All data sets: ${kb(total("identity") + total("br") + total("gzip"))} in ${datasets.reduce((n, d) => n + 3 * result.changes[d]!.answers, 0)} files; manifest.json ${kb(coldWithout.manifestBytes)} without history, ${kb(result.manifestBytes)} with.`,
    );
    out.push("");
    out.push("### A build with history against one without (fresh process each, side by side)");
    out.push("");
    const ratio = median(warm.with) / median(warm.without);
    out.push(
      table(
        ["build", "without history", "with history", "ratio"],
        [
          [
            "cold (no cache)",
            `${Math.round(coldWithout.wallMs)} ms`,
            `${Math.round(coldWith.wallMs)} ms`,
            (coldWith.wallMs / coldWithout.wallMs).toFixed(2),
          ],
          [
            `warm, nothing changed (median of ${options.runs}; ${Math.round(Math.min(...warm.without))}–${Math.round(Math.max(...warm.without))} / ${Math.round(Math.min(...warm.with))}–${Math.round(Math.max(...warm.with))} ms)`,
            `${Math.round(median(warm.without))} ms`,
            `${Math.round(median(warm.with))} ms`,
            ratio.toFixed(2),
          ],
          ...(afterCommit
            ? [
                [
                  "warm, after one more commit (every answer made again)",
                  `${Math.round(afterCommit.without)} ms`,
                  `${Math.round(afterCommit.with)} ms`,
                  (afterCommit.with / afterCommit.without).toFixed(2),
                ],
              ]
            : []),
        ],
      ),
    );
    out.push("");
    out.push(
      `Warm target (at most 1.25): ${ratio <= 1.25 ? "met" : "missed"} at ${ratio.toFixed(2)}.`,
    );
    return out.join("\n");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  const runs = Number(option("--runs") ?? 5);
  const versions = Number(option("--versions") ?? 100);
  console.log(await historyBenchmarks({ runs, versions, repo: option("--repo") }));
}
