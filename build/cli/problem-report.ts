/**
 * How the CLIs report content problems, `npm run build`/`validate` and `npm run import` alike:
 * under GitHub Actions each problem as an annotation on stdout (where Actions reads workflow
 * commands), then each as `file:line:column: pointer: message` on stderr, then how many.
 */
import { diagnosticAnnotation } from "./annotations.js";
import { formatDiagnostic, type Diagnostic } from "../core/diagnostics.js";
import { plural } from "../core/format.js";

/** The lines of a report, by stream. */
export interface ProblemReport {
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
}

/**
 * The report of `problems`. `fileNoun` names the files counted ("file", "imported file");
 * `nextStep` follows the count and says what the reader can do now.
 */
export function problemReport(
  problems: readonly Diagnostic[],
  options: { readonly annotate: boolean; readonly fileNoun: string; readonly nextStep: string },
): ProblemReport {
  const files = new Set(problems.map((d) => d.file)).size;
  const count = `${plural(problems.length, "problem")} in ${plural(files, options.fileNoun)}.`;
  return {
    stdout: options.annotate ? problems.map((d) => diagnosticAnnotation(d)) : [],
    stderr: [
      ...problems.map((d) => formatDiagnostic(d)),
      `\n${count}${options.nextStep ? ` ${options.nextStep}` : ""}`,
    ],
  };
}
