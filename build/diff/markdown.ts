/**
 * Renders a change summary as Markdown for a pull-request comment: per data set the records
 * added, removed and changed, and for each changed record the values before and after. Pure.
 *
 * Written for a reviewer who does not read JSON: field paths as the spec names them, list items
 * by their natural names, values in code spans (so content can never turn into links, mentions
 * or markup), and every list capped ("and 12 more") so a large change still fits in a comment.
 */
import { sourcePlace, type Diagnostic } from "../core/diagnostics.js";
import { plural } from "../core/format.js";
import { ALLOW_SHRINK_ENV } from "../guard/flags.js";
import { describeShrink, type Shrink } from "../guard/policy.js";
import {
  isPeriod,
  type ChangedRecord,
  type DatasetDiff,
  type FieldChange,
  type RecordRef,
  type Segment,
} from "./compare.js";

/** First line of every summary: how the workflow finds its own comment to update it. */
export const SUMMARY_MARKER = "<!-- opendata-edge:change-summary -->";

/** How much a summary lists before it says "and N more". */
export interface SummaryLimits {
  /** Records listed per kind (added, removed, changed) per data set. */
  readonly records: number;
  /** Field changes listed per changed record. */
  readonly changesPerRecord: number;
  /** Problems listed per revision that does not build. */
  readonly problems: number;
  /** Longest value shown, in characters. */
  readonly valueLength: number;
  /** Longest summary, in characters (a GitHub comment holds 65,536). */
  readonly characters: number;
}

/** Limits that keep a summary well inside one GitHub comment. */
export const DEFAULT_LIMITS: SummaryLimits = {
  records: 30,
  changesPerRecord: 12,
  problems: 5,
  valueLength: 80,
  characters: 60_000,
};

interface SideSummary {
  readonly label: string;
  readonly hasContent: boolean;
  readonly problems: readonly Diagnostic[];
  readonly warnings: readonly Diagnostic[];
}

interface SummaryInput {
  readonly base: SideSummary;
  readonly head: SideSummary;
  readonly datasets: readonly DatasetDiff[];
  /** The settings of site.yaml the bodies' meta carries that differ (compare.ts, diffSettings). */
  readonly settings: readonly FieldChange[];
  /** Data sets the publication guard would refuse, and against what limit. */
  readonly shrinks: readonly Shrink[];
  readonly maxShrink: number;
}

/** The whole summary as Markdown, starting with SUMMARY_MARKER. */
export function renderSummary(input: SummaryInput, limits: SummaryLimits = DEFAULT_LIMITS): string {
  const lines: string[] = [
    SUMMARY_MARKER,
    "### Published data changes",
    "",
    `Comparing ${code(input.base.label, limits)} (before) with ${code(input.head.label, limits)} (after).`,
    "",
  ];
  const broken = [input.base, input.head].filter((side) => side.problems.length > 0);
  for (const side of broken) lines.push(...problemsBlock(side, limits), "");
  if (broken.length > 0) return finish(lines, limits);

  if (!input.head.hasContent) lines.push("_The after side has no content folder._", "");
  lines.push(...qualityBlock(input.base.warnings, input.head.warnings, limits));
  const changed = input.datasets.filter(hasChanges);
  if (changed.length === 0 && input.settings.length === 0) {
    lines.push("No published data changes.");
    return finish(lines, limits);
  }

  lines.push(
    "| Data set | Records before | Records after | Added | Removed | Changed |",
    "| --- | --: | --: | --: | --: | --: |",
    ...input.datasets.map(
      (d) =>
        `| ${d.dataset.title} | ${d.before ?? "–"} | ${d.after ?? "–"} | ${d.added.length} | ${d.removed.length} | ${d.changed.length} |`,
    ),
    "",
  );
  for (const shrink of input.shrinks) {
    lines.push(
      "> [!WARNING]",
      `> ${escapeMarkdown(describeShrink(shrink, { maxShrink: input.maxShrink, baseline: "the before side" }))}.`,
      `> The deploy after merging stops at this unless it is run with the override (${ALLOW_SHRINK_ENV}=1; docs/operations.md, "The publication guard").`,
      "",
    );
  }
  if (input.settings.length > 0) {
    lines.push("#### Licence and terms (every data set)", "");
    for (const change of input.settings) lines.push(`- ${changeText(change, limits)}`);
    lines.push("");
  }
  for (const diff of changed) lines.push(...datasetBlock(diff, limits));
  return finish(lines, limits);
}

/**
 * The data-quality warnings the change brings: those of the after side that the before side did
 * not have (the same rule, file and message), each at its place. Nothing when there are none.
 */
function qualityBlock(
  before: readonly Diagnostic[],
  after: readonly Diagnostic[],
  limits: SummaryLimits,
): string[] {
  const key = (d: Diagnostic) => `${d.rule}\0${d.file}\0${d.message}`;
  const known = new Set(before.map(key));
  const added = after.filter((d) => !known.has(key(d)));
  if (added.length === 0) return [];
  return [
    "> [!NOTE]",
    `> This change brings ${plural(added.length, "data-quality warning")} (published anyway; docs/editing.md, "Data quality"):`,
    ...capped(
      added.map(
        (d) => `> - ${code(sourcePlace(d), limits)} ${escapeMarkdown(d.message)} (\`${d.rule}\`)`,
      ),
      limits.problems,
      "warnings",
      "> ",
    ),
    "",
  ];
}

function hasChanges(d: DatasetDiff): boolean {
  return d.added.length + d.removed.length + d.changed.length > 0 || d.before !== d.after;
}

