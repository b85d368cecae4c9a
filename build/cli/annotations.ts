/**
 * GitHub Actions workflow annotations: under Actions, a line such as
 * `::error file=content/atms/a.yaml,line=3,col=5,title=/ATM/0/Location::required field …` on stdout
 * becomes an annotation on that line of the pull request's changed files.
 *
 * Escaping follows GitHub's workflow-command rules: in the message, `%`, CR and LF are
 * percent-encoded (so a message cannot end the command early or start a new one); in property
 * values `:` and `,` are too, since they delimit the properties.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { GUARD_NAME, GUARD_RULE } from "../guard/policy.js";

/** Set to "true" by GitHub Actions on every runner. */
export const GITHUB_ACTIONS_ENV = "GITHUB_ACTIONS";

type AnnotationLevel = "error" | "warning" | "notice";

interface AnnotationProperties {
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
  readonly title?: string;
}

/** True when running as a GitHub Actions step. */
export function underGitHubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[GITHUB_ACTIONS_ENV] === "true";
}

/** Escapes a workflow command's message. */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escapes a workflow command's property value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** One `::level props::message` line. Properties left undefined are omitted. */
export function annotation(
  level: AnnotationLevel,
  message: string,
  properties: AnnotationProperties = {},
): string {
  const props = (["file", "line", "col", "title"] as const)
    .filter((key) => properties[key] !== undefined && properties[key] !== "")
    .map((key) => `${key}=${escapeProperty(String(properties[key]))}`);
  return `::${level}${props.length > 0 ? ` ${props.join(",")}` : ""}::${escapeData(message)}`;
}

/** Titles for problems about a whole file or folder, which have no JSON pointer to show. */
const RULE_TITLES: Readonly<Record<string, string>> = {
  yaml: "YAML syntax",
  [GUARD_RULE]: GUARD_NAME,
};

/**
 * A build problem as an annotation at its file, line and column. The title names the value the
 * problem is about (its JSON pointer), since the message already says what is wrong.
 */
export function diagnosticAnnotation(
  d: Diagnostic,
  level: AnnotationLevel = d.severity === "warning" ? "warning" : "error",
): string {
  return annotation(level, d.message, {
    file: d.file,
    line: d.line,
    col: d.column,
    title: d.pointer || (RULE_TITLES[d.rule] ?? "content"),
  });
}
