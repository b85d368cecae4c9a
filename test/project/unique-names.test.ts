import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

// TypeScript's API, required rather than imported, as in stage-order.test.ts (an ESM import of its
// one CommonJS file runs Node's export lexer over all of it first).
const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");

/**
 * The names of the types, interfaces, classes and enums a file declares at its top level, exported
 * or not; a name the file only imports or re-exports is not declared there.
 */
function declaredNames(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (
      (ts.isTypeAliasDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return [...names];
}

/** Each name declared in more than one file, as `Name: file, file`, names in order. */
function namesInTwoFiles(files: ReadonlyMap<string, string>): string[] {
  const filesOf = new Map<string, string[]>();
  for (const [file, text] of files) {
    for (const name of declaredNames(file, text))
      filesOf.set(name, [...(filesOf.get(name) ?? []), file]);
  }
  return [...filesOf]
    .filter(([, where]) => where.length > 1)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, where]) => `${name}: ${where.sort().join(", ")}`);
}

function buildFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(join(PROJECT_ROOT, "build"), { recursive: true })) {
    const path = `build/${String(entry).split("\\").join("/")}`;
    if (path.endsWith(".ts")) files.set(path, readFileSync(join(PROJECT_ROOT, path), "utf8"));
  }
  return files;
}

describe("each name of a type is declared once in build/", () => {
  it("declares each type, interface, class and enum name in one file of build/", () => {
    expect(namesInTwoFiles(buildFiles())).toEqual([]);
  });

  it("names a name declared in two files with both files, exported or not", () => {
    const files = new Map([
      ["build/a/x.ts", `export interface Place { line: number }\nclass Store {}`],
      ["build/b/y.ts", `type Place = { at: string };\nexport enum Kind { A }`],
      ["build/c/z.ts", `export class Store {}\nconst Kind = 1;`],
    ]);
    expect(namesInTwoFiles(files)).toEqual([
      "Place: build/a/x.ts, build/b/y.ts",
      "Store: build/a/x.ts, build/c/z.ts",
    ]);
  });

  it("takes a name a file imports or re-exports as declared elsewhere, not there", () => {
    const files = new Map([
      ["build/core/p.ts", `export interface Position { line: number }`],
      [
        "build/read/q.ts",
        `import type { Position } from "../core/p.js";\nexport type { Position } from "../core/p.js";`,
      ],
      ["build/check/r.ts", `function f() { interface Position { x: 1 } }`],
    ]);
    expect(namesInTwoFiles(files)).toEqual([]);
  });
});
