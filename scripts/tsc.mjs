#!/usr/bin/env node
// The compiler and type checker: TypeScript 7, the native one (package `typescript-native`, an
// alias of typescript@7). On this project it type-checks and compiles several times as fast as
// TypeScript 5 (BENCHMARKS.md#tooling, rows "the type check" and "compiling the build CLIs"); its
// output is the same JavaScript. The `typescript` package (5.9) stays for the
// tools that call TypeScript's JavaScript API, which TypeScript 7 does not offer yet:
// openapi-typescript and the tests that read source files.
//
// Both packages call their command `tsc`, and which of them node_modules/.bin/tsc is depends on
// the order npm installs them in; so the scripts run this file, never `tsc` by name.
//
//   node scripts/tsc.mjs -b          (the arguments are tsc's)
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** The path of TypeScript 7's command. */
export const TSC = join(
  dirname(createRequire(import.meta.url).resolve("typescript-native/package.json")),
  "bin",
  "tsc",
);

/** Runs tsc with `args`, its output on ours; returns its exit status. */
export function tsc(args) {
  const result = spawnSync(process.execPath, [TSC, ...args], { stdio: "inherit" });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = tsc(process.argv.slice(2));
}
