/**
 * How the data-quality findings are told: a few summary lines after a build or an import (per
 * rule and data set), and the Markdown report `--quality FILE` writes for a pull request.
 */
import { formatDiagnostic, type Diagnostic } from "../core/diagnostics.js";
import { plural } from "../core/format.js";
import type { RuleCount } from "./pass.js";
import { qualityRule } from "./rules.js";

/** The summary: one line, then one per rule and data set; nothing to say when all is clean. */
export function qualitySummary(counts: readonly RuleCount[]): string[] {
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  if (total === 0) return ["Data quality: no warnings."];
  return [
    `Data quality: ${plural(total, "finding")} (docs/editing.md, "Data quality", says what each rule means):`,
    ...counts.map((c) => `  ${String(c.count).padStart(5)}  ${c.rule.padEnd(32)} ${c.dataset}`),
  ];
}

/** The Markdown report: the counts, then every finding by rule, each at file:line:column. */
export function qualityMarkdown(
  counts: readonly RuleCount[],
  findings: readonly Diagnostic[],
  limitPerRule = 50,
): string {
  const lines = ["# Data quality", ""];
  if (findings.length === 0) {
    lines.push("No findings: every data-quality rule passes.", "");
    return lines.join("\n");
  }
  lines.push("| rule | data set | findings | what it looks for |", "| --- | --- | --- | --- |");
  for (const c of counts) {
    const what = qualityRule(c.rule)?.text ?? "";
    lines.push(`| \`${c.rule}\` | ${c.dataset} | ${c.count} | ${what} |`);
  }
  const byRule = new Map<string, Diagnostic[]>();
  for (const d of findings) {
    const list = byRule.get(d.rule);
    if (list) list.push(d);
    else byRule.set(d.rule, [d]);
  }
  for (const [rule, list] of byRule) {
    lines.push("", `## \`${rule}\``, "");
    for (const d of list.slice(0, limitPerRule))
      lines.push(`- \`${formatDiagnostic(d).replace(/`/g, "'")}\``);
    if (list.length > limitPerRule) lines.push(`- … and ${list.length - limitPerRule} more`);
  }
  lines.push("");
  return lines.join("\n");
}
