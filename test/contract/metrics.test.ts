/**
 * The request metrics' schema as both sides read it: which SQL column holds which field, and the
 * class each status is counted in. Expected positions are written out as docs/operations.md lists
 * them (#request-metrics), so moving a field fails here before it scrambles three months of points.
 */
import { describe, expect, it } from "vitest";
import { metricsColumn, outcomeOf } from "../../contract/metrics.js";

describe("the columns of a data point", () => {
  it.each([
    ["asked", "blob1"],
    ["target", "blob2"],
    ["detail", "blob3"],
    ["outcome", "blob4"],
    ["coding", "blob5"],
    ["plan", "blob6"],
    ["method", "blob7"],
    ["colo", "blob8"],
    ["status", "double1"],
    ["bytesSent", "double2"],
    ["fullBytes", "double3"],
    ["identityBytes", "double4"],
  ] as const)("%s is %s", (field, column) => {
    expect(metricsColumn(field)).toBe(column);
  });
});

describe("the class of an answer", () => {
  it.each([
    [200, "ok"],
    [204, "ok"],
    [304, "not-modified"],
    [308, "redirect"],
    [400, "client-error"],
    [404, "client-error"],
    [405, "client-error"],
    [429, "rate-limited"],
    [500, "server-error"],
    [501, "server-error"],
    [503, "server-error"],
  ])("%i is %s", (status, outcome) => {
    expect(outcomeOf(status)).toBe(outcome);
  });
});
