/**
 * The stats query reads the columns the Worker writes: the positions are written out here as
 * docs/operations.md#request-metrics lists them (blob4 outcome, blob5 coding, blob7 method, double1
 * status, double2 bytes sent, double3 full bytes, double4 identity bytes), and every count is
 * weighted by _sample_interval.
 */
import { describe, expect, it } from "vitest";
import { statsQuery } from "../../../build/stats/query.js";

const sql = statsQuery("opendata_edge_requests", { label: "Last day", days: 1 });

describe("the stats query", () => {
  it("groups by what was asked (blob1), its target (blob2) and its plan (blob6)", () => {
    expect(sql).toContain("blob1 AS asked,\n  blob2 AS target,\n  blob6 AS plan,");
    expect(sql).toContain("GROUP BY asked, target, plan");
  });

  it("counts requests, 304s, 429s and 5xx by _sample_interval, never count()", () => {
    expect(sql).toContain("SUM(_sample_interval) AS requests");
    expect(sql).toContain("SUM(IF(blob4 = 'not-modified', _sample_interval, 0)) AS not_modified");
    expect(sql).toContain("SUM(IF(blob4 = 'rate-limited', _sample_interval, 0)) AS rate_limited");
    expect(sql).toContain("SUM(IF(blob4 = 'server-error', _sample_interval, 0)) AS server_errors");
    expect(sql).not.toMatch(/count\s*\(/i);
  });

  it("weights the bytes sent, and what 304s and compression saved, the same way", () => {
    expect(sql).toContain("SUM(_sample_interval * double2) AS bytes_sent");
    expect(sql).toContain(
      "SUM(IF(blob4 = 'not-modified', _sample_interval * double3, 0)) AS saved_by_304",
    );
    expect(sql).toContain(
      "SUM(IF(double1 = 200 AND blob7 = 'GET' AND (blob5 = 'br' OR blob5 = 'gzip'), _sample_interval * (double4 - double2), 0)) AS saved_by_compression",
    );
  });

  it("covers the window asked for, in the API's JSON format", () => {
    expect(sql).toContain(
      "FROM opendata_edge_requests\nWHERE timestamp > NOW() - INTERVAL '1' DAY",
    );
    expect(statsQuery("t", { label: "Last week", days: 7 })).toContain("INTERVAL '7' DAY");
    expect(sql).toMatch(/\nFORMAT JSON$/);
  });

  it("refuses a dataset name that is not a plain table name", () => {
    expect(() => statsQuery("x; DROP", { label: "", days: 1 })).toThrow("not a dataset name");
  });
});
