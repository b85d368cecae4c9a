/**
 * `npm run stats`, start to finish, with its surroundings passed in (environment, fetch, output)
 * so tests run it in-process against a fake of the SQL API: one query per window
 * (stats/query.ts), the answers read and printed as tables (stats/report.ts). Every failure is one line on stderr and a
 * non-zero exit, never a stack.
 */
import { parseCommandLine } from "./args.js";
import type { CommandIo } from "./io.js";
import { METRICS_DATASET } from "../../contract/metrics.js";
import { isTableName, statsQuery, STATS_WINDOWS } from "../stats/query.js";
import { readRows, windowReport, type StatsRow } from "../stats/report.js";
import {
  API_BASE_URL_VARIABLE,
  DEFAULT_API_BASE_URL,
  runSql,
  StatsError,
  type SqlApi,
} from "../stats/sql-api.js";

/** Seconds one query may take. */
export const DEFAULT_STATS_TIMEOUT_SECONDS = 30;

export const STATS_USAGE = `usage: npm run stats [-- --dataset NAME] [--timeout SECONDS]

Prints what the Worker's request metrics (Workers Analytics Engine) say about the last day and
the last week: requests per data set and document, the share answered 304, 429s per plan, 5xx,
bytes sent, and the bytes 304s and compression saved. Counts are weighted by _sample_interval.

Needs two environment variables:
  CLOUDFLARE_ACCOUNT_ID   the account the Worker is deployed in
  CLOUDFLARE_API_TOKEN    an API token with the Account Analytics Read permission

  --dataset NAME      the dataset wrangler.toml binds as METRICS (default: ${METRICS_DATASET})
  --timeout SECONDS   how long one query may take (default: ${DEFAULT_STATS_TIMEOUT_SECONDS})`;

export interface StatsIo extends CommandIo {
  readonly fetch?: typeof fetch;
}

/** Runs the stats command; resolves to the exit code (0 printed, 1 failed, 2 usage). */
export async function runStats(argv: string[], io: StatsIo): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      dataset: { type: "string" },
      timeout: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    STATS_USAGE,
    io.stderr,
  );
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(STATS_USAGE);
    return 0;
  }
  if (positionals.length > 0) {
    io.stderr(`stats takes no arguments, only options\n\n${STATS_USAGE}`);
    return 2;
  }
  const dataset = values.dataset ?? METRICS_DATASET;
  if (!isTableName(dataset)) {
    io.stderr(
      `stats: --dataset takes a dataset name (letters, digits, _), not ${JSON.stringify(dataset)}`,
    );
    return 2;
  }
  const timeout =
    values.timeout === undefined ? DEFAULT_STATS_TIMEOUT_SECONDS : Number(values.timeout);
  if (!(timeout > 0 && timeout <= 600)) {
    io.stderr(`stats: --timeout takes a number of seconds from 0 to 600\n\n${STATS_USAGE}`);
    return 2;
  }
  const api = sqlApi(io, timeout);
  if (!api) return 2;

  const windows: { label: string; rows: StatsRow[] }[] = [];
  try {
    for (const window of STATS_WINDOWS) {
      windows.push({
        label: window.label,
        rows: readRows(await runSql(api, statsQuery(dataset, window))),
      });
    }
  } catch (error) {
    if (!(error instanceof StatsError)) throw error;
    io.stderr(`stats: ${error.message}`);
    return 1;
  }
  if (windows.every((w) => w.rows.length === 0)) {
    io.stderr(
      `stats: the dataset ${dataset} has no data points from the last week: is the METRICS binding in wrangler.toml deployed, and has the Worker had requests since? (docs/operations.md#request-metrics)`,
    );
    return 1;
  }
  const lines = [
    `Requests recorded in ${dataset} (counts weighted by _sample_interval; bytes are body bytes)`,
  ];
  for (const { label, rows } of windows) lines.push("", ...windowReport(label, rows));
  io.stdout(lines.join("\n"));
  return 0;
}

/** The SQL API as the environment names it, or undefined (said on stderr) when it does not. */
function sqlApi(io: StatsIo, timeoutSeconds: number): SqlApi | undefined {
  const accountId = io.env.CLOUDFLARE_ACCOUNT_ID?.trim();
  const token = io.env.CLOUDFLARE_API_TOKEN?.trim();
  if (!accountId) {
    io.stderr(
      "stats: CLOUDFLARE_ACCOUNT_ID is not set: export the id of the account the Worker is deployed in (node scripts/wrangler.mjs whoami shows it)",
    );
    return undefined;
  }
  if (!token) {
    io.stderr(
      "stats: CLOUDFLARE_API_TOKEN is not set: export an API token with the Account Analytics Read permission (docs/operations.md#request-metrics)",
    );
    return undefined;
  }
  return {
    baseUrl: io.env[API_BASE_URL_VARIABLE] || DEFAULT_API_BASE_URL,
    accountId,
    token,
    fetch: io.fetch ?? fetch,
    timeoutMs: timeoutSeconds * 1000,
  };
}
