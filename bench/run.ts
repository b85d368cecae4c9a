/**
 * `npm run bench`: the build, live preview, import, edge, near-me and request metrics benchmarks, printed as one Markdown report
 * headed by the machine and the date, and written as the run's own file under bench/results/
 * (bench/record.ts), from which BENCHMARKS.md's current table takes its figures. Progress goes to stderr.
 *
 *   npm run bench [-- --quick] [-- --runs N] [-- --preview | --edge | --repository]
 *                 [-- --days N] [-- --seed N] [-- --feed PATH]
 *
 * --quick: smaller build sets and shorter edge measurements; --runs: cold builds per build set;
 * --preview: only the live preview's figures (npm start: save to new ETag served); --edge: only
 * the Worker's (edge, near me, request metrics); --repository: only the publisher's repository
 * (bench/daily-bench.ts: a git repository of --days daily commits, 200 by default and 150 with
 * --quick, from the real feed at --feed, by default ../shared/feeds/hsbc_atm_v2.2_2024-01-21.json
 * beside the project, or a generated one when that is absent; --seed chooses the daily changes),
 * then a banking group's repository beside it (bench/group-bench.ts: three brands' real feeds,
 * each its own site and the group's, 200 daily commits), against the group's targets and floors.
 */
import { buildBenchmarks } from "./build-bench.js";
import { groupBenchmarks } from "./group-bench.js";
import { dailyBenchmarks } from "./daily-bench.js";
import { edgeBenchmarks } from "./edge-bench.js";
import { importBenchmarks } from "./import-bench.js";
import { metricsBenchmarks } from "./metrics-bench.js";
import { nearBenchmarks } from "./near-bench.js";
import { parserBenchmarks } from "./parsers.js";
import { previewBenchmarks } from "./preview-bench.js";
import { runHeader, runKind, writeRun } from "./record.js";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const quick = process.argv.includes("--quick");
const runs = Number(option("--runs") ?? (quick ? 1 : 3));
if (!Number.isInteger(runs) || runs < 1) {
  console.error("usage: npm run bench [-- --quick] [-- --runs N]   (N: a whole number, 1 or more)");
  process.exit(2);
}

const onlyPreview = process.argv.includes("--preview");
const onlyEdge = process.argv.includes("--edge");
const onlyRepository = process.argv.includes("--repository");
const number = (name: string) => {
  const value = option(name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 5000) {
    console.error(`${name} takes a whole number from 1 to 5,000`);
    process.exit(2);
  }
  return n;
};
const repository = {
  days: number("--days"),
  seed: number("--seed"),
  feed: option("--feed"),
};
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
const started = new Date();

// Every part of the report is printed as it comes and kept for the run's file.
const report: string[] = [];
function out(markdown: string): void {
  console.log(markdown);
  report.push(markdown);
}

out(`${runHeader(started, command)}\n`);
if (onlyPreview) {
  out("## Live preview\n");
  process.stderr.write("live preview benchmarks...\n");
  out(await previewBenchmarks({ runs }));
} else if (onlyRepository) {
  out("## A publisher's repository\n");
  process.stderr.write("publisher's repository benchmarks...\n");
  out(await dailyBenchmarks({ quick, runs, ...repository }));
  process.stderr.write("a banking group's repository...\n");
  out(`\n${await groupBenchmarks({ runs })}`);
} else if (onlyEdge) {
  out("## Edge\n");
  out(await edgeBenchmarks({ quick }));
  out("\n## Near me (extension endpoints)\n");
  out(await nearBenchmarks({ quick }));
  out("\n## Request metrics (recordRequest, in process)\n");
  out(metricsBenchmarks({ quick }));
} else {
  out("## Build\n");
  process.stderr.write("build benchmarks...\n");
  out(await buildBenchmarks({ quick, runs }));
  process.stderr.write("parser benchmarks...\n");
  out(`\n${await parserBenchmarks({ quick, runs })}`);
  process.stderr.write("live preview benchmarks...\n");
  out(`\n${await previewBenchmarks({ runs })}`);
  out("\n## A publisher's repository\n");
  process.stderr.write("publisher's repository benchmarks...\n");
  out(await dailyBenchmarks({ quick, runs, ...repository }));
  process.stderr.write("a banking group's repository...\n");
  out(`\n${await groupBenchmarks({ runs })}`);
  out("\n## Import of a published feed\n");
  process.stderr.write("import benchmarks...\n");
  out(await importBenchmarks({ quick, runs }));
  out("\n## Edge\n");
  out(await edgeBenchmarks({ quick }));
  out("\n## Near me (extension endpoints)\n");
  process.stderr.write("near-me benchmarks...\n");
  out(await nearBenchmarks({ quick }));
  out("\n## Request metrics (recordRequest, in process)\n");
  process.stderr.write("request metrics benchmarks...\n");
  out(metricsBenchmarks({ quick }));
}
const written = writeRun(started, runKind(process.argv.slice(2)), report.join("\n"));
process.stderr.write(`written to ${written}: update BENCHMARKS.md's rows from it\n`);
