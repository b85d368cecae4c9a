/**
 * `npm run stats` against a fake of the Analytics Engine SQL API on loopback: the requests it
 * sends (method, path, token, SQL), the tables it prints, and one line and a non-zero exit for
 * each way it can fail. The account id and token are made up; nothing leaves 127.0.0.1.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runStats } from "../../../build/cli/stats-run.js";
import { closedPort, FakeSqlApi, queryResult } from "../../fakes/analytics-sql-api.js";

const ACCOUNT = "test-account-not-real";
const TOKEN = "test-token-not-real";
const SQL_PATH = `/client/v4/accounts/${ACCOUNT}/analytics_engine/sql`;

const api = new FakeSqlApi();
beforeAll(() => api.start());
afterAll(() => api.stop());
beforeEach(() => {
  api.requests.length = 0;
  api.handler = () => queryResult([]);
});

async function stats(env: Record<string, string | undefined> = {}, argv: string[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runStats(argv, {
    cwd: process.cwd(),
    env: {
      CLOUDFLARE_ACCOUNT_ID: ACCOUNT,
      CLOUDFLARE_API_TOKEN: TOKEN,
      CLOUDFLARE_API_BASE_URL: api.baseUrl,
      ...env,
    },
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

/** A row as the SQL API answers it: UInt64 sums quoted, as ClickHouse's JSON writes them. */
function row(asked: string, target: string, plan: string, n: Partial<Record<string, number>>) {
  return {
    asked,
    target,
    plan,
    requests: String(n.requests ?? 0),
    not_modified: String(n.not_modified ?? 0),
    rate_limited: String(n.rate_limited ?? 0),
    server_errors: String(n.server_errors ?? 0),
    bytes_sent: n.bytes_sent ?? 0,
    saved_by_304: n.saved_by_304 ?? 0,
    saved_by_compression: n.saved_by_compression ?? 0,
  };
}

const DAY = [
  row("dataset", "atms", "open-data", {
    requests: 1200,
    not_modified: 600,
    rate_limited: 30,
    bytes_sent: 1_500_000,
    saved_by_304: 2_400_000,
    saved_by_compression: 9_000_000,
  }),
  // The same data set's preflights count under no plan: one line in the table all the same.
  row("dataset", "atms", "", { requests: 10 }),
  row("near", "branches", "open-data", { requests: 90, bytes_sent: 45_000 }),
  row("document", "/openapi.json", "", { requests: 40, bytes_sent: 400_000 }),
  row("dataset", "service-metrics-pca", "service-metrics", {
    requests: 300,
    rate_limited: 150,
    server_errors: 2,
  }),
  row("unknown", "", "", { requests: 25 }),
];

