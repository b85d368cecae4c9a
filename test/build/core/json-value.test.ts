import { describe, expect, it } from "vitest";
import { isObject } from "../../../build/core/json-value.js";

describe("isObject", () => {
  describe.each([
    ["a mapping", { BrandName: "x" }, true],
    ["an empty mapping", {}, true],
    ["a list", [1, 2], false],
    ["null", null, false],
    ["a string", "BrandName", false],
    ["a number", 3, false],
    ["nothing", undefined, false],
  ])("given %s", (_name, value, expected) => {
    it(`answers ${expected}`, () => {
      expect(isObject(value)).toBe(expected);
    });
  });
});
