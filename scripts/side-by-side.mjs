#!/usr/bin/env node
// Runs commands side by side and waits for all of them: `npm test`'s static checks (the type
// check, the lint, the format check) beside the tests. Each check is one process that keeps about
// one core busy at times and the tests leave part of a core idle while they wait on child
// processes, so on two cores they take less than their sum (BENCHMARKS.md#tooling, row
// "the type check, lint and format check beside the tests"). Every command runs to its end, so one run
// reports every kind of fault. Exits with the first failing command's status, or 0.
//
//   node scripts/side-by-side.mjs "tsc -b" "npm run -s lint" [--main "vitest run" [args...]]
//
// Each command's output is held and written whole when it ends, in the order given, so each reads
// as it would alone. The command after `--main`, if any, is the long one a reader watches: its
// output comes as it is written, the others' follow it whole once it ends, and every argument
// after it is passed on to it (so `npm test -- <vitest options>` reaches vitest).
import { spawn } from "node:child_process";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

// The project's own tools by name (tsc, oxlint…), as npm's scripts have them, when run directly.
const bin = join(fileURLToPath(new URL("..", import.meta.url)), "node_modules", ".bin");
const env = { ...process.env, PATH: [bin, process.env.PATH].join(delimiter) };

const args = process.argv.slice(2);
const mainAt = args.indexOf("--main");
const held = mainAt === -1 ? args : args.slice(0, mainAt);
const main = mainAt === -1 ? undefined : [args[mainAt + 1], ...args.slice(mainAt + 2).map(quoted)];
if (held.length === 0 && main === undefined) {
  console.error(
    'usage: node scripts/side-by-side.mjs "<command>"... [--main "<command>" [arguments...]]',
  );
  process.exit(2);
}
if (main !== undefined && main[0] === undefined) {
  console.error("side-by-side: --main needs a command after it");
  process.exit(2);
}

/** One argument as the shell reads it back unchanged. */
function quoted(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/**
 * Runs one command through the shell; resolves with its status and, unless `live`, its output in
 * order.
 */
function run(command, live = false) {
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(command, {
      shell: true,
      env,
      stdio: ["ignore", live ? "inherit" : "pipe", live ? "inherit" : "pipe"],
    });
    child.stdout?.on("data", (data) => chunks.push([process.stdout, data]));
    child.stderr?.on("data", (data) => chunks.push([process.stderr, data]));
    child.on("error", (error) => {
      chunks.push([process.stderr, Buffer.from(`${command}: ${error.message}\n`)]);
    });
    child.on("close", (code) => resolve({ command, status: code ?? 1, chunks }));
  });
}

const runs = held.map((command) => run(command));
const mainRun = main === undefined ? undefined : await run(main.join(" "), true);
for (const [stream, data] of mainRun?.chunks ?? []) stream.write(data);
const finished = [];
for (const pending of runs) {
  const done = await pending;
  for (const [stream, data] of done.chunks) stream.write(data);
  if (done.status !== 0) console.error(`\n${done.command} failed (exit status ${done.status})`);
  finished.push(done);
}
if (mainRun !== undefined) {
  if (mainRun.status !== 0)
    console.error(`\n${mainRun.command} failed (exit status ${mainRun.status})`);
  finished.push(mainRun);
}
// The first failure in the order given, the --main command last.
const failed = finished.find((done) => done.status !== 0);
if (failed) process.exitCode = failed.status;
