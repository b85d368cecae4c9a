/**
 * The stats table: the query's rows (query.ts) read into numbers, merged per thing asked for, and
 * printed as aligned text for a terminal, with the 429s per plan below it.
 */
import { percent, thousands } from "../core/format.js";
import type { StatsColumn } from "./query.js";
import { StatsError, type SqlRow } from "./sql-api.js";

const COUNTS = [
  "requests",
  "not_modified",
  "rate_limited",
  "server_errors",
  "bytes_sent",
  "saved_by_304",
  "saved_by_compression",
] as const satisfies readonly StatsColumn[];

type Counts = Record<(typeof COUNTS)[number], number>;

/** One row of the answer: what was asked for, under which plan, and its weighted sums. */
export interface StatsRow extends Counts {
  readonly asked: string;
  readonly target: string;
  readonly plan: string;
}

/**
 * The answer's rows with their sums as numbers. The SQL API may write a 64-bit sum as a string
 * (as ClickHouse's JSON does), so a numeric string is read as its number; anything else is refused.
 */
export function readRows(rows: readonly SqlRow[]): StatsRow[] {
  return rows.map((row, i) => {
    const text = (column: StatsColumn) => {
      const value = row[column];
      if (typeof value !== "string") {
        throw new StatsError(`the answer's row ${i + 1} has no text in "${column}"`);
      }
      return value;
    };
    const counts = {} as Counts;
    for (const column of COUNTS) {
      const value = row[column];
      const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
      if (!Number.isFinite(n) || (typeof value === "string" && value.trim() === "")) {
        throw new StatsError(`the answer's row ${i + 1} has no number in "${column}"`);
      }
      counts[column] = n;
    }
    return { asked: text("asked"), target: text("target"), plan: text("plan"), ...counts };
  });
}

/** How a row's kind and target read in the table. */
export function askedLabel(asked: string, target: string): string {
  switch (asked) {
    case "dataset":
    case "document":
      return target;
    case "near":
      return `${target} near me`;
    case "changes":
      return target ? `${target} changes` : "changes feed";
    case "unknown":
      return "unknown paths";
    default:
      return `${asked} ${target}`.trim();
  }
}

function zero(): Counts {
  return Object.fromEntries(COUNTS.map((c) => [c, 0])) as Counts;
}

function add(into: Counts, row: Counts): void {
  for (const column of COUNTS) into[column] += row[column];
}

/** Bytes in decimal units, as a reader compares them: 1234567 → "1.2 MB". */
export function bytes(n: number): string {
  const units = ["B", "kB", "MB", "GB", "TB", "PB"];
  let value = Math.max(0, n);
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`;
}

const HEADER = [
  "asked for",
  "requests",
  "304 share",
  "429s",
  "5xx",
  "bytes sent",
  "saved by 304s",
  "saved by compression",
];

/** `part` of `whole` as a percentage; a share too small to show as 0.1% is "<0.1%", not "0%". */
function share(part: number, whole: number): string {
  if (whole <= 0) return "–";
  return part > 0 && part / whole < 0.0005 ? "<0.1%" : percent(part / whole);
}

function cells(label: string, c: Counts): string[] {
  return [
    label,
    thousands(Math.round(c.requests)),
    share(c.not_modified, c.requests),
    thousands(Math.round(c.rate_limited)),
    thousands(Math.round(c.server_errors)),
    bytes(c.bytes_sent),
    bytes(c.saved_by_304),
    bytes(c.saved_by_compression),
  ];
}

/** Columns padded to their widest cell: the first to the left, numbers to the right. */
function aligned(table: readonly string[][]): string[] {
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table.map((row) =>
    row
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd(),
  );
}

/** The lines of one window's table. */
export function windowReport(label: string, rows: readonly StatsRow[]): string[] {
  const lines = [label, ""];
  if (rows.length === 0) return [...lines, "no requests recorded in this window"];
  const byAsked = new Map<string, Counts>();
  const byPlan = new Map<string, Counts>();
  const total = zero();
  for (const row of rows) {
    const key = askedLabel(row.asked, row.target);
    add(byAsked.get(key) ?? byAsked.set(key, zero()).get(key)!, row);
    if (row.plan) add(byPlan.get(row.plan) ?? byPlan.set(row.plan, zero()).get(row.plan)!, row);
    add(total, row);
  }
  const ordered = [...byAsked].sort(
    ([a, x], [b, y]) => y.requests - x.requests || (a < b ? -1 : 1),
  );
  lines.push(
    ...aligned([
      HEADER,
      ...ordered.map(([key, counts]) => cells(key, counts)),
      cells("all", total),
    ]),
  );
  lines.push("", "429s per plan:");
  if (byPlan.size === 0) lines.push("  no request counted under a plan");
  for (const [plan, counts] of [...byPlan].sort(([a], [b]) => (a < b ? -1 : 1))) {
    lines.push(
      `  ${plan}: ${thousands(Math.round(counts.rate_limited))} of ${thousands(Math.round(counts.requests))} requests (${share(counts.rate_limited, counts.requests)})`,
    );
  }
  return lines;
}
