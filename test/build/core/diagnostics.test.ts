import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { atFileStart, formatDiagnostic } from "../../../build/core/diagnostics.js";
import { isObject } from "../../../build/core/json-value.js";
import { displayPath } from "../../../build/core/paths.js";

describe("displayPath", () => {
  it("prints a file below the working folder relative to it, with / between folders", () => {
    expect(displayPath("/work/site", join("/work/site", "content", "atms", "a.yaml"))).toBe(
      "content/atms/a.yaml",
    );
  });

  it("prints a file outside the working folder with .. segments", () => {
    expect(displayPath("/work/site/sub", "/work/site/content/site.yaml")).toBe(
      "../content/site.yaml",
    );
  });

  it('prints the working folder itself as "."', () => {
    expect(displayPath("/work/site", "/work/site")).toBe(".");
  });
});

describe("atFileStart", () => {
  it("places a whole-file problem at line 1, column 1, with the document as its pointer", () => {
    const problem = atFileStart("content/site.yaml", "content", "site.yaml is missing");
    expect(problem).toEqual({
      file: "content/site.yaml",
      line: 1,
      column: 1,
      pointer: "",
      rule: "content",
      message: "site.yaml is missing",
    });
    expect(formatDiagnostic(problem)).toBe("content/site.yaml:1:1: /: site.yaml is missing");
  });

  it("keeps the pointer of a value that has no line of its own", () => {
    const problem = atFileStart("content/atms", "required", "is missing", "/meta/License");
    expect(formatDiagnostic(problem)).toBe("content/atms:1:1: /meta/License: is missing");
  });
});

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
