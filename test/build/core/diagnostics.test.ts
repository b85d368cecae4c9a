import { describe, expect, it } from "vitest";
import { atFileStart, formatDiagnostic } from "../../../build/core/diagnostics.js";

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

describe("a problem line", () => {
  it("is one line of characters that show as themselves, whatever the content's keys and values hold", () => {
    // A key of one vertical tab, and an escape sequence in a message taken from content.
    const problem = atFileStart("content/atms/a.yaml", "content", 'bad "\u001b[31mred"', "/\u000b");
    expect(formatDiagnostic(problem)).toBe(
      'content/atms/a.yaml:1:1: /\\u000b: bad "\\u001b[31mred"',
    );
    const separated = atFileStart("content/atms/a.yaml", "content", "one\u2028two\nthree");
    expect(formatDiagnostic(separated)).toBe(
      "content/atms/a.yaml:1:1: /: one\\u2028two\\u000athree",
    );
  });
});
