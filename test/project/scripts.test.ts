import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

// Every script in package.json is a command someone runs or reads about (issue 51): the README's
// table names each, the steps other scripts run (the compiler, the generated types, the format
// check) included, and docs/architecture.md ("The commands") says what each runs. A script added
// to package.json fails here until both documents name it.

const scripts = Object.keys(
  (
    JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts,
);
const read = (path: string): string => readFileSync(join(PROJECT_ROOT, path), "utf8");

/**
 * Whether a document names a script as a reader types it: `npm run <name>` (`npm run -s <name>`),
 * or `npm start` and `npm test`, which npm runs without `run`; the name must end there, so
 * `npm run format` does not name `format:check`.
 */
function names(markdown: string, script: string): boolean {
  const name = script.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const short = script === "start" || script === "test" ? `|npm ${name}` : "";
  return new RegExp(`(?:npm run (?:-s )?${name}${short})(?![\\w:-])`).test(markdown);
}

describe("the commands in package.json", () => {
  it("finds a script named as a reader types it, and not a longer one", () => {
    expect(names("run `npm run format:check`", "format:check")).toBe(true);
    expect(names("run `npm run format:check`", "format")).toBe(false);
    expect(names("`npm test` builds", "test")).toBe(true);
    expect(names("`npm run -s typecheck`", "typecheck")).toBe(true);
    expect(names("`npm run typecheck`", "types")).toBe(false);
    expect(names("`npm install`", "import")).toBe(false);
  });

  it("are each named in docs/architecture.md", () => {
    const architecture = read("docs/architecture.md");
    expect(scripts.filter((script) => !names(architecture, script))).toEqual([]);
  });

  it("are each named in the README, the steps other commands run included", () => {
    expect(scripts).toEqual(expect.arrayContaining(["compile", "typecheck", "format:check"]));
    expect(scripts.filter((script) => !names(read("README.md"), script))).toEqual([]);
  });
});
