/**
 * `npm run bench`: the build, live preview, import, edge, near-me and request metrics benchmarks, printed as one Markdown report
 * headed by the machine and the date, as BENCHMARKS.md records it. Progress goes to stderr.
 *
 *   npm run bench [-- --quick] [-- --runs N] [-- --preview | --edge]
 *
 * --quick: smaller build sets and shorter edge measurements; --runs: cold builds per build set;
 * --preview: only the live preview's figures (npm start: save to new ETag served); --edge: only
 * the Worker's (edge, near me, request metrics).
 */
import { cpus, totalmem } from "node:os";
import { buildBenchmarks } from "./build-bench.js";
import { edgeBenchmarks } from "./edge-bench.js";
import { importBenchmarks } from "./import-bench.js";
import { metricsBenchmarks } from "./metrics-bench.js";
import { nearBenchmarks } from "./near-bench.js";
import { parserBenchmarks } from "./parsers.js";
import { previewBenchmarks } from "./preview-bench.js";

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

const cpu = cpus();
const onlyPreview = process.argv.includes("--preview");
const onlyEdge = process.argv.includes("--edge");
const command = `npm run bench${quick || option("--runs") || onlyPreview || onlyEdge ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
console.log(
  [
    "# Benchmarks",
    `- Machine: ${cpu[0]?.model.trim() ?? "unknown CPU"}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB memory, Node ${process.version}`,
    `- Date: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    `- Command: \`${command}\``,
    "",
    "## Build",
    "",
  ].join("\n"),
);
if (onlyPreview) {
  process.stderr.write("live preview benchmarks...\n");
  console.log(await previewBenchmarks({ runs }));
} else if (onlyEdge) {
  console.log("## Edge\n");
  console.log(await edgeBenchmarks({ quick }));
  console.log("\n## Near me (extension endpoints)\n");
  console.log(await nearBenchmarks({ quick }));
  console.log("\n## Request metrics (recordRequest, in process)\n");
  console.log(metricsBenchmarks({ quick }));
} else {
  process.stderr.write("build benchmarks...\n");
  console.log(await buildBenchmarks({ quick, runs }));
  process.stderr.write("parser benchmarks...\n");
  console.log(`\n${await parserBenchmarks({ quick, runs })}`);
  process.stderr.write("live preview benchmarks...\n");
  console.log(`\n${await previewBenchmarks({ runs })}`);
  console.log("\n## Import of a published feed\n");
  process.stderr.write("import benchmarks...\n");
  console.log(await importBenchmarks({ quick, runs }));
  console.log("\n## Edge\n");
  console.log(await edgeBenchmarks({ quick }));
  console.log("\n## Near me (extension endpoints)\n");
  process.stderr.write("near-me benchmarks...\n");
  console.log(await nearBenchmarks({ quick }));
  console.log("\n## Request metrics (recordRequest, in process)\n");
  process.stderr.write("request metrics benchmarks...\n");
  console.log(metricsBenchmarks({ quick }));
}
