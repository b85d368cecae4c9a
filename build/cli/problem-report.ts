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
import { formatDiagnostic, type Diagnostic } from "../core/diagnostics.js";
import { plural, thousands } from "../core/format.js";

/** A kind seen this many times or fewer is printed in full: "a handful". */
export const GROUP_AFTER = 5;
/** How many problems of a grouped kind are printed in full before its summary line. */
export const GROUP_SHOWN = 3;

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

/** A pointer with every list index replaced by `*`: the field, in whichever record it is. */
export function foldPointer(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, "/*");
}

/** What makes two problems the same kind: the rule and the folded field path. */
export function problemKind(d: Diagnostic): string {
  return `${d.rule} ${foldPointer(d.pointer)}`;
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
  const kinds = new Set(problems.map(problemKind)).size;
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
 * `diagnostics` as printed lines: each kind seen at most GROUP_AFTER times in full, each other kind
 * as its first GROUP_SHOWN problems and a line saying how many more there are and in which files,
 * placed where its first problem falls. Warnings group the same way.
 */
export function diagnosticLines(
  diagnostics: readonly Diagnostic[],
  options: Pick<ProblemReportOptions, "verbose" | "howToSeeAll">,
): string[] {
  if (options.verbose) return diagnostics.map((d) => formatDiagnostic(d));
  const byKind = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const kind = problemKind(d);
    const list = byKind.get(kind);
    if (list) list.push(d);
    else byKind.set(kind, [d]);
  }
  const lines: string[] = [];
  const told = new Set<string>();
  for (const d of diagnostics) {
    const kind = problemKind(d);
    const all = byKind.get(kind)!;
    if (all.length <= GROUP_AFTER) {
      lines.push(formatDiagnostic(d));
      continue;
    }
    if (told.has(kind)) continue;
    told.add(kind);
    lines.push(...all.slice(0, GROUP_SHOWN).map((p) => formatDiagnostic(p)));
    const files = [...new Set(all.map((p) => p.file))];
    const where = files.length === 1 ? files[0] : `${thousands(files.length)} files`;
    lines.push(
      `  … and ${thousands(all.length - GROUP_SHOWN)} more like these (${thousands(all.length)} in all, ` +
        `rule ${d.rule} at ${foldPointer(d.pointer) || "/"} in ${where}); ` +
        `${options.howToSeeAll ?? "--verbose lists every one"}`,
    );
  }
  return lines;
}
