import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

// The documents a reader follows links between: a moved heading or file must fail here.
// The dated records and benchmark runs link out too.
const markdownIn = (folder: string): string[] =>
  readdirSync(join(PROJECT_ROOT, folder))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `${folder}/${name}`);
const DOCUMENTS = [
  "README.md",
  "BENCHMARKS.md",
  ...markdownIn("docs"),
  ...markdownIn("docs/records"),
  ...markdownIn("bench/results"),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link `[text](target)` outside code, with the target split at `#`. */
function linksOf(markdown: string): { path: string; anchor: string | undefined }[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => {
      const [path, anchor] = target.split("#");
      return { path: path!, anchor };
    });
}

describe("links between the documents", () => {
  it.each(DOCUMENTS)("%s links only to files and headings that exist", (document) => {
    const text = readFileSync(join(PROJECT_ROOT, document), "utf8");
    const broken: string[] = [];
    for (const { path, anchor } of linksOf(text)) {
      const file =
        path === "" ? join(PROJECT_ROOT, document) : join(PROJECT_ROOT, dirname(document), path);
      const shown = `${relative(PROJECT_ROOT, file)}${anchor ? `#${anchor}` : ""}`;
      if (!existsSync(file)) broken.push(`${shown} (no such file)`);
      else if (anchor && file.endsWith(".md") && !anchorsOf(readFileSync(file, "utf8")).has(anchor))
        broken.push(`${shown} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });

  it("finds a heading's anchor as GitHub writes it, and a missing one as missing", () => {
    const anchors = anchorsOf(
      "# A title\n## The `Status Code` header\n## Rate limits\n## Rate limits\n",
    );
    expect([...anchors]).toEqual([
      "a-title",
      "the-status-code-header",
      "rate-limits",
      "rate-limits-1",
    ]);
  });
});

// Code, tests, configuration and workflows cite documents as docs/<name>.md#<heading>.
const CITING = [
  "build",
  "contract",
  "worker",
  "test",
  "scripts",
  "bench",
  ".github",
  "wrangler.toml",
];

function filesUnder(path: string): string[] {
  const full = join(PROJECT_ROOT, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).flatMap((name) => filesUnder(join(path, name)));
}

describe("citations of the documents in code", () => {
  it("cites only headings that exist", () => {
    const broken: string[] = [];
    const files = CITING.flatMap(filesUnder).filter((f) => /\.(ts|mjs|yml|toml)$/.test(f));
    for (const file of files) {
      const text = readFileSync(join(PROJECT_ROOT, file), "utf8");
      for (const [citation, doc, anchor] of text.matchAll(/docs\/([a-z-]+\.md)#([a-z0-9-]+)/g)) {
        const target = join(PROJECT_ROOT, "docs", doc!);
        if (!existsSync(target) || !anchorsOf(readFileSync(target, "utf8")).has(anchor!))
          broken.push(`${file}: ${citation}`);
      }
    }
    expect(files.length).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });

  it("cites only records, benchmark runs and BENCHMARKS.md headings that exist", () => {
    const broken: string[] = [];
    const files = CITING.flatMap(filesUnder).filter((f) => /\.(ts|mjs|yml|toml)$/.test(f));
    const benchmarks = anchorsOf(readFileSync(join(PROJECT_ROOT, "BENCHMARKS.md"), "utf8"));
    let cited = 0;
    for (const file of files) {
      const text = readFileSync(join(PROJECT_ROOT, file), "utf8");
      const citations = [
        ...[...text.matchAll(/(?:docs\/records|bench\/results)\/[\w.-]+\.md/g)].map(([path]) => ({
          citation: path,
          exists: existsSync(join(PROJECT_ROOT, path)),
        })),
        ...[...text.matchAll(/BENCHMARKS\.md#([a-z0-9-]+)/g)].map(([citation, anchor]) => ({
          citation,
          exists: benchmarks.has(anchor!),
        })),
      ];
      cited += citations.length;
      for (const { citation, exists } of citations)
        if (!exists) broken.push(`${file}: ${citation}`);
    }
    expect(cited).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });
});

// Where a cited source path may be written from: the project's root, the citing file's folder, or
// build/ (steps cite each other as "check/steps.ts"). A bare file name must name some source file.
function citedSourceExists(path: string, citing: string, names: ReadonlySet<string>): boolean {
  if (!path.includes("/")) return names.has(path);
  const bases = ["", dirname(citing), "build"];
  return bases.some((base) => existsSync(join(PROJECT_ROOT, base, path)));
}

// Source paths in comments (`//`, `/*`, ` *` lines) and in the documents' code spans.
const SOURCE_PATH = /(?<![\w./-])((?:\.\.?\/)*[\w-]+(?:\/[\w.-]+)*\.(?:ts|mjs))(?![\w/-])/g;

function citedSourcePaths(file: string, text: string): { line: number; path: string }[] {
  const found: { line: number; path: string }[] = [];
  text.split("\n").forEach((line, i) => {
    const cited = file.endsWith(".md")
      ? [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).join(" ")
      : (/\/\/.*|\/\*.*|^\s*\*.*/.exec(line)?.[0] ?? "");
    for (const m of cited.matchAll(SOURCE_PATH)) found.push({ line: i + 1, path: m[1]! });
  });
  return found;
}

describe("source paths cited in code and documents", () => {
  it("names only files that exist, so a moved module leaves no stale path behind", () => {
    const sources = CITING.flatMap(filesUnder).filter(
      (f) => /\.(ts|mjs)$/.test(f) && !/^test\/(generated|fixtures)\//.test(f),
    );
    const names = new Set(sources.map((f) => f.split(/[\\/]/).pop()!));
    const broken: string[] = [];
    for (const file of [...sources, ...DOCUMENTS]) {
      const text = readFileSync(join(PROJECT_ROOT, file), "utf8");
      for (const { line, path } of citedSourcePaths(file, text))
        if (!citedSourceExists(path, file, names)) broken.push(`${file}:${line}: ${path}`);
    }
    expect(sources.length).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it("finds paths in comments and code spans, and not in code", () => {
    const ts = [
      'import { a } from "./a.js";',
      "// see check/steps.ts",
      " * and compile.mjs",
      'const b = "pipeline.ts";',
    ].join("\n");
    expect(citedSourcePaths("build/x.ts", ts)).toEqual([
      { line: 2, path: "check/steps.ts" },
      { line: 3, path: "compile.mjs" },
    ]);
    expect(citedSourcePaths("docs/a.md", "run `build/pipeline.ts`, not pipeline.ts")).toEqual([
      { line: 1, path: "build/pipeline.ts" },
    ]);
  });
});

describe("the README", () => {
  it("fits on a page: under 12 KB, the rest in docs/", () => {
    expect(readFileSync(join(PROJECT_ROOT, "README.md")).length).toBeLessThan(12_000);
  });
});