describe("the report", () => {
  it("queries the last day then the last week, POSTing SQL with the token, weighted by _sample_interval", async () => {
    api.handler = () => queryResult(DAY);
    const run = await stats();
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(api.requests).toHaveLength(2);
    for (const request of api.requests) {
      expect(request.method).toBe("POST");
      expect(request.path).toBe(SQL_PATH);
      expect(request.authorization).toBe(`Bearer ${TOKEN}`);
      expect(request.sql).toContain("FROM opendata_edge_requests");
      expect(request.sql).toContain("SUM(_sample_interval) AS requests");
      expect(request.sql).not.toMatch(/count\(/i);
      expect(request.sql).toMatch(/FORMAT JSON$/);
    }
    expect(api.requests[0]!.sql).toContain("WHERE timestamp > NOW() - INTERVAL '1' DAY");
    expect(api.requests[1]!.sql).toContain("WHERE timestamp > NOW() - INTERVAL '7' DAY");
  });

  it("prints a table per window: requests per data set, 304 share, 429s, 5xx, bytes sent and saved", async () => {
    api.handler = () => queryResult(DAY);
    const lines = (await stats()).stdout.split("\n");
    const cells = (label: string) =>
      lines
        .find((l) => l.startsWith(`${label}  `))
        ?.trim()
        .split(/\s{2,}/);
    expect(lines).toContain("Last day");
    expect(lines).toContain("Last week");
    expect(cells("asked for")).toEqual([
      "asked for",
      "requests",
      "304 share",
      "429s",
      "5xx",
      "bytes sent",
      "saved by 304s",
      "saved by compression",
    ]);
    // 1,200 + 10 requests to atms, 600 of them 304: 49.6%.
    expect(cells("atms")).toEqual([
      "atms",
      "1,210",
      "49.6%",
      "30",
      "0",
      "1.5 MB",
      "2.4 MB",
      "9.0 MB",
    ]);
    expect(cells("service-metrics-pca")).toEqual([
      "service-metrics-pca",
      "300",
      "0%",
      "150",
      "2",
      "0 B",
      "0 B",
      "0 B",
    ]);
    expect(cells("branches near me")?.slice(0, 2)).toEqual(["branches near me", "90"]);
    expect(cells("/openapi.json")?.slice(0, 2)).toEqual(["/openapi.json", "40"]);
    expect(cells("unknown paths")?.slice(0, 2)).toEqual(["unknown paths", "25"]);
    expect(cells("all")).toEqual(["all", "1,665", "36%", "180", "2", "1.9 MB", "2.4 MB", "9.0 MB"]);
    expect(lines).toContain("  open-data: 30 of 1,290 requests (2.3%)");
    expect(lines).toContain("  service-metrics: 150 of 300 requests (50%)");
    // Busiest first.
    const order = ["atms", "service-metrics-pca", "branches near me", "/openapi.json"];
    const at = order.map((label) => lines.findIndex((l) => l.startsWith(`${label}  `)));
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it("says so for a window with no requests when the week has some", async () => {
    api.handler = (request) => queryResult(request.sql.includes("'1' DAY") ? [] : DAY);
    const run = await stats();
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[lines.indexOf("Last day") + 2]).toBe("no requests recorded in this window");
  });

  it("asks the dataset --dataset names", async () => {
    api.handler = () => queryResult(DAY);
    await stats({}, ["--dataset", "other_requests"]);
    expect(api.requests[0]!.sql).toContain("FROM other_requests");
  });
});

describe("each failure is one line and a non-zero exit, with no stack and no token", () => {
  function oneLine(run: { stderr: string; stdout: string }) {
    expect(run.stderr.split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^stats: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr + run.stdout).not.toContain(TOKEN);
    return run.stderr;
  }

  it.each([
    ["CLOUDFLARE_API_TOKEN", "CLOUDFLARE_API_TOKEN is not set"],
    ["CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_ACCOUNT_ID is not set"],
  ])("refuses to start without %s, sending nothing", async (variable, message) => {
    const run = await stats({ [variable]: undefined });
    expect(run.code).toBe(2);
    expect(oneLine(run)).toContain(message);
    expect(api.requests).toEqual([]);
  });

  it.each([401, 403])("names the permission the token needs on a %i", async (status) => {
    api.handler = () => ({
      status,
      contentType: "application/json",
      body: JSON.stringify({
        success: false,
        errors: [{ code: 10000, message: "Authentication error" }],
      }),
    });
    const run = await stats();
    expect(run.code).toBe(1);
    const line = oneLine(run);
    expect(line).toContain(`HTTP ${status}: Authentication error`);
    expect(line).toContain("Account Analytics Read");
  });

  it("says the API could not be reached when nothing listens", async () => {
    const base = `http://127.0.0.1:${await closedPort()}/client/v4`;
    const run = await stats({ CLOUDFLARE_API_BASE_URL: base });
    expect(run.code).toBe(1);
    expect(oneLine(run)).toMatch(
      /^stats: could not reach the Analytics Engine SQL API at http:\/\/127\.0\.0\.1:\d+\/client\/v4\/accounts\/test-account-not-real\/analytics_engine\/sql: connect ECONNREFUSED/,
    );
  });

  it("gives up on an API that does not answer within --timeout", async () => {
    api.handler = () => "hang";
    const run = await stats({}, ["--timeout", "0.3"]);
    expect(run.code).toBe(1);
    expect(oneLine(run)).toContain("no answer within 0.3 s");
  });

  it("refuses an answer that is not JSON", async () => {
    api.handler = () => ({ status: 200, body: "<html>Bad gateway</html>" });
    const run = await stats();
    expect(run.code).toBe(1);
    expect(oneLine(run)).toBe(
      'stats: the Analytics Engine SQL API answered HTTP 200 with a body that is not JSON: "<html>Bad gateway</html>"',
    );
  });

  it("passes on the API's own words for an error answer", async () => {
    api.handler = () => ({
      status: 422,
      body: "error in query: unknown table opendata_edge_requests\n",
    });
    const run = await stats();
    expect(run.code).toBe(1);
    expect(oneLine(run)).toBe(
      "stats: the Analytics Engine SQL API answered HTTP 422: error in query: unknown table opendata_edge_requests",
    );
  });

  it("refuses a JSON answer without rows, quoting its error", async () => {
    api.handler = () => ({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({ success: false, errors: [{ code: 7003, message: "No route" }] }),
    });
    const run = await stats();
    expect(run.code).toBe(1);
    expect(oneLine(run)).toBe(
      'stats: the Analytics Engine SQL API answered without a "data" list of rows: No route',
    );
  });

  it("refuses a row whose count is not a number", async () => {
    api.handler = () => queryResult([{ ...DAY[0]!, requests: "many" }]);
    const run = await stats();
    expect(run.code).toBe(1);
    expect(oneLine(run)).toBe('stats: the answer\'s row 1 has no number in "requests"');
  });

  it("says the dataset is empty when neither window has a data point", async () => {
    const run = await stats();
    expect(run.code).toBe(1);
    expect(oneLine(run)).toContain("the dataset opendata_edge_requests has no data points");
    expect(api.requests).toHaveLength(2);
  });
});
