import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

// TypeScript 5.9's API, required rather than imported (see stage-order.test.ts).
const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");

const MOST_LINES = 80;
// What a longer function's comment says to give its reason.
const REASON = /Over 80 lines on purpose/;

/** Every function, method and arrow of build/ over MOST_LINES lines whose comment gives no reason. */
function longFunctions(): string[] {
  const found: string[] = [];
  const root = join(PROJECT_ROOT, "build");
  for (const entry of readdirSync(root, { recursive: true })) {
    const path = String(entry);
    if (!path.endsWith(".ts")) continue;
    const text = readFileSync(join(root, path), "utf8");
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: import("typescript").Node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const first = file.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = file.getLineAndCharacterOfPosition(node.end).line;
        const comment = ts
          .getLeadingCommentRanges(text, node.getFullStart())
          ?.map((r) => text.slice(r.pos, r.end))
          .join("\n");
        if (last - first + 1 > MOST_LINES && !REASON.test(comment ?? "")) {
          found.push(`build/${path}:${first + 1}: ${last - first + 1} lines`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

describe("build/'s functions", () => {
  it("are at most 80 lines each, but where the function's comment says why it is longer", () => {
    expect(longFunctions()).toEqual([]);
  });
});
