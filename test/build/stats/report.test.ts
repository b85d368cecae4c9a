/** The stats table's pieces: reading the answer's numbers, labels, and bytes in decimal units. */
import { describe, expect, it } from "vitest";
import { askedLabel, bytes, readRows } from "../../../build/stats/report.js";

describe("reading the answer's rows", () => {
  const base = {
    asked: "dataset",
    target: "atms",
    plan: "open-data",
    requests: 3,
    not_modified: 1,
    rate_limited: 0,
    server_errors: 0,
    bytes_sent: 10.5,
    saved_by_304: 0,
    saved_by_compression: 0,
  };

  it("reads numbers, and numeric strings (64-bit sums are quoted in the API's JSON)", () => {
    const [row] = readRows([{ ...base, requests: "12345678901", bytes_sent: "10.5" }]);
    expect(row).toMatchObject({ requests: 12345678901, bytes_sent: 10.5, not_modified: 1 });
  });

  it.each([
    ["a word", { requests: "many" }, 'row 1 has no number in "requests"'],
    ["an empty string", { bytes_sent: "" }, 'row 1 has no number in "bytes_sent"'],
    ["a missing column", { saved_by_304: undefined }, 'row 1 has no number in "saved_by_304"'],
    ["a target that is not text", { target: 7 }, 'row 1 has no text in "target"'],
  ])("refuses %s, naming the row and column", (_, change, message) => {
    expect(() => readRows([{ ...base, ...change }])).toThrow(message);
  });
});

describe("labels", () => {
  it.each([
    ["dataset", "atms", "atms"],
    ["document", "/openapi.json", "/openapi.json"],
    ["near", "branches", "branches near me"],
    ["changes", "atms", "atms changes"],
    ["changes", "", "changes feed"],
    ["unknown", "", "unknown paths"],
  ])("%s %s reads %s", (asked, target, label) => {
    expect(askedLabel(asked, target)).toBe(label);
  });
});

describe("bytes", () => {
  it.each([
    [0, "0 B"],
    [999, "999 B"],
    [1000, "1.0 kB"],
    [1_234_567, "1.2 MB"],
    [9_870_000_000, "9.9 GB"],
  ])("%i is %s", (n, text) => {
    expect(bytes(n)).toBe(text);
  });
});
