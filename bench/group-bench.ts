/**
 * A banking group's repository (issue 52, item 5), beside R in `npm run bench -- --repository`:
 * bench/group-repo.ts's three brands from the real feeds, each its own site, and the group's
 * site with every brand, in 200 daily commits. Each build runs in a fresh process (build-once.js):
 * cold without a cache, cold filling an empty cache (and the cache's size), then builds after one
 * record is edited; the preview's saves come from bench/preview-bench.ts (groupSaves). Then the
 * floors each figure is given against: parsing every distinct past file the history reads once,
 * and compressing every body at the published settings.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { createHash } from "node:crypto";
import { join, relative } from "node:path";
import { runCheckJob } from "../build/check/pool.js";
import { createAjv } from "../build/check/schemas.js";
import { DATASETS } from "../build/core/datasets.js";
import {
  brotliNow,
  compressBrotli,
  compressGzip,
  gzipNow,
  PREVIEW_COMPRESSION,
} from "../build/encode/variants.js";
import { parseYaml } from "../build/read/yaml-source.js";
import { buildOnce, type BuildRun } from "./build-bench.js";
import { bytesOf, editOneRecord } from "./daily-bench.js";
import { git } from "./daily-repo.js";
import { groupRepository, missingGroupFeeds } from "./group-repo.js";
import { groupSaves } from "./preview-bench.js";
import { median, table } from "./report.js";

/** The targets at a group's size. */
const TARGETS = { coldMs: 20_000, editMs: 1_500, saveMs: 400, cacheBytes: 60e6, rssMB: 1_500 };

// The versions the history keeps (site.yaml's ChangeHistoryVersions default) and the two it
// reads beyond them (the current one, and the one before the oldest kept).
const VERSIONS_READ = 102;

