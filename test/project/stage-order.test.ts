import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

// TypeScript 5.9's API, required rather than imported: an ESM import of its one CommonJS file
// runs Node's export lexer over 9 MB first (0.9 s of CPU against 0.4).
const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");

// The one-way order of the code (docs/architecture.md, "The order of the folders"), lowest first:
// a module may import from its own folder and from folders before it in a chain, never after.
// `build` is the files directly in build/ (the pipeline, the build profiles, a revision's build).
const CHAINS: readonly (readonly string[])[] = [
  [
    ...["contract", "build/core"],
    ...["build/read", "build/quality", "build/check", "build/encode", "build/assemble"],
    ...["build/near", "build/history", "build/documents", "build/write", "build"],
    ...["build/guard", "build/diff", "build/import", "build/migrate"],
    ...["build/stats", "build/verify", "build/cli", "build/preview"],
  ],
  ["contract", "worker"],
];

/** The folder a project file belongs to in CHAINS, or undefined outside build/, contract/, worker/. */
function folderOf(path: string): string | undefined {
  const parts = path.split("/");
  if (parts[0] === "build") return parts.length > 2 ? `build/${parts[1]}` : "build";
  return parts[0] === "contract" || parts[0] === "worker" ? parts[0] : undefined;
}

function allowed(from: string, to: string): boolean {
  if (from === to) return true;
  return CHAINS.some((chain) => {
    const [f, t] = [chain.indexOf(from), chain.indexOf(to)];
    return t >= 0 && t < f;
  });
}

/** Every import against the order, as `file:line: imports target`; type-only imports included. */
function importsAgainstOrder(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const from = folderOf(file)!;
    // preProcessFile lists import, import type, export…from, import() and require() alike.
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith(".")) continue;
      const to = folderOf(posix.join(posix.dirname(file), ref.fileName));
      if (to === undefined || allowed(from, to)) continue;
      const line = text.slice(0, ref.pos).split("\n").length;
      found.push(`${file}:${line}: imports ${ref.fileName} (${from} may not import ${to})`);
    }
  }
  return found;
}

function projectFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const top of ["build", "contract", "worker"]) {
    for (const entry of readdirSync(join(PROJECT_ROOT, top), { recursive: true })) {
      const path = `${top}/${String(entry).split("\\").join("/")}`;
      if (path.endsWith(".ts")) files.set(path, readFileSync(join(PROJECT_ROOT, path), "utf8"));
    }
  }
  return files;
}

describe("the folders import one way", () => {
  it("every folder of build/, contract/ and worker/ has its place in the order", () => {
    const folders = new Set([...projectFiles().keys()].map((file) => folderOf(file)!));
    expect([...folders].filter((f) => !CHAINS.some((c) => c.includes(f)))).toEqual([]);
  });

  it("no module imports from a folder after its own, with no exceptions", () => {
    expect(importsAgainstOrder(projectFiles())).toEqual([]);
  });

  it("an import against the order is named with its file and line, type-only ones too", () => {
    const files = new Map([
      [
        "build/check/x.ts",
        `import { a } from "../core/a.js";\nimport type { S } from "../assemble/s.js";`,
      ],
      ["build/core/y.ts", `export { b } from "../pipeline.js";`],
      ["contract/z.ts", `const w = await import("../worker/w.js");`],
      [
        "worker/v.ts",
        `import { c } from "../contract/c.js";\nimport { d } from "../build/core/d.js";`,
      ],
    ]);
    expect(importsAgainstOrder(files)).toEqual([
      "build/check/x.ts:2: imports ../assemble/s.js (build/check may not import build/assemble)",
      "build/core/y.ts:1: imports ../pipeline.js (build/core may not import build)",
      "contract/z.ts:1: imports ../worker/w.js (contract may not import worker)",
      "worker/v.ts:2: imports ../build/core/d.js (worker may not import build/core)",
    ]);
  });
});
