/**
 * The lint as configured (eslint.config.js, package.json's lint script): it reaches every
 * TypeScript file of the project, with the promise rules on everywhere, and lints each file with
 * the types of the runtime it runs in. The lint itself runs in `npm test`, before vitest.
 */
import { readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { ESLint } from "eslint";
import fg from "fast-glob";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

const eslint = new ESLint({ cwd: PROJECT_ROOT });

/** What the lint script names: its arguments that are not options or their values. */
async function lintTargets(): Promise<string[]> {
  const pkg = JSON.parse(await readFile(join(PROJECT_ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const [command, ...args] = pkg.scripts.lint!.split(/\s+/);
  expect(command).toBe("eslint");
  const withValue = new Set(["--cache-strategy", "--cache-location", "-c", "--config"]);
  return args.filter((arg, i) => !arg.startsWith("-") && !withValue.has(args[i - 1]!));
}

/** Every TypeScript file of the project outside what is generated or installed. */
async function projectFiles(): Promise<string[]> {
  return fg("**/*.ts", {
    cwd: PROJECT_ROOT,
    ignore: ["node_modules/**", "dist/**", ".dist-*/**", ".out/**", ".cache/**", ".wrangler/**"],
  });
}

/** The severity a rule has in a file's computed configuration (0 off, 1 warn, 2 error). */
function severity(config: { rules?: Record<string, unknown> }, rule: string): number {
  const setting = config.rules?.[rule];
  const level: unknown = Array.isArray(setting) ? setting[0] : setting;
  return level === "error" ? 2 : level === "warn" ? 1 : typeof level === "number" ? level : 0;
}

describe("the lint", () => {
  it("names build/, worker/, contract/, test/, bench/ and vitest.config.ts", async () => {
    expect((await lintTargets()).sort()).toEqual(
      ["bench", "build", "contract", "test", "vitest.config.ts", "worker"].sort(),
    );
  });

  it("reaches every TypeScript file but the generated ones", async () => {
    const targets = await lintTargets();
    const unlinted: string[] = [];
    const ignored: string[] = [];
    for (const file of await projectFiles()) {
      const named = targets.some((t) => file === t || file.startsWith(`${t}/`));
      if (await eslint.isPathIgnored(join(PROJECT_ROOT, file))) ignored.push(file);
      else if (!named) unlinted.push(file);
    }
    expect(unlinted).toEqual([]);
    // What is left out is generated (npm run types, npm run client-types), never a source.
    expect(ignored.filter((f) => f !== "worker-configuration.d.ts")).toEqual(
      ignored.filter((f) => f.startsWith("test/generated/")),
    );
  });

  it.each([
    "build/pipeline.ts",
    "worker/index.ts",
    "contract/manifest.ts",
    "test/helpers/json.ts",
    "test/worker/index.test.ts",
    "bench/run.ts",
    "vitest.config.ts",
  ])("holds %s to no-floating-promises and no-misused-promises as errors", async (file) => {
    const config = (await eslint.calculateConfigForFile(join(PROJECT_ROOT, file))) as {
      rules?: Record<string, unknown>;
    };
    expect(severity(config, "@typescript-eslint/no-floating-promises")).toBe(2);
    expect(severity(config, "@typescript-eslint/no-misused-promises")).toBe(2);
  });

  it.each([
    ["worker/index.ts", "test/worker/tsconfig.json"],
    ["contract/manifest.ts", "test/worker/tsconfig.json"],
    ["test/worker/index.test.ts", "test/worker/tsconfig.json"],
    ["build/pipeline.ts", "test/tsconfig.json"],
    ["test/helpers/json.ts", "test/tsconfig.json"],
    ["vitest.config.ts", "test/tsconfig.json"],
    ["bench/run.ts", "bench/tsconfig.json"],
  ])("lints %s with the types of %s, its runtime's", async (file, tsconfig) => {
    const config = (await eslint.calculateConfigForFile(join(PROJECT_ROOT, file))) as {
      languageOptions?: { parserOptions?: { project?: string[] } };
    };
    const projects = config.languageOptions?.parserOptions?.project ?? [];
    expect(projects.map((p) => p.replace(/^\.\//, ""))).toEqual([tsconfig]);
    // And that tsconfig holds the file itself, not only through an import.
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(PROJECT_ROOT, tsconfig),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
        },
      },
    );
    const held = (parsed?.fileNames ?? []).map((f) =>
      relative(PROJECT_ROOT, f).split(sep).join("/"),
    );
    expect(held).toContain(file);
  });
});
