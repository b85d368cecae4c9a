import { describe, expect, it } from "vitest";
import { changeText, DEFAULT_LIMITS, escapeMarkdown } from "../../../build/diff/markdown.js";

describe("Markdown from content", () => {
  it("keeps content from turning into Markdown: links, mentions, HTML and code fences", () => {
    expect(escapeMarkdown("[x](http://e.org) @team <b>*hi*</b>")).toBe(
      "\\[x\\](http://e.org) &#64;team \\<b\\>\\*hi\\*\\</b\\>",
    );
    const change = {
      kind: "changed" as const,
      path: [{ kind: "field" as const, text: "Note" }],
      before: "a`b",
      after: "x\ny",
    };
    expect(changeText(change, DEFAULT_LIMITS)).toBe("Note ``a`b`` → `x ⏎ y`");
  });
});
