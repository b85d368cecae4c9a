/**
 * The Workers Analytics Engine SQL API, as `npm run stats` calls it: the query's text POSTed to
 * `<base>/accounts/<account id>/analytics_engine/sql` with a Bearer token that has Account
 * Analytics Read; `FORMAT JSON` answers `{"meta": [{name, type}], "data": [rows], "rows": n}`.
 * Every way this can go wrong becomes one StatsError whose message is one line for the reader:
 * no stack, and never the token.
 */
import { showValue } from "../core/format.js";

/** Cloudflare's API, which wrangler also overrides with this variable (tests point it at a fake). */
export const DEFAULT_API_BASE_URL = "https://api.cloudflare.com/client/v4";
export const API_BASE_URL_VARIABLE = "CLOUDFLARE_API_BASE_URL";

/** A failure of the stats command, told in one line. */
export class StatsError extends Error {
  override readonly name = "StatsError";
}

export interface SqlApi {
  /** The API's base URL, without the /accounts part. */
  readonly baseUrl: string;
  readonly accountId: string;
  readonly token: string;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
}

/** Where the SQL is POSTed. */
function sqlApiUrl(baseUrl: string, accountId: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/accounts/${encodeURIComponent(accountId)}/analytics_engine/sql`;
}

/** One row of a query's answer, by column name. */
export type SqlRow = Readonly<Record<string, unknown>>;

const API = "the Analytics Engine SQL API";

/** Runs `sql` and resolves to the answer's rows; rejects with a StatsError. */
export async function runSql(api: SqlApi, sql: string): Promise<SqlRow[]> {
  const url = sqlApiUrl(api.baseUrl, api.accountId);
  let status: number;
  let text: string;
  try {
    const response = await api.fetch(url, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${api.token}`,
        "Content-Type": "text/plain; charset=utf-8",
      },
      body: sql,
      signal: AbortSignal.timeout(api.timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw new StatsError(`could not reach ${API} at ${url}: ${networkCause(error, api.timeoutMs)}`);
  }
  if (status === 401 || status === 403) {
    throw new StatsError(
      `${API} refused the token (HTTP ${status}: ${errorDetail(text)}); CLOUDFLARE_API_TOKEN needs ` +
        "the Account Analytics Read permission on the account CLOUDFLARE_ACCOUNT_ID names",
    );
  }
  if (status < 200 || status > 299) {
    throw new StatsError(`${API} answered HTTP ${status}: ${errorDetail(text)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new StatsError(
      `${API} answered HTTP ${status} with a body that is not JSON: ${showValue(text)}`,
    );
  }
  const data = isObject(body) ? body.data : undefined;
  if (!Array.isArray(data)) {
    throw new StatsError(`${API} answered without a "data" list of rows: ${errorDetail(text)}`);
  }
  const bad = data.findIndex((row) => !isObject(row));
  if (bad >= 0) throw new StatsError(`${API} answered with row ${bad + 1} not an object`);
  return data as SqlRow[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * What an error answer says, in one short line: the message of Cloudflare's API envelope
 * (`{"success": false, "errors": [{"code", "message"}]}`), else the body's first line.
 */
function errorDetail(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body)) {
      const first: unknown = Array.isArray(body.errors) ? body.errors[0] : undefined;
      if (isObject(first) && typeof first.message === "string") return oneLine(first.message);
      if (typeof body.error === "string") return oneLine(body.error);
    }
  } catch {
    // Not JSON: the text itself.
  }
  return oneLine(text) || "an empty body";
}

function oneLine(text: string, max = 200): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function networkCause(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "TimeoutError") {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  // Node's fetch says "fetch failed" and puts the reason (ECONNREFUSED, ENOTFOUND…) in cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return oneLine(cause instanceof Error ? cause.message : String(cause));
}
