/**
 * What `npm run verify` prints: one line per path (same, different and how, or unreachable and
 * why), a closing line naming the data sets that differ, and the same as Markdown for a CI job's
 * summary.
 */
import { plural } from "../core/format.js";
import type { PathResult } from "./verify.js";

const WIDTH = "unreachable".length;

function detail(result: PathResult): string {
  if (result.kind === "different") return result.differences.join("; ");
  if (result.kind === "unreachable") return result.cause;
  return "";
}

/** One line per path, in the checks' order. */
export function resultLines(results: readonly PathResult[]): string[] {
  return results.map((result) => {
    const line = `${result.kind.padEnd(WIDTH)}  ${result.check.path}  (${result.check.what})`;
    return result.kind === "same" ? line : `${line}: ${detail(result)}`;
  });
}

/** The data sets with a path that is not the same, each once, in order. */
function datasetsNotSame(results: readonly PathResult[]): string[] {
  const names = results.flatMap((r) =>
    r.kind !== "same" && r.check.dataset ? [r.check.dataset] : [],
  );
  return [...new Set(names)];
}

/** The closing line. */
export function summaryLine(
  results: readonly PathResult[],
  where: { readonly base: string; readonly manifest: string },
): string {
  const notSame = results.filter((r) => r.kind !== "same");
  if (notSame.length === 0) {
    return `verify: ${allPaths(results.length, where.base)} the same as ${where.manifest}`;
  }
  const count = (kind: PathResult["kind"]) => notSame.filter((r) => r.kind === kind).length;
  const datasets = datasetsNotSame(results);
  return (
    `verify: ${notSame.length} of ${plural(results.length, "path")} at ${where.base} are not the same as ${where.manifest} ` +
    `(${count("different")} different, ${count("unreachable")} unreachable)` +
    (datasets.length > 0 ? `; data sets: ${datasets.join(", ")}` : "")
  );
}

/** "all 28 paths at <base> are", "the 1 path at <base> is". */
function allPaths(count: number, base: string): string {
  return count === 1 ? `the 1 path at ${base} is` : `all ${count} paths at ${base} are`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const cell = (text: string) => text.replaceAll("|", "\\|");

/** The report as Markdown, for $GITHUB_STEP_SUMMARY. */
export function markdownSummary(
  results: readonly PathResult[],
  where: { readonly base: string; readonly manifest: string },
): string {
  const notSame = results.filter((r) => r.kind !== "same");
  const lines = ["### Deployment check", ""];
  if (notSame.length === 0) {
    lines.push(
      `${capitalised(allPaths(results.length, where.base))} the same as the build's \`${where.manifest}\`.`,
    );
    return `${lines.join("\n")}\n`;
  }
  lines.push(
    `${notSame.length} of ${plural(results.length, "path")} at ${where.base} are not the same as the build's \`${where.manifest}\`:`,
    "",
    "| path | serves | result |",
    "| --- | --- | --- |",
    ...notSame.map(
      (r) =>
        `| \`${cell(r.check.path)}\` | ${cell(r.check.what)} | ${r.kind}: ${cell(detail(r))} |`,
    ),
  );
  return `${lines.join("\n")}\n`;
}
