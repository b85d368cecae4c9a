#!/usr/bin/env node
// Compiles the build CLI (build/ and bench/, with the worker/ modules they import; tsconfig in
// build/) into .out/, but only when a source is newer than the last compile: tsc takes 2-4 s even
// with nothing to do, which would dwarf a rebuild after one content edit (well under a second).
// `--force` compiles regardless.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stamp = join(root, ".out", ".compiled");
const inputs = ["build", "bench", "worker", "tsconfig.base.json", "package-lock.json"];

function newest(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const upToDate =
  !process.argv.includes("--force") &&
  existsSync(join(root, ".out", "build", "cli.js")) &&
  statSync(stamp, { throwIfNoEntry: false })?.mtimeMs >=
    Math.max(...inputs.map((p) => newest(join(root, p))));
if (!upToDate) {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", join(root, "build")], {
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
