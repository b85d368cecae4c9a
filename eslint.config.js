// ESLint with typescript-eslint's type-checked rules over every TypeScript folder: in a Worker a
// floating promise is a lost write or an unhandled rejection (no-floating-promises,
// no-misused-promises), and `any` leaking out of JSON.parse hides a wrong field name from the
// type checker. Part of `npm test`; docs/contributing.md#the-lint.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const root = import.meta.dirname;

// The type-checked rules read, besides the file they lint, the types of every file it imports.
// So ESLint's cache (npm run lint keeps one in node_modules/.cache/eslint) is made to answer for
// all files or none: this digest of every TypeScript file, tsconfig and the lock file is part of
// the configuration, and any change to one of them makes ESLint lint everything again. A cache
// kept per file would miss what a change does elsewhere: a function that starts returning a
// promise leaves its callers' unchanged files with floating promises.
function sourcesDigest() {
  const hash = createHash("sha256");
  const add = (path) => hash.update(`${path}\0`).update(readFileSync(join(root, path)));
  for (const folder of ["build", "worker", "contract", "test", "bench", "scripts"]) {
    const files = readdirSync(join(root, folder), { recursive: true, encoding: "utf8" });
    for (const file of files.sort()) {
      if (file.endsWith(".ts") || file.endsWith("tsconfig.json")) add(join(folder, file));
    }
  }
  for (const file of readdirSync(root).sort()) {
    if (
      /^(vitest\.config\.ts|worker-configuration\.d\.ts|tsconfig.*\.json|package-lock\.json)$/.test(
        file,
      )
    ) {
      add(file);
    }
  }
  return hash.digest("hex");
}

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      ".dist-*/**",
      ".out/**",
      ".cache/**",
      ".wrangler/**",
      "node_modules/**",
      "test/generated/**",
      "worker-configuration.d.ts",
      "**/*.js",
      "**/*.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // Node's types for the build, its tests and vitest.config.ts (test/tsconfig.json holds them).
      parserOptions: { project: ["./test/tsconfig.json"], tsconfigRootDir: root },
    },
    settings: { sourcesDigest: sourcesDigest() },
    rules: {
      // Narrowed to the project's way of leaving a field out of a copy: destructure it under a
      // name no one reads (`const { date: _date, ...rest } = headers`); the rest is what is used.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
  // Each file is linted with the types of the runtime it runs in, by folder, from three
  // programs: the project service would open one per tsconfig, five, for the same findings with
  // about a sixth more CPU time and half again the memory (BENCHMARKS.md, "2026-11-27: the
  // lint"). The Worker and the contract are read in the program of the Worker's tests, which
  // holds them with the Workers runtime's types.
  {
    files: ["worker/**/*.ts", "contract/**/*.ts", "test/worker/**/*.ts"],
    languageOptions: {
      parserOptions: { project: ["./test/worker/tsconfig.json"], tsconfigRootDir: root },
    },
  },
  {
    files: ["bench/**/*.ts"],
    languageOptions: {
      // Node's types and the Workers runtime's: the benchmarks drive the Worker's modules in Node.
      parserOptions: { project: ["./bench/tsconfig.json"], tsconfigRootDir: root },
    },
  },
);
