#!/usr/bin/env node
// Runs commands side by side and waits for all of them: `npm test`'s static checks (the type
// check, the lint, the format check), each one process that keeps about one core busy, so on two
// cores they take less than their sum (x0.72 to x0.86 measured; BENCHMARKS.md, "2026-11-27: the
// lint"). Each command's output is held and written whole when it ends, in the order given, so
// each reads as it would alone; every command runs to its end, so one run reports every kind of
// fault. Exits with the first failing command's status, or 0.
//
//   node scripts/side-by-side.mjs "tsc -b" "npm run -s lint"
import { spawn } from "node:child_process";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

// The project's own tools by name (tsc, eslint…), as npm's scripts have them, when run directly.
const bin = join(fileURLToPath(new URL("..", import.meta.url)), "node_modules", ".bin");
const env = { ...process.env, PATH: [bin, process.env.PATH].join(delimiter) };

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/side-by-side.mjs "<command>" ["<command>"...]');
  process.exit(2);
}

/** Runs one command through the shell; resolves with its status and its output, in order. */
function run(command) {
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(command, { shell: true, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (data) => chunks.push([process.stdout, data]));
    child.stderr.on("data", (data) => chunks.push([process.stderr, data]));
    child.on("error", (error) => {
      chunks.push([process.stderr, Buffer.from(`${command}: ${error.message}\n`)]);
    });
    child.on("close", (code) => resolve({ command, status: code ?? 1, chunks }));
  });
}

const runs = commands.map(run);
for (const pending of runs) {
  const { command, status: code, chunks } = await pending;
  for (const [stream, data] of chunks) stream.write(data);
  if (code !== 0) {
    console.error(`\n${command} failed (exit status ${code})`);
    if (process.exitCode === undefined) process.exitCode = code;
  }
}
