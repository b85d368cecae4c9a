import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

// TypeScript 5.9's API, required rather than imported: an ESM import of its one CommonJS file
// runs Node's export lexer over 9 MB first (0.9 s of CPU against 0.4).
const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");

// The folders in which no module may import itself back through others (issues 30 and 51): a file-level
// cycle makes the order of evaluation depend on which module is loaded first, and hides which
// module owns a type (as when the Worker's Deps lived in the handler that its parts imported).
const FOLDERS = ["build", "worker", "contract", "bench"];

/** Each file's imports of other files in `files`, type-only ones included, in source order. */
function importGraph(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets: string[] = [];
    // preProcessFile lists import, import type, export…from, import() and require() alike.
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith(".")) continue;
      const target = posix.join(posix.dirname(file), ref.fileName).replace(/\.js$/, ".ts");
      if (files.has(target) && !targets.includes(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * Every cycle, one per strongly connected component (Tarjan's algorithm): its files in import
 * order, from the component's first file by name back to it, joined by arrows; then the
 * component's other files, which are on other cycles through the same files.
 */
function importCycles(files: ReadonlyMap<string, string>): string[] {
  const graph = importGraph(files);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file)!) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) components.push(component);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return components
    .map((component) => {
      const cycle = cycleThrough(graph, new Set(component));
      const others = component.filter((file) => !cycle.includes(file)).sort();
      const rest = others.length > 0 ? ` (tangled with it: ${others.join(", ")})` : "";
      return `${cycle.join(" → ")}${rest}`;
    })
    .sort();
}

// The shortest path from the component's first file back to itself, inside the component.
function cycleThrough(graph: Map<string, string[]>, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    for (const next of graph.get(file)!) {
      if (!component.has(next)) continue;
      if (next === start) {
        const back = [start];
        for (let at = file; at !== start; at = cameFrom.get(at)!) back.push(at);
        return [start, ...back.slice(1).reverse(), start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  throw new Error(`no cycle through ${start}`);
}

function projectFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const top of FOLDERS) {
    for (const entry of readdirSync(join(PROJECT_ROOT, top), { recursive: true })) {
      const path = `${top}/${String(entry).split("\\").join("/")}`;
      if (path.endsWith(".ts")) files.set(path, readFileSync(join(PROJECT_ROOT, path), "utf8"));
    }
  }
  return files;
}

describe("no module imports itself back", () => {
  it("build/, worker/, contract/ and bench/ have no file-level import cycle, type-only imports included", () => {
    const files = projectFiles();
    expect(files.size).toBeGreaterThan(20);
    expect(importCycles(files)).toEqual([]);
  });

  it("names each cycle by its files in import order, type-only imports and re-exports too", () => {
    const files = new Map([
      ["worker/a.ts", `import type { B } from "./http/b.js";`],
      ["worker/http/b.ts", `export { c } from "../c.js";`],
      [
        "worker/c.ts",
        `import { a } from "./a.js";\nimport { d } from "./d.js";\nimport { i } from "./i.js";`,
      ],
      ["worker/d.ts", `import { e } from "./e.js";`],
      ["worker/e.ts", `const d = await import("./d.js");`],
      ["worker/f.ts", `import { f } from "./f.js";`],
      ["worker/g.ts", `import { a } from "./a.js";\nimport m from "../dist/manifest.json";`],
      ["worker/h.ts", `import { c } from "./c.js";`],
      ["worker/i.ts", `import { h } from "./h.js";`],
    ]);
    expect(importCycles(files)).toEqual([
      "worker/a.ts → worker/http/b.ts → worker/c.ts → worker/a.ts (tangled with it: worker/h.ts, worker/i.ts)",
      "worker/d.ts → worker/e.ts → worker/d.ts",
      "worker/f.ts → worker/f.ts",
    ]);
  });

  it("finds none where imports only go one way", () => {
    const files = new Map([
      ["worker/a.ts", `import { b } from "./b.js";\nimport { c } from "./c.js";`],
      ["worker/b.ts", `import { c } from "./c.js";`],
      ["worker/c.ts", `import { x } from "../contract/x.js";`],
      ["contract/x.ts", ``],
    ]);
    expect(importCycles(files)).toEqual([]);
  });
});