function datasetBlock(diff: DatasetDiff, limits: SummaryLimits): string[] {
  const counts = [
    `${diff.added.length} added`,
    `${diff.removed.length} removed`,
    `${diff.changed.length} changed`,
  ].join(", ");
  const lines = [`#### ${diff.dataset.title}: ${counts}`, ""];
  const section = (title: string, items: readonly string[]) => {
    if (items.length === 0) return;
    lines.push(`**${title}**`, "", ...capped(items, limits.records, "records"), "");
  };
  section(
    "Added",
    diff.added.map((r) => `- ${recordText(r, limits)}`),
  );
  section(
    "Removed",
    diff.removed.map((r) => `- ${recordText(r, limits)}`),
  );
  section(
    "Changed",
    diff.changed.map((c) => changedText(c, limits)),
  );
  return lines;
}

function recordText(record: RecordRef, limits: SummaryLimits): string {
  return escapeMarkdown(record.label) + (record.name ? `: ${code(record.name, limits)}` : "");
}

function changedText(changed: ChangedRecord, limits: SummaryLimits): string {
  const label = escapeMarkdown(changed.record.label);
  if (changed.changes.length === 1) return `- ${label}: ${changeText(changed.changes[0]!, limits)}`;
  const items = changed.changes.map((c) => `  - ${changeText(c, limits)}`);
  return [`- ${label}:`, ...capped(items, limits.changesPerRecord, "changes", "  ")].join("\n");
}

/** One change as a phrase: `Availability/StandardAvailability/Day/Saturday closing 12:30 → 13:00`. */
export function changeText(change: FieldChange, limits: SummaryLimits = DEFAULT_LIMITS): string {
  const path = pathText(change.path);
  switch (change.kind) {
    case "changed":
      return `${path} ${show(change.before, limits)} → ${show(change.after, limits)}`;
    case "added":
      return `${path} added: ${show(change.after, limits)}`;
    case "removed":
      return `${path} removed (was ${show(change.before, limits)})`;
    case "items": {
      const list = (values: readonly unknown[]) => values.map((v) => show(v, limits)).join(", ");
      const parts = [
        change.added.length > 0 ? `added ${list(change.added)}` : "",
        change.removed.length > 0 ? `removed ${list(change.removed)}` : "",
      ].filter(Boolean);
      return `${path}: ${parts.join("; ")}`;
    }
  }
}

/** Segments joined by "/", except plain words ("closing", "period 2"), which follow a space. */
function pathText(path: readonly Segment[]): string {
  return path
    .map((s, i) => (i === 0 ? "" : s.kind === "word" ? " " : "/") + escapeMarkdown(s.text))
    .join("");
}

function problemsBlock(side: SideSummary, limits: SummaryLimits): string[] {
  const count = side.problems.length;
  return [
    "> [!CAUTION]",
    `> The content of ${code(side.label, limits)} does not build: ${plural(count, "problem")}, so no comparison was made. The checks list each one on its line; ${count === 1 ? "it is" : "the first are"}:`,
    ...capped(
      side.problems.map((d) => `> - ${code(sourcePlace(d), limits)} ${escapeMarkdown(d.message)}`),
      limits.problems,
      "problems",
      "> ",
    ),
  ];
}

/** The first `max` items, then "and N more". */
function capped(items: readonly string[], max: number, noun: string, indent = ""): string[] {
  if (items.length <= max) return [...items];
  return [...items.slice(0, max), `${indent}- … and ${items.length - max} more ${noun}`];
}

function finish(lines: readonly string[], limits: SummaryLimits): string {
  const text = `${lines.join("\n").trimEnd()}\n`;
  if (text.length <= limits.characters) return text;
  const note =
    "\n\n_The summary stops here: it is longer than a comment can hold. Run `npm run diff` locally for all of it._\n";
  const cut = text.lastIndexOf("\n", limits.characters - note.length);
  return text.slice(0, cut) + note;
}

/** A value as a reader sees it: text and numbers in code spans, opening hours as ranges. */
function show(value: unknown, limits: SummaryLimits): string {
  if (value === undefined) return "(none)";
  return code(compact(value, 0), limits);
}

/** Compact one-line text for any value. */
function compact(value: unknown, depth: number): string {
  if (value === null || typeof value !== "object") return String(value);
  if (Array.isArray(value)) {
    if (value.every((v) => isPeriod(v))) return value.map((v) => compact(v, depth)).join(", ");
    return value.map((v) => compact(v, depth + 1)).join(depth === 0 ? "; " : ", ");
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (isPeriod(value)) {
    const { OpeningTime, ClosingTime } = value;
    return `${compact(OpeningTime ?? "?", depth)}–${compact(ClosingTime ?? "?", depth)}`;
  }
  if (depth > 2) return "{…}";
  return entries.map(([k, v]) => `${k} ${compact(v, depth + 1)}`).join(", ");
}

/** A code span that holds any text: a fence longer than any run of backticks inside. */
function code(text: string, limits: SummaryLimits): string {
  let flat = text.replace(/\r?\n/g, " ⏎ ");
  if (flat.length > limits.valueLength) flat = `${flat.slice(0, limits.valueLength - 1)}…`;
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || flat === "" ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * Plain text that Markdown shows as written: no emphasis, links, HTML, tables or mentions. (Only
 * the characters that can start markup in running text; the text never starts a line.)
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/[\\`*_[\]<>|~]/g, "\\$&")
    .replace(/@/g, "&#64;");
}
