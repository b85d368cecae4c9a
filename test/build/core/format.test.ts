import { describe, expect, it } from "vitest";
import { percent, plural } from "../../../build/core/format.js";

describe("numbers in words", () => {
  describe("plural", () => {
    it.each<[number, string, string]>([
      [0, "problem", "0 problems"],
      [1, "problem", "1 problem"],
      [2, "file", "2 files"],
      [1, "imported file", "1 imported file"],
      [62, "ATM record", "62 ATM records"],
    ])("writes %i %s as %j", (count, noun, expected) => {
      expect(plural(count, noun)).toBe(expected);
    });
  });

  describe("percent", () => {
    it.each<[number, string]>([
      [0.2, "20%"],
      [0, "0%"],
      [1, "100%"],
      [0.35, "35%"],
      [1138 / 1200, "94.8%"],
      [4 / 6, "66.7%"],
      [0.125, "12.5%"],
    ])("writes the share %d as %j, with at most one decimal", (share, expected) => {
      expect(percent(share)).toBe(expected);
    });
  });
});
