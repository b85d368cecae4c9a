#!/usr/bin/env node
// Compiles the build CLIs (build/, with the contract/ modules they import; tsconfig in build/) and,
// with --bench, the benchmarks (bench/, own tsconfig, which also import worker/) into .out/, each
// only when a source is newer than its last compile (with TypeScript 7, scripts/tsc.mjs): tsc takes
// a second even with nothing to do, which would dwarf a rebuild after one content edit (well under a second). `--force` compiles regardless.
// Then the schemas' validators, as ajv's standalone JavaScript (build/check/precompiled.ts), when the
// schemas, the packages or the build changed since they were last written.
// The build imports nothing from worker/ (test/project/stage-order.test.ts), so an edit there
// recompiles only the benchmarks.
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tsc } from "./tsc.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const shared = ["build", "contract", "tsconfig.base.json", "package-lock.json"];
// Each project: what it compiles from, and a file it emits (to tell a first compile).
const projects = {
  build: { inputs: shared, emits: join(".out", "build", "cli", "build.js") },
  bench: {
    inputs: [...shared, "worker", "bench", join("test", "fakes"), "worker-configuration.d.ts"],
    emits: join(".out", "bench", "run.js"),
  },
};

function newest(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

// `--bench` compiles the benchmarks too (npm run bench); everything else needs only the build.
const wanted = process.argv.includes("--bench") ? ["build", "bench"] : ["build"];
for (const name of wanted) {
  const { inputs, emits } = projects[name];
  const stamp = join(root, ".out", `.compiled-${name}`);
  const upToDate =
    !process.argv.includes("--force") &&
    existsSync(join(root, emits)) &&
    statSync(stamp, { throwIfNoEntry: false })?.mtimeMs >=
      Math.max(...inputs.map((p) => newest(join(root, p))));
  if (upToDate) continue;
  const status = tsc(["-p", join(root, name)]);
  if (status !== 0) process.exit(status);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

const validatorsStamp = join(root, ".out", ".compiled-validators");
const validatorInputs = ["schemas", "package-lock.json", join(".out", ".compiled-build")];
if (
  process.argv.includes("--force") ||
  !existsSync(join(root, ".out", "validators")) ||
  !(
    statSync(validatorsStamp, { throwIfNoEntry: false })?.mtimeMs >=
    Math.max(...validatorInputs.map((p) => newest(join(root, p))))
  )
) {
  const precompile = join(root, ".out", "build", "check", "precompile.js");
  const { writeValidators } = await import(pathToFileURL(precompile).href);
  writeValidators();
  writeFileSync(validatorsStamp, `${new Date().toISOString()}\n`);
}
