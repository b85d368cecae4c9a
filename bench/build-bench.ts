/**
 * Build benchmarks. Generates synthetic content at several sizes and measures,
 * each build in a fresh process: the single-threaded parse-only floor, cold builds (no cache),
 * rebuilds after editing one file, peak memory, and the bytes of each variant against brotli's
 * best quality. Prints Markdown tables; `npm run bench` writes them into its run under
 * bench/results/.
 *
 *   node .out/bench/build-bench.js [--quick] [--runs N]
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompressSync, constants } from "node:zlib";
import { DATASETS } from "../build/core/datasets.js";
import type { StepTimings } from "../build/pipeline.js";
import {
  FULL_PRODUCTS_PER_FILE,
  RECORDS_PER_FILE,
  generateContent,
  type Sizes,
} from "./generate.js";
import { median, table } from "./report.js";

const run = promisify(execFile);
const HERE = new URL(".", import.meta.url).pathname;
/** The same V8 setting `npm run build` uses. */
const NODE_FLAGS = ["--max-semi-space-size=64"];

export interface BuildRun {
  ok: boolean;
  problems: number;
  wallMs: number;
  timings: StepTimings;
  maxRssMB: number;
  /** CPU time of the whole process, worker threads included. */
  cpuMs: number;
  bytes: Record<string, { identity: number; br: number; gzip: number }>;
}

/** One build in a process of its own; `cache` is the cache folder, or "none" for no cache. */
export async function buildOnce(content: string, out: string, cache: string): Promise<BuildRun> {
  const { stdout } = await run(
    process.execPath,
    [...NODE_FLAGS, join(HERE, "build-once.js"), content, out, cache],
    {
      maxBuffer: 1 << 24,
    },
  );
  const result = JSON.parse(stdout) as BuildRun;
  if (!result.ok) throw new Error(`benchmark build failed with ${result.problems} problems`);
  return result;
}

async function parseOnly(content: string): Promise<number> {
  const { stdout } = await run(process.execPath, [
    ...NODE_FLAGS,
    join(HERE, "parse-only.js"),
    content,
  ]);
  return (JSON.parse(stdout) as { wallMs: number }).wallMs;
}

/** Renames the first product of one business current account file, as an editor would. */
async function editOneProduct(content: string, n: number): Promise<void> {
  const file = join(content, "business-current-accounts", "synthetic-brand-0", "full-0000.yaml");
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace(/^(\s*- Name: .*?)( edit \d+)?$/m, `$1 edit ${n}`));
}

/**
 * Set P, a large publisher: the branch and ATM network of a big bank, and all four product data
 * sets in full (two marketing states and the samples' fee tables per product).
 */
export const PUBLISHER: Sizes = {
  branches: 3000,
  atms: 10000,
  products: 0,
  metricsBrands: 2,
  fullProducts: { pca: 300, bca: 200, sme: 100, ccc: 50 },
};

/** Changes one value in one ATM file of generated content, a different one each time, as an editor would. */
export async function editOneFile(content: string, n: number): Promise<void> {
  const file = join(
    content,
    "atms",
    "synthetic-brand-0",
    `part-${String(n % 4).padStart(4, "0")}.yaml`,
  );
  const text = await readFile(file, "utf8");
  await writeFile(
    file,
    text.replace(
      /MinimumPossibleAmount: "?(\d+)\.00"?/,
      (_, amount) => `MinimumPossibleAmount: "${Number(amount) + 10}.00"`,
    ),
  );
}

async function sameFolders(a: string, b: string): Promise<boolean> {
  const { stdout } = await run("diff", ["-r", "-q", a, b]).catch((e: { stdout: string }) => ({
    stdout: e.stdout || "differs",
  }));
  return stdout.trim() === "";
}

interface SetResult {
  name: string;
  sizes: Sizes;
  yamlMB: number;
  parseMs: number;
  cold: BuildRun;
  coldMs: number;
}

async function measureSet(
  root: string,
  name: string,
  sizes: Sizes,
  runs: number,
): Promise<SetResult> {
  const content = join(root, name, "content");
  await generateContent(content, sizes);
  const parses: number[] = [];
  const colds: BuildRun[] = [];
  for (let i = 0; i < runs; i++) {
    parses.push(await parseOnly(content));
    colds.push(await buildOnce(content, join(root, name, "dist"), "none"));
  }
  const { stdout } = await run("du", ["-sb", content]);
  const coldMs = median(colds.map((c) => c.wallMs));
  return {
    name,
    sizes,
    yamlMB: Number(stdout.split("\t")[0]) / 1e6,
    parseMs: median(parses),
    cold: colds.find((c) => c.wallMs === coldMs) ?? colds[0]!,
    coldMs,
  };
}

