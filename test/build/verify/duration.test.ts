import { describe, expect, it } from "vitest";
import { parseDuration } from "../../../build/verify/duration.js";

describe("a duration flag", () => {
  it.each([
    ["120", 120_000],
    ["120s", 120_000],
    ["2m", 120_000],
    ["500ms", 500],
    ["0", 0],
    ["1.5s", 1500],
    [" 10s ", 10_000],
  ])("reads %j as %i ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(["", "s", "-5", "10h", "ten", "1e3", "5 s"])("refuses %j", (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