const load1 = () => loadavg()[0]!.toFixed(1);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const msf = (ms: number) => `${Math.round(ms)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const times = (x: number, floor: number) => `${(x / floor).toFixed(1)}×`;

/**
 * How many git processes one build starts (git's own trace: a line for each command it runs), in a
 * fresh process as buildOnce runs it: with a cache when `cache` is given.
 */
async function gitProcesses(content: string, out: string, cache: string): Promise<number> {
  const trace = join(out, "..", `git-trace-${Date.now()}.txt`);
  const script = new URL("./build-once.js", import.meta.url).pathname;
  execFileSync(process.execPath, ["--max-semi-space-size=64", script, content, out, cache], {
    env: { ...process.env, GIT_TRACE: trace },
    maxBuffer: 1 << 24,
  });
  const text = await readFile(trace, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line.includes("trace: built-in: git ")).length;
}

/** Each identity file of `dist` (not its .br and .gz) by its path, to its SHA-256. */
async function identityFiles(dist: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || /\.(br|gz)$/.test(path)) continue;
    const hash = createHash("sha256")
      .update(await readFile(path))
      .digest("hex");
    files.set(relative(dist, path), hash);
  }
  return files;
}

/** Every body the build wrote (each site's data sets), for the compression floor. */
async function bodiesUnder(dist: string): Promise<Buffer[]> {
  const bodies: Buffer[] = [];
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && /\/std\/v[\d.]+\/.+\.json$/.test(path)) bodies.push(await readFile(path));
  }
  return bodies;
}

export async function groupBenchmarks(options: { runs: number }): Promise<string> {
  const missing = missingGroupFeeds();
  if (missing.length > 0) {
    return `### A banking group's repository\n\nNot measured: ${missing.join(", ")} not in ../shared/feeds.\n`;
  }
  process.stderr.write("  group: the repository...\n");
  const group = await groupRepository();
  const scratch = await mkdtemp(join(tmpdir(), "opendata-edge-group-bench-"));
  const dist = join(scratch, "dist");
  const cache = join(scratch, "cache");
  const atmFile = group.brands[0]!.atmFile;
  const edited = join(group.contentDir, atmFile);
  try {
    process.stderr.write("  group: cold build (no cache)...\n");
    let at = load1();
    const cold = { ...(await buildOnce(group.contentDir, join(scratch, "cold"), "none")), at };
    process.stderr.write("  group: cold build filling an empty cache...\n");
    at = load1();
    const filling = { ...(await buildOnce(group.contentDir, dist, cache)), at };
    const cacheBytes = await bytesOf(cache);
    const edits: (BuildRun & { at: string })[] = [];
    let before = new Map<string, string>();
    let gitAfterEdit = 0;
    let changed: string[] = [];
    let changedBytes: Buffer[] = [];
    try {
      const count = Math.max(3, options.runs);
      for (let n = 0; n < count; n++) {
        process.stderr.write(`  group: build after one edit, ${n + 1}...\n`);
        if (n === count - 1) before = await identityFiles(dist);
        await editOneRecord(group.contentDir, atmFile, n);
        at = load1();
        edits.push({ ...(await buildOnce(group.contentDir, dist, cache)), at });
      }
      // What the last edit changed, read now: the traced build below replaces it.
      const after = await identityFiles(dist);
      changed = [...after].filter(([path, hash]) => before.get(path) !== hash).map(([p]) => p);
      changedBytes = await Promise.all(changed.map((path) => readFile(join(dist, path))));
      // How many git processes: one more edit, traced (a row of its own, not a test's).
      await editOneRecord(group.contentDir, atmFile, count);
      gitAfterEdit = await gitProcesses(group.contentDir, dist, cache);
    } finally {
      git(group.repo, ["checkout", "-q", "--", "content"]);
    }
    const gitCold = await gitProcesses(group.contentDir, join(scratch, "traced"), "none");
    const saves = await groupSaves();

    process.stderr.write("  group: floors...\n");
    // Every distinct file the history reads: each content file of the commits its versions span.
    const commits = git(group.repo, ["rev-list", "--first-parent", `-${VERSIONS_READ}`, "HEAD"])
      .trim()
      .split("\n");
    const blobs = new Map<string, string>();
    for (const commit of commits) {
      for (const line of git(group.repo, ["ls-tree", "-r", commit, "content"]).trim().split("\n")) {
        const [meta, path] = line.split("\t");
        const hash = meta!.split(" ")[2]!;
        if (path!.endsWith(".yaml") && !path!.endsWith("site.yaml")) blobs.set(hash, path!);
      }
    }
    const texts = [...blobs.keys()].map((hash) => git(group.repo, ["cat-file", "blob", hash]));
    const yamlBytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
    at = load1();
    const began = performance.now();
    texts.forEach((text, i) => parseYaml(`past-${i}.yaml`, text));
    const parseMs = performance.now() - began;
    const parseAt = at;
    // The cores the build parses on: the floor of its wall time.
    const cores = availableParallelism();
    const bodies = await bodiesUnder(dist);
    const bodyBytes = bodies.reduce((n, b) => n + b.length, 0);
    at = load1();
    const compressBegan = performance.now();
    for (const body of bodies) await Promise.all([compressBrotli(body), compressGzip(body)]);
    const compressMs = performance.now() - compressBegan;
    const coldFloorMs = parseMs / cores + compressMs;
    // An edit's floor: starting Node, and compressing at the published settings every file the
    // edit changed (bodies, documents, change answers: each answer lists the edited record).
    at = load1();
    const editCompressBegan = performance.now();
    await Promise.all(
      changedBytes.map((bytes, i) =>
        Promise.all([
          compressBrotli(
            bytes,
            changed[i]!.startsWith("_changes/") || changed[i]!.includes("/_changes/")
              ? 6
              : undefined,
          ),
          compressGzip(bytes),
        ]),
      ),
    );
    const editCompressMs = performance.now() - editCompressBegan;
    const startMs = median(
      [0, 1, 2].map(() => {
        const began = performance.now();
        execFileSync(process.execPath, ["-e", ""]);
        return performance.now() - began;
      }),
    );
    const editFloorMs = startMs + editCompressMs;
    // A save's floor: the edited file checked once (parsed with positions and validated), warm,
    // as the preview's long-lived process checks it, and the same changed files compressed at the
    // preview's settings, one after another on its thread as the preview compresses them.
    const atms = DATASETS.find((d) => d.id === "atms")!;
    const job = {
      file: atmFile,
      text: await readFile(edited, "utf8"),
      schema: atms.brandSchema,
      recordsKey: atms.recordsKey,
      identity: atms.identity,
    };
    const ajv = createAjv();
    for (let i = 0; i < 3; i++) runCheckJob(job, ajv, undefined);
    const checkMs = median(
      [0, 1, 2, 3, 4].map(() => {
        const began = performance.now();
        runCheckJob(job, ajv, undefined);
        return performance.now() - began;
      }),
    );
    const previewBegan = performance.now();
    for (const bytes of changedBytes) {
      brotliNow(bytes, PREVIEW_COMPRESSION.brotliQuality(bytes.length));
      gzipNow(bytes, PREVIEW_COMPRESSION.gzipLevel);
    }
    const previewCompressMs = performance.now() - previewBegan;
    const saveFloorMs = checkMs + previewCompressMs;

    const editMs = median(edits.map((b) => b.wallMs));
    const served = saves.flatMap((row) => row.ms);
    const saveMs = served.length > 0 ? median(served) : Number.NaN;
    const everySave = saves.every((row) => row.served === row.asked);
    const peakMB = Math.max(cold.maxRssMB, filling.maxRssMB);
    const row = (what: string, b: BuildRun & { at: string }) => [
      what,
      s(b.wallMs),
      s(b.cpuMs),
      msf(b.timings.history),
      msf(b.timings.documents),
      msf(b.timings.parts.compressMs),
      `${b.maxRssMB.toFixed(0)} MB`,
      b.at,
    ];
    const mid = edits.find((b) => b.wallMs === editMs) ?? edits[0]!;
    return [
      `### A banking group's repository: ${group.brands.length} brands and the group's site, ${group.records.toLocaleString("en-GB")} records, ${group.days} daily commits`,
      "",
      `Made from the real feeds in ../shared/feeds by bench/group-repo.ts (${group.brands.map((b) => b.site).join(", ")}, and the group host), never copied into the project. ${commits.length} commits' distinct content files, ${blobs.size} of them (${mb(yamlBytes)} of YAML), are what a cold history parses.`,
      "",
      table(
        ["build", "wall", "CPU", "history", "documents", "compress (summed)", "peak RSS", "load"],
        [
          row("cold, `--no-cache`", cold),
          row("cold, filling an empty cache", filling),
          row(
            `after one record edited (median of ${edits.length}: ${edits.map((b) => msf(b.wallMs)).join(", ")})`,
            { ...mid, at: edits.map((b) => b.at).join(", ") },
          ),
        ],
      ),
      "",
      "#### Against the targets and the floors",
      "",
      table(
        ["figure", "measured", "target", "floor", "× floor"],
        [
          [
            "cold build, filling the cache",
            s(filling.wallMs),
            `under ${s(TARGETS.coldMs)}`,
            `${s(coldFloorMs)}: every distinct past file parsed once (${s(parseMs)} on one thread, ÷ ${cores} cores) + every body compressed at the published settings (${s(compressMs)}, ${bodies.length} bodies, ${mb(bodyBytes)})`,
            times(filling.wallMs, coldFloorMs),
          ],
          ["peak RSS, cold", `${peakMB.toFixed(0)} MB`, `under ${TARGETS.rssMB} MB`, "–", "–"],
          [
            "one edit, warm cache",
            s(editMs),
            `under ${s(TARGETS.editMs)}`,
            `${s(editFloorMs)}: starting Node (${msf(startMs)}) + compressing the ${changed.length} files the edit changed (${mb(changedBytes.reduce((n, b) => n + b.length, 0))}) at the published settings, all at once (${msf(editCompressMs)})`,
            times(editMs, editFloorMs),
          ],
          [
            "a save served at the brand's host and the group's (median)",
            everySave ? msf(saveMs) : `${msf(saveMs)}, **not every save served**`,
            `under ${msf(TARGETS.saveMs)}, every save`,
            `${msf(saveFloorMs)}: the edited file checked once, warm (${msf(checkMs)}), + the ${changed.length} files an edit changes compressed at the preview's settings (${msf(previewCompressMs)})`,
            times(saveMs, saveFloorMs),
          ],
          [
            "`.cache/` (bytes of its entries)",
            mb(cacheBytes),
            `under ${mb(TARGETS.cacheBytes)}`,
            "–",
            "–",
          ],
          [
            "git processes one build starts: cold, `--no-cache` / after one edit, warm cache",
            `${gitCold} / ${gitAfterEdit}`,
            "–",
            "–",
            "–",
          ],
        ],
      ),
      "",
      `Parse floor taken at load ${parseAt}, compression floor at ${at}. The preview's saves, each row a host:`,
      "",
      table(
        ["asked at", "served", "median write → served", "max"],
        saves.map((r) => [
          r.host,
          `${r.served} of ${r.asked}`,
          r.ms.length ? msf(median(r.ms)) : "–",
          r.ms.length ? msf(Math.max(...r.ms)) : "–",
        ]),
      ),
      "",
    ].join("\n");
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
