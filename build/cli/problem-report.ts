/**
 * How the CLIs report content problems, `npm run build`/`validate` and `npm run import` alike:
 * under GitHub Actions each problem as an annotation on stdout (where Actions reads workflow
 * commands), then the problems as `file:line:column: pointer: message` on stderr, then how many.
 *
 * A feed can have thousands of problems of one kind (8,234 three-letter language codes in one
 * network of ATMs); printed one a line nobody reads them. So problems are grouped by kind, the rule
 * and the field path with every list index folded to `*`: a kind seen more than a handful of
 * times prints its first few problems and one line with how many more there are, where, and how
 * to see them all. `verbose` prints every problem.
 */
import { diagnosticAnnotation } from "./annotations.js";
import {
  diagnosticKind,
  formatDiagnostic,
  groupDiagnostics,
  type Diagnostic,
} from "../core/diagnostics.js";
import { plural, thousands } from "../core/format.js";

/** The lines of a report, by stream. */
export interface ProblemReport {
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
}

export interface ProblemReportOptions {
  readonly annotate: boolean;
  /** Names the files counted ("file", "imported file"). */
  readonly fileNoun: string;
  /** Follows the count and says what the reader can do now. */
  readonly nextStep: string;
  /** Every problem on its own line, none grouped. */
  readonly verbose?: boolean;
  /** How to ask for every problem, for the summary lines: "--verbose lists every one". */
  readonly howToSeeAll?: string;
}

/** The report of `problems` (already in the order to print, as compareDiagnostics sorts). */
export function problemReport(
  problems: readonly Diagnostic[],
  options: ProblemReportOptions,
): ProblemReport {
  const files = new Set(problems.map((d) => d.file)).size;
  const n = problems.length;
  const count = `${thousands(n)} problem${n === 1 ? "" : "s"} in ${plural(files, options.fileNoun)}.`;
  const lines = diagnosticLines(problems, options);
  const kinds = new Set(problems.map(diagnosticKind)).size;
  const grouped = lines.length < problems.length;
  return {
    stdout: options.annotate ? problems.map((d) => diagnosticAnnotation(d)) : [],
    stderr: [
      ...lines,
      `\n${count}${grouped ? ` ${plural(kinds, "kind")} of problem; ${options.howToSeeAll ?? "--verbose lists every one"}.` : ""}${options.nextStep ? ` ${options.nextStep}` : ""}`,
    ],
  };
}

/**
 * `diagnostics` as printed lines, grouped by kind (core/diagnostics.ts, groupDiagnostics): the rest
 * of a grouped kind is one line saying how many more there are and in which files. Warnings group
 * the same way.
 */
export function diagnosticLines(
  diagnostics: readonly Diagnostic[],
  options: Pick<ProblemReportOptions, "verbose" | "howToSeeAll">,
): string[] {
  if (options.verbose) return diagnostics.map((d) => formatDiagnostic(d));
  return groupDiagnostics(diagnostics).map((item) => {
    if ("diagnostic" in item) return formatDiagnostic(item.diagnostic);
    return (
      `  … and ${thousands(item.more)} more like these (${thousands(item.total)} in all, ` +
      `rule ${item.rule} at ${item.field} in ${item.where}); ` +
      `${options.howToSeeAll ?? "--verbose lists every one"}`
    );
  });
}
