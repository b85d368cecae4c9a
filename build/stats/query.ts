/**
 * The documented query of `npm run stats` (docs/operations.md#request-metrics): per kind of
 * request, target and plan, over one window, every count weighted by `_sample_interval`.
 * Analytics Engine samples busy indexes, so one stored point can stand for many requests: a
 * count is SUM(_sample_interval), never count(), and a sum of bytes weights each point the
 * same way. The columns come from contract/metrics.ts, the one map both sides read.
 */
import { metricsColumn, OUTCOMES } from "../../contract/metrics.js";

/** A window the report covers, as Analytics Engine's SQL writes an interval. */
export interface StatsWindow {
  readonly label: string;
  /** Whole days back from now. */
  readonly days: number;
}

export const STATS_WINDOWS: readonly StatsWindow[] = [
  { label: "Last day", days: 1 },
  { label: "Last week", days: 7 },
];

/** The names of the columns the query answers with, in its order. */
const STATS_COLUMNS = [
  "asked",
  "target",
  "plan",
  "requests",
  "not_modified",
  "rate_limited",
  "server_errors",
  "bytes_sent",
  "saved_by_304",
  "saved_by_compression",
] as const;

export type StatsColumn = (typeof STATS_COLUMNS)[number];

// The dataset is written into the SQL as a table name, so it may hold only these characters.
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when `name` can be a dataset (table) name in the query without quoting. */
export function isTableName(name: string): boolean {
  return TABLE_NAME.test(name);
}

/** The SQL for one window of `dataset`. */
export function statsQuery(dataset: string, window: StatsWindow): string {
  if (!isTableName(dataset)) throw new Error(`not a dataset name: ${dataset}`);
  if (!Number.isInteger(window.days) || window.days < 1) throw new Error("a window is whole days");
  const c = metricsColumn;
  const weight = "_sample_interval";
  const is = (outcome: string) => `${c("outcome")} = '${outcome}'`;
  // What compression saved: on a 200 to a GET sent in a compressed coding, the identity
  // variant's length less the bytes sent. What a 304 saved: the length a 200 would have sent in
  // the coding chosen (docs/decisions.md#bytes-saved-by-304s-and-by-compression).
  const compressed =
    `${c("status")} = 200 AND ${c("method")} = 'GET' AND ` +
    `(${c("coding")} = 'br' OR ${c("coding")} = 'gzip')`;
  return [
    "SELECT",
    `  ${c("asked")} AS asked,`,
    `  ${c("target")} AS target,`,
    `  ${c("plan")} AS plan,`,
    `  SUM(${weight}) AS requests,`,
    `  SUM(IF(${is(OUTCOMES.notModified)}, ${weight}, 0)) AS not_modified,`,
    `  SUM(IF(${is(OUTCOMES.rateLimited)}, ${weight}, 0)) AS rate_limited,`,
    `  SUM(IF(${is(OUTCOMES.serverError)}, ${weight}, 0)) AS server_errors,`,
    `  SUM(${weight} * ${c("bytesSent")}) AS bytes_sent,`,
    `  SUM(IF(${is(OUTCOMES.notModified)}, ${weight} * ${c("fullBytes")}, 0)) AS saved_by_304,`,
    `  SUM(IF(${compressed}, ${weight} * (${c("identityBytes")} - ${c("bytesSent")}), 0)) AS saved_by_compression`,
    `FROM ${dataset}`,
    `WHERE timestamp > NOW() - INTERVAL '${window.days}' DAY`,
    "GROUP BY asked, target, plan",
    "ORDER BY requests DESC",
    "FORMAT JSON",
  ].join("\n");
}
