/**
 * The lint as configured (.oxlintrc.json, package.json's lint script): it reaches every
 * TypeScript file of the project, holds each to typescript-eslint's recommended type-checked rules
 * and ESLint's recommended ones, and checks each file with the types of the runtime it runs in.
 * The lint itself runs in `npm test`, beside the tests.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

const run = promisify(execFile);
const OXLINT = join(PROJECT_ROOT, "node_modules", ".bin", "oxlint");

/** The lint script's command, options and targets (its arguments that are not options). */
async function lintScript(): Promise<{ command: string; options: string[]; targets: string[] }> {
  const pkg = JSON.parse(await readFile(join(PROJECT_ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const [command, ...args] = pkg.scripts.lint!.split(/\s+/);
  return {
    command: command!,
    options: args.filter((arg) => arg.startsWith("-")),
    targets: args.filter((arg) => !arg.startsWith("-")),
  };
}

/** Runs the lint script's command in `cwd` with `args`; its exit code and output. */
async function oxlint(cwd: string, args: readonly string[]) {
  try {
    const { stdout } = await run(OXLINT, [...args], { cwd, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout };
  } catch (error) {
    // execFile's error carries the process's exit code and output (Node's child_process).
    const { code, stdout } = error as { code: unknown; stdout: string };
    if (typeof code !== "number") throw error;
    return { code, stdout };
  }
}

describe("the lint", () => {
  it("runs oxlint's type-aware mode over build/, worker/, contract/, test/, bench/ and vitest.config.ts, warnings failing it", async () => {
    const { command, options, targets } = await lintScript();
    expect(command).toBe("oxlint");
    expect(options.sort()).toEqual(["--deny-warnings", "--type-aware"]);
    expect(targets.sort()).toEqual(
      ["bench", "build", "contract", "test", "vitest.config.ts", "worker"].sort(),
    );
  });

  it("reaches every TypeScript file but the generated ones", async () => {
    const { options, targets } = await lintScript();
    const listed = await oxlint(PROJECT_ROOT, [...options, "--debug=files", ...targets]);
    expect(listed.code).toBe(0);
    const linted = new Set(listed.stdout.split("\n").filter((line) => line.endsWith(".ts")));
    const sources = await fg("**/*.ts", {
      cwd: PROJECT_ROOT,
      ignore: ["node_modules/**", "dist/**", ".dist-*/**", ".out/**", ".cache/**", ".wrangler/**"],
    });
    // What is left out is generated (npm run types, npm run client-types), never a source.
    const left = sources.filter((file) => !linted.has(file));
    expect(left.filter((f) => f !== "worker-configuration.d.ts")).toEqual(
      left.filter((f) => f.startsWith("test/generated/")),
    );
    expect(linted.size).toBeGreaterThan(300);
    expect(linted).toContain("worker/index.ts");
    expect(linted).toContain("vitest.config.ts");
  });

  it("holds every file to the promise rules and the rules against `any` as errors", async () => {
    const config = JSON.parse(await readFile(join(PROJECT_ROOT, ".oxlintrc.json"), "utf8")) as {
      rules: Record<string, unknown>;
      overrides?: unknown;
    };
    // Rules turned on for all files, none weakened for some by an override.
    expect(config.overrides).toBeUndefined();
    for (const rule of [
      "typescript/no-floating-promises",
      "typescript/no-misused-promises",
      "typescript/await-thenable",
      "typescript/require-await",
      "typescript/no-unsafe-assignment",
      "typescript/no-unsafe-argument",
      "typescript/no-unsafe-member-access",
      "typescript/no-unsafe-call",
      "typescript/no-unsafe-return",
      "typescript/no-explicit-any",
    ]) {
      expect(config.rules[rule], rule).toBe("error");
    }
  });
});

/**
 * A copy of the project's tsconfig files and lint configuration with one small file in each
 * folder the lint names, each with a floating promise made with its runtime's own API. The lint
 * finds one only where the file's types say the call returns a promise, so it finds each only if
 * it reads the file with its folder's tsconfig: Node's types for build/, test/, bench/ and
 * vitest.config.ts, the Workers runtime's (worker-configuration.d.ts) for worker/ and contract/,
 * and vitest-pool-workers' for test/worker/.
 */
describe("the lint on a file in each folder, each with its runtime's types", () => {
  const PROBES: Record<string, string> = {
    "build/probe.ts": [
      'import { readFile } from "node:fs/promises";',
      "export function probe(names: string[]): void {",
      '  readFile("x");',
      "  names.forEach(async (name) => {",
      "    await readFile(name);",
      "  });",
      '  const parsed = JSON.parse("{}");',
      "  console.log(parsed);",
      "}",
    ].join("\n"),
    "worker/probe.ts": [
      "export function probe(kv: KVNamespace): void {",
      '  kv.put("k", "v");',
      "}",
    ].join("\n"),
    "contract/probe.ts": [
      "export function probe(kv: KVNamespace): void {",
      '  kv.put("k", "v");',
      "}",
    ].join("\n"),
    "test/probe.test.ts": [
      'import { setTimeout as sleep } from "node:timers/promises";',
      "export function probe(): void {",
      "  sleep(1);",
      "}",
    ].join("\n"),
    "test/worker/probe.test.ts": [
      'import { SELF } from "cloudflare:test";',
      "export function probe(): void {",
      '  SELF.fetch("http://example.com/");',
      "}",
    ].join("\n"),
    "bench/probe.ts": [
      'import { readFile } from "node:fs/promises";',
      "export function probe(kv: KVNamespace): void {",
      '  readFile("x");',
      '  kv.put("k", "v");',
      "}",
    ].join("\n"),
    "vitest.config.ts": [
      'import { readFile } from "node:fs/promises";',
      'readFile("x");',
      "export default {};",
    ].join("\n"),
  };
  // Stands in for the Workers runtime's types (npm run types writes the real ones): the part the
  // probes call.
  const RUNTIME_TYPES = [
    "interface KVNamespace { put(key: string, value: string): Promise<void>; }",
    "interface Fetcher { fetch(input: string): Promise<unknown>; }",
    "declare namespace Cloudflare { interface Env {} }",
  ].join("\n");

  let folder: string;
  let found: string[];
  let code: number;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "opendata-edge-lint-probe-"));
    const tsconfigs = await fg(["tsconfig*.json", "*/tsconfig.json", "test/worker/tsconfig.json"], {
      cwd: PROJECT_ROOT,
      ignore: ["node_modules/**"],
    });
    for (const file of [...tsconfigs, ".oxlintrc.json"]) {
      await mkdir(dirname(join(folder, file)), { recursive: true });
      await cp(join(PROJECT_ROOT, file), join(folder, file));
    }
    await writeFile(join(folder, "worker-configuration.d.ts"), RUNTIME_TYPES);
    await symlink(join(PROJECT_ROOT, "node_modules"), join(folder, "node_modules"), "dir");
    for (const [file, text] of Object.entries(PROBES)) {
      await mkdir(dirname(join(folder, file)), { recursive: true });
      await writeFile(join(folder, file), `${text}\n`);
    }
    const { options, targets } = await lintScript();
    const result = await oxlint(folder, [...options, "--format", "unix", ...targets]);
    code = result.code;
    // `path:line:column: message [Error/rule]`, one per finding.
    found = result.stdout
      .split("\n")
      .map((line) => /^(.+?):(\d+):\d+: .*\[\w+\/(.+)\]$/.exec(line))
      .flatMap((m) => (m ? [`${m[1]}:${m[2]} ${m[3]}`] : []))
      .sort();
  }, 60_000);
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("fails, naming each floating promise, the misused one and the `any` from JSON.parse", () => {
    expect(code).toBe(1);
    expect(found).toEqual(
      [
        "bench/probe.ts:3 typescript(no-floating-promises)",
        "bench/probe.ts:4 typescript(no-floating-promises)",
        "build/probe.ts:3 typescript(no-floating-promises)",
        "build/probe.ts:4 typescript(no-misused-promises)",
        "build/probe.ts:7 typescript(no-unsafe-assignment)",
        "contract/probe.ts:2 typescript(no-floating-promises)",
        "test/probe.test.ts:3 typescript(no-floating-promises)",
        "test/worker/probe.test.ts:3 typescript(no-floating-promises)",
        "vitest.config.ts:2 typescript(no-floating-promises)",
        "worker/probe.ts:2 typescript(no-floating-promises)",
      ].sort(),
    );
  });
});