export async function buildBenchmarks(options: { quick: boolean; runs: number }): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-bench-"));
  const out: string[] = [];
  try {
    const sets: [string, Sizes][] = [
      // The size of a real published ATM feed (1,234 ATMs), with a branch network beside it.
      ["F", { branches: 400, atms: 1234, products: 20, metricsBrands: 2 }],
      ["S", { branches: 1000, atms: 2000, products: 100, metricsBrands: 10 }],
      ["M", { branches: 5000, atms: 10000, products: 500, metricsBrands: 10 }],
      ["M×2", { branches: 10000, atms: 20000, products: 1000, metricsBrands: 20 }],
      ...(options.quick
        ? []
        : ([["L", { branches: 20000, atms: 50000, products: 500, metricsBrands: 10 }]] as [
            string,
            Sizes,
          ][])),
    ];
    sets.push(["P", PUBLISHER]);
    const results: SetResult[] = [];
    for (const [name, sizes] of sets) {
      results.push(await measureSet(root, name, sizes, name === "L" ? 1 : options.runs));
    }
    const full = (s: Sizes) =>
      s.fullProducts
        ? s.fullProducts.pca + s.fullProducts.bca + s.fullProducts.sme + s.fullProducts.ccc
        : 0;
    const records = (s: Sizes) => s.branches + s.atms + s.products + full(s) + 2 * s.metricsBrands;
    out.push("### Cold builds (no cache), compression included");
    out.push(
      table(
        [
          "set",
          "branches",
          "ATMs",
          "PCA",
          "full products (PCA/BCA/SME/CCC)",
          "metrics brands",
          "YAML MB",
          "parse-only (1 thread)",
          "cold build",
          "ratio to parse-only",
          "records/s",
          "peak RSS",
        ],
        results.map((r) => [
          r.name,
          r.sizes.branches,
          r.sizes.atms,
          r.sizes.products,
          r.sizes.fullProducts ? Object.values(r.sizes.fullProducts).join("/") : "–",
          r.sizes.metricsBrands,
          r.yamlMB.toFixed(1),
          `${(r.parseMs / 1000).toFixed(2)} s`,
          `${(r.coldMs / 1000).toFixed(2)} s`,
          (r.coldMs / r.parseMs).toFixed(2),
          Math.round(records(r.sizes) / (r.coldMs / 1000)).toLocaleString("en"),
          `${r.cold.maxRssMB.toFixed(0)} MB`,
        ]),
      ),
    );
    out.push(
      [
        "### Where a cold build's time goes (median run)",
        "",
        "Steps run one after another; the wall time of `check` holds the parsing and validation done on",
        "the worker threads, whose own times are summed across threads (so on two cores they add up to",
        "more than `check`). Serialising the envelope is part of assembling; hashing every variant and",
        "compressing are encoding; `near` indexes the near-me data sets and `documents` makes (and",
        "compresses) the landing page and /openapi.json.",
      ].join("\n"),
    );
    const ms = (n: number) => `${Math.round(n)} ms`;
    out.push(
      table(
        [
          "set",
          "read",
          "check (wall)",
          "parse (threads)",
          "validate (threads)",
          "cross-file + assemble",
          "data quality",
          "serialize",
          "hash",
          "compress",
          "near",
          "documents",
          "write",
        ],
        results.map(({ name, cold: { timings: t } }) => [
          name,
          ms(t.read),
          ms(t.check),
          ms(t.parts.parseMs),
          ms(t.parts.validateMs),
          ms(t.crossCheck + t.assemble),
          ms(t.quality),
          ms(t.parts.serializeMs),
          ms(t.parts.hashMs),
          ms(t.parts.compressMs),
          ms(t.near),
          ms(t.documents),
          ms(t.write),
        ]),
      ),
    );
    const m = results.find((r) => r.name === "M")!;
    const m2 = results.find((r) => r.name === "M×2")!;
    const f = results.find((r) => r.name === "F")!;
    out.push(
      `The data-quality pass took **${((100 * f.cold.timings.quality) / f.coldMs).toFixed(1)}%** of the cold build of the feed-sized set F (target: under 5%), and ${results.map((r) => `${((100 * r.cold.timings.quality) / r.coldMs).toFixed(1)}% on ${r.name}`).join(", ")}.`,
      "",
    );
    out.push(
      `Doubling the records (M → M×2) multiplied the cold build time by **${(m2.coldMs / m.coldMs).toFixed(2)}** (target: at most 2.2).`,
    );

    // What the cores can give: the same single-threaded parse, alone and as two processes at once.
    // A parallel build cannot beat the parse-only time by more than this.
    const mContent = join(root, "M", "content");
    const alone = median([await parseOnly(mContent), await parseOnly(mContent)]);
    const pair = await Promise.all([parseOnly(mContent), parseOnly(mContent)]);
    const throughput = (2 * alone) / Math.max(...pair);
    out.push("### What the cores give (set M, parse-only)");
    out.push(
      table(
        ["one process alone", "two processes at once (each)", "throughput of two cores / one"],
        [
          [
            `${(alone / 1000).toFixed(2)} s`,
            pair.map((p) => `${(p / 1000).toFixed(2)} s`).join(", "),
            `${throughput.toFixed(2)}×`,
          ],
        ],
      ),
    );
    out.push(
      `With perfect scaling two cores would parse in ${(0.5).toFixed(2)} of the parse-only time; on this machine the best is about **${(1 / throughput).toFixed(2)}** of it, before validation, assembly and compression.`,
    );

    const p = results.find((r) => r.name === "P")!;
    const rate = (r: SetResult) => records(r.sizes) / (r.coldMs / 1000);
    out.push(
      `The large publisher with full products (P) built **${Math.round(rate(p)).toLocaleString("en")}** records/s cold, **${(rate(p) / rate(m)).toFixed(2)}×** the M set's rate in the same run (target: at least 1.00), with a peak RSS of ${p.cold.maxRssMB.toFixed(0)} MB; its cold build took **${(p.coldMs / 1000).toFixed(2)} s** (target: under 3 s).`,
    );

    // Rebuild after editing one file, large publisher (set P's content, already generated).
    const content = join(root, "P", "content");
    const cache = join(root, "P", "cache");
    await buildOnce(content, join(root, "P", "dist"), cache);
    const rebuildRows: (string | number)[][] = [];
    for (const [what, edit] of [
      ["one ATM file", editOneFile],
      ["one business current account file", editOneProduct],
    ] as const) {
      const rebuilds: BuildRun[] = [];
      for (let i = 0; i < Math.max(5, options.runs); i++) {
        await edit(content, i);
        rebuilds.push(await buildOnce(content, join(root, "P", "dist"), cache));
      }
      await rm(join(root, "P", "cold"), { recursive: true, force: true });
      await buildOnce(content, join(root, "P", "cold"), "none");
      const identical = await sameFolders(join(root, "P", "dist"), join(root, "P", "cold"));
      rebuildRows.push([
        what,
        rebuilds.length,
        `${Math.round(median(rebuilds.map((r) => r.wallMs)))} ms`,
        `${Math.round(Math.min(...rebuilds.map((r) => r.wallMs)))} ms`,
        `${Math.round(Math.max(...rebuilds.map((r) => r.wallMs)))} ms`,
        `${Math.max(...rebuilds.map((r) => r.maxRssMB)).toFixed(0)} MB`,
        identical ? "yes" : "**no**",
      ]);
    }
    out.push(
      `### Rebuild after editing one content file (set P: 3,000 branches, 10,000 ATMs, 300 PCA, 200 BCA, 100 SME, 50 CCC in full, 2 metrics brands; ${RECORDS_PER_FILE} branches or ATMs, ${FULL_PRODUCTS_PER_FILE} products per file)`,
    );
    out.push(
      table(
        ["edited", "runs", "median", "min", "max", "peak RSS", "output identical to a cold build"],
        rebuildRows,
      ),
    );
    out.push("Target: a rebuild after one edit under 300 ms (median, the build's own time).");

    // Bytes on the wire.
    out.push("### Bytes per data set (set M), against brotli at quality 11");
    const rows: (string | number)[][] = [];
    for (const [dataset, b] of Object.entries(m.cold.bytes)) {
      const path = DATASETS.find((d) => d.id === dataset)!.path;
      const file = join(root, "M", "dist", ...path.slice(1).split("/"));
      const identity = await readFile(`${file}.json`);
      const q11 = brotliCompressSync(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      }).length;
      rows.push([
        dataset,
        b.identity.toLocaleString("en"),
        b.gzip.toLocaleString("en"),
        b.br.toLocaleString("en"),
        q11.toLocaleString("en"),
        `${((b.br / q11 - 1) * 100).toFixed(1)}%`,
      ]);
    }
    out.push(
      table(
        ["data set", "identity", "gzip 9", "brotli (ours)", "brotli q11", "ours over q11"],
        rows,
      ),
    );
    return out.join("\n\n");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
