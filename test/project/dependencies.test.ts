/**
 * Every dependency has a reason: each package package.json names is in docs/operations.md's
 * Dependencies table, beside why the project needs it, and the table names nothing it does not use.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

interface PackageJson {
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
}

/** The table's rows under "## Dependencies": the packages each names, and its reason. */
async function dependencyRows(): Promise<{ packages: string[]; why: string }[]> {
  const doc = await readFile(join(PROJECT_ROOT, "docs", "operations.md"), "utf8");
  const start = doc.indexOf("\n## Dependencies\n");
  expect(start, "docs/operations.md has a Dependencies section").toBeGreaterThan(-1);
  const end = doc.indexOf("\n## ", start + 1);
  const section = doc.slice(start, end === -1 ? undefined : end);
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [, names = "", why = ""] = line.split("|");
      return { packages: [...names.matchAll(/`([^`]+)`/g)].map((m) => m[1]!), why: why.trim() };
    });
}

describe("docs/operations.md's Dependencies table", () => {
  it("names every package in package.json, each with a reason", async () => {
    const pkg = JSON.parse(
      await readFile(join(PROJECT_ROOT, "package.json"), "utf8"),
    ) as PackageJson;
    const rows = await dependencyRows();
    const named = new Map(rows.flatMap((row) => row.packages.map((name) => [name, row.why])));
    const declared = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
    expect(declared.filter((name) => !named.has(name))).toEqual([]);
    expect(declared.filter((name) => (named.get(name) ?? "").length < 10)).toEqual([]);
    expect([...named.keys()].filter((name) => !declared.includes(name))).toEqual([]);
  });
});
