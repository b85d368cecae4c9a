/**
 * Where `npm run bench` keeps its run: one Markdown file per run under bench/results/, named by
 * the run's date and what it measured (`2026-11-29-bench-quick.md`), headed by the machine, the
 * date and the command. BENCHMARKS.md holds the current figures and links to the run each came
 * from; the runs themselves are history and are never rewritten.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../build/core/paths.js";

const RESULTS_DIR = join(PROJECT_ROOT, "bench", "results");

/** What a run measured, from its flags: `bench`, `bench-quick`, `bench-preview`, `bench-edge-quick`… */
export function runKind(args: readonly string[]): string {
  const parts = ["bench"];
  for (const flag of ["--preview", "--edge", "--repository", "--quick"])
    if (args.includes(flag)) parts.push(flag.slice(2));
  return parts.join("-");
}

/**
 * The run's file name: its UTC date and kind, and its UTC time as well when a run of that kind
 * already has the day's name (then a count, should that be taken too), so no run overwrites another.
 */
export function runFileName(
  date: Date,
  kind: string,
  taken: (name: string) => boolean = () => false,
): string {
  const day = date.toISOString().slice(0, 10);
  const first = `${day}-${kind}.md`;
  if (!taken(first)) return first;
  const time = date.toISOString().slice(11, 16).replace(":", "");
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? `${day}-${time}-${kind}.md` : `${day}-${time}-${kind}-${n}.md`;
    if (!taken(name)) return name;
  }
  throw new Error(`bench/results/ already holds 1,000 runs of ${kind} at ${day} ${time}`);
}

/** The head of a run's file: what it was, on which machine, when and by which command. */
export function runHeader(date: Date, command: string): string {
  const cpu = cpus();
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(", ");
  const when = `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return [
    `# ${when}: \`${command}\``,
    "",
    `- Machine: ${cpu[0]?.model.trim() ?? "unknown CPU"}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB memory, Node ${process.version}`,
    `- Load average at the start (1, 5, 15 minutes): ${load}`,
    `- Date: ${when}`,
    `- Command: \`${command}\``,
  ].join("\n");
}

/**
 * Writes a finished run under bench/results/, formatted as `npm run format` would (the report's
 * tables come unpadded), so the format check passes on it as committed; returns the path written.
 */
export function writeRun(date: Date, kind: string, markdown: string): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(
    RESULTS_DIR,
    runFileName(date, kind, (name) => existsSync(join(RESULTS_DIR, name))),
  );
  writeFileSync(path, markdown.endsWith("\n") ? markdown : `${markdown}\n`, { flag: "wx" });
  spawnSync(join(PROJECT_ROOT, "node_modules", ".bin", "oxfmt"), [path], { stdio: "ignore" });
  return path;
}
