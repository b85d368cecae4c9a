import { describe, expect, it } from "vitest";
import {
  annotation,
  diagnosticAnnotation,
  escapeData,
  escapeProperty,
  underGitHubActions,
} from "../../../build/cli/annotations.js";

describe("GitHub workflow annotations", () => {
  it("percent-encodes %, CR and LF in the message, so one problem stays one command", () => {
    expect(escapeData("50% off\r\nnext: a, b")).toBe("50%25 off%0D%0Anext: a, b");
  });

  it("also encodes : and , in property values, which delimit the properties", () => {
    expect(escapeProperty("content/a,b:c%\n.yaml")).toBe("content/a%2Cb%3Ac%25%0A.yaml");
  });

  it("writes the level, the properties in order and the message", () => {
    expect(annotation("warning", "look", { title: "t: x", line: 3, file: "f.yaml" })).toBe(
      "::warning file=f.yaml,line=3,title=t%3A x::look",
    );
    expect(annotation("notice", "just this")).toBe("::notice::just this");
  });

  it("places a build problem at its file, line and column, titled by what it is about", () => {
    const problem = {
      file: "content/branches/zz.yaml",
      line: 5,
      column: 11,
      pointer: "/Branch/0/Type",
      rule: "enum",
      message: 'must be one of Mobile, Physical (found "Mobil"); did you mean "Mobile"?',
    };
    expect(diagnosticAnnotation(problem)).toBe(
      '::error file=content/branches/zz.yaml,line=5,col=11,title=/Branch/0/Type::must be one of Mobile, Physical (found "Mobil"); did you mean "Mobile"?',
    );
    expect(diagnosticAnnotation({ ...problem, pointer: "", rule: "guard" })).toContain(
      "title=publication guard::",
    );
  });

  it("is on only when GITHUB_ACTIONS is true", () => {
    expect(underGitHubActions({ GITHUB_ACTIONS: "true" })).toBe(true);
    expect(underGitHubActions({ GITHUB_ACTIONS: "false" })).toBe(false);
    expect(underGitHubActions({})).toBe(false);
  });
});
