/**
 * Parsing content, per parser, side by side: every YAML file of a content folder parsed in one
 * process by each way in turn, rounds interleaved, so the figures share the machine's state.
 * CPU time (user + system of this process) is the measure, since wall time on a shared machine
 * counts other processes' turns too. Prints a Markdown table, or JSON with --json.
 *
 *   node .out/bench/parsers.js [--json] [--rounds N] <content dir>...
 *
 * The ways:
 * - yaml's parseDocument with a line counter, then toJS: how every file was parsed before js-yaml;
 * - yaml's parse: its data alone, no positions;
 * - js-yaml with its own CORE_SCHEMA, no positions (and a wider schema than the spec's core);
 * - the build's reader (read/yaml-source.ts): js-yaml with yaml's core schema and the listener's
 *   node index, then the positions the data-quality facts take of every record (three each);
 * - the other design: js-yaml for the data, and yaml's document for the positions of every file
 *   with records (what "locate with yaml only the files that have something to report" costs when
 *   the facts of every record need positions);
 * - JSON.parse of the same data written as JSON: the floor no YAML parser reaches.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fg from "fast-glob";
import { CORE_SCHEMA, load } from "js-yaml";
import { LineCounter, parse, parseDocument } from "yaml";
import { CONTENT_DIR } from "../build/core/paths.js";
import { locator, parseYaml, parseYamlDocument } from "../build/read/yaml-source.js";
import { PUBLISHER } from "./build-bench.js";
import { generateContent } from "./generate.js";

interface Way {
  readonly name: string;
  readonly run: (text: string, json: string) => unknown;
}

const RECORD_KEYS = ["Branch", "ATM", "PCA", "BCA", "SMELoan", "CCC"];

/** The pointers the data-quality facts locate in every record (quality/per-file.ts). */
function recordPointers(value: unknown): string[] {
  const pointers: string[] = [];
  if (value === null || typeof value !== "object") return pointers;
  for (const key of RECORD_KEYS) {
    const list = (value as Record<string, unknown>)[key];
    if (!Array.isArray(list)) continue;
    list.forEach((_, i) => {
      pointers.push(`/${key}/${i}`, `/${key}/${i}/Identification`, `/${key}/${i}/Name`);
    });
  }
  return pointers;
}

const WAYS: readonly Way[] = [
  {
    name: "yaml parseDocument + toJS (before)",
    run: (text) => {
      const doc = parseDocument(text, {
        lineCounter: new LineCounter(),
        schema: "core",
        uniqueKeys: true,
        strict: true,
        prettyErrors: false,
      });
      return doc.toJS({ maxAliasCount: 1000 }) as unknown;
    },
  },
  { name: "yaml parse (no positions)", run: (text) => parse(text, { schema: "core" }) as unknown },
  {
    name: "js-yaml CORE_SCHEMA (no positions)",
    run: (text) => load(text, { schema: CORE_SCHEMA }),
  },
  {
    name: "build: js-yaml + node index + record positions",
    run: (text) => {
      const source = parseYaml("f.yaml", text);
      const at = locator(source);
      for (const pointer of recordPointers(source.value)) at(pointer);
      return source.value;
    },
  },
  {
    name: "js-yaml + yaml document for positions",
    run: (text) => {
      const source = parseYaml("f.yaml", text);
      const pointers = recordPointers(source.value);
      if (pointers.length > 0) parseYamlDocument("f.yaml", text);
      return source.value;
    },
  },
  { name: "JSON.parse (same data as JSON)", run: (_text, json) => JSON.parse(json) as unknown },
];

interface ParserFigures {
  readonly dir: string;
  readonly files: number;
  readonly bytes: number;
  /** Per way: median CPU ms of parsing every file once. */
  readonly cpuMs: Record<string, number>;
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Measures every way on the YAML files under `dir`, `rounds` times, interleaved. */
async function measureParsers(dir: string, rounds: number): Promise<ParserFigures> {
  const files = (await fg("**/*.{yaml,yml}", { cwd: dir, absolute: true })).sort();
  const texts = await Promise.all(files.map((f) => readFile(f, "utf8")));
  const jsons = texts.map((t) => JSON.stringify(parseYaml("f.yaml", t).value ?? null));
  const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  const samples = new Map<string, number[]>(WAYS.map((w) => [w.name, []]));
  for (let round = 0; round < rounds; round++) {
    // Alternate the order each round, so no way always runs after the same other.
    const order = round % 2 === 0 ? WAYS : [...WAYS].reverse();
    for (const way of order) {
      const start = cpuMs();
      texts.forEach((text, i) => way.run(text, jsons[i]!));
      samples.get(way.name)!.push(cpuMs() - start);
    }
  }
  return {
    dir,
    files: files.length,
    bytes,
    cpuMs: Object.fromEntries([...samples].map(([name, xs]) => [name, median(xs)])),
  };
}

/** The figures as a Markdown table: one row per way, one column pair per folder. */
function parserTable(figures: readonly ParserFigures[], names: readonly string[]): string {
  const head = `| parser | ${names.map((n) => `${n}: CPU ms | MB/s`).join(" | ")} |`;
  const rule = `| --- | ${names.map(() => "--- | ---").join(" | ")} |`;
  const rows = WAYS.map((way) => {
    const cells = figures.map((f) => {
      const ms = f.cpuMs[way.name]!;
      return `${Math.round(ms).toLocaleString("en")} | ${(f.bytes / 1e6 / (ms / 1000)).toFixed(1)}`;
    });
    return `| ${way.name} | ${cells.join(" | ")} |`;
  });
  return [head, rule, ...rows].join("\n");
}

/**
 * For `npm run bench`: the sample content and generated set S (and set P unless quick), each way
 * side by side, as a Markdown section.
 */
export async function parserBenchmarks(options: { quick: boolean; runs: number }): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-parsers-"));
  try {
    const sets: [string, string][] = [["sample", CONTENT_DIR]];
    const s = join(root, "S");
    await generateContent(s, { branches: 1000, atms: 2000, products: 100, metricsBrands: 10 });
    sets.push(["set S", s]);
    if (!options.quick) {
      const p = join(root, "P");
      await generateContent(p, PUBLISHER);
      sets.push(["set P", p]);
    }
    const figures: ParserFigures[] = [];
    for (const [, dir] of sets) figures.push(await measureParsers(dir, Math.max(3, options.runs)));
    const size = (f: ParserFigures) => `${f.files} files, ${(f.bytes / 1e6).toFixed(2)} MB`;
    return [
      "### Parsing content, per parser (one process, CPU time, median of interleaved rounds)",
      "",
      sets.map(([name], i) => `${name}: ${size(figures[i]!)}`).join("; "),
      "",
      parserTable(
        figures,
        sets.map(([name]) => name),
      ),
    ].join("\n");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith("parsers.js")) {
  const args = process.argv.slice(2);
  const json = args.includes("--json");
  const at = args.indexOf("--rounds");
  const rounds = at >= 0 ? Number(args[at + 1]) : 5;
  const dirs = args.filter((a, i) => !a.startsWith("--") && (at < 0 || i !== at + 1));
  if (dirs.length === 0 || !Number.isInteger(rounds) || rounds < 1) {
    console.error("usage: node .out/bench/parsers.js [--json] [--rounds N] <content dir>...");
    process.exit(2);
  }
  const figures: ParserFigures[] = [];
  for (const dir of dirs) figures.push(await measureParsers(dir, rounds));
  console.log(json ? JSON.stringify(figures) : parserTable(figures, dirs));
}
