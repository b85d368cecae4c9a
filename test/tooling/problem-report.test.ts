import { describe, expect, it } from "vitest";
import { problemReport } from "../../build/cli/problem-report.js";

const enumProblem = {
  file: "content/branches/zz.yaml",
  line: 5,
  column: 11,
  pointer: "/Branch/0/Type",
  rule: "enum",
  message: 'must be one of Mobile, Physical (found "Mobil")',
};
const yamlProblem = {
  file: "content/atms/a.yaml",
  line: 1,
  column: 1,
  pointer: "",
  rule: "yaml",
  message: "is not valid YAML",
};

describe("the report of content problems", () => {
  it("lists each problem on stderr at its place, then counts problems and files", () => {
    const report = problemReport([enumProblem, { ...enumProblem, line: 9 }, yamlProblem], {
      annotate: false,
      fileNoun: "file",
      nextStep: "Nothing was published: dist/ is unchanged.",
    });
    expect(report).toEqual({
      stdout: [],
      stderr: [
        'content/branches/zz.yaml:5:11: /Branch/0/Type: must be one of Mobile, Physical (found "Mobil")',
        'content/branches/zz.yaml:9:11: /Branch/0/Type: must be one of Mobile, Physical (found "Mobil")',
        "content/atms/a.yaml:1:1: /: is not valid YAML",
        "\n3 problems in 2 files. Nothing was published: dist/ is unchanged.",
      ],
    });
  });

  it("adds an annotation per problem on stdout under GitHub Actions", () => {
    const report = problemReport([yamlProblem], {
      annotate: true,
      fileNoun: "imported file",
      nextStep: "The files are written: fix them in place, then run npm run validate.",
    });
    expect(report.stdout).toEqual([
      "::error file=content/atms/a.yaml,line=1,col=1,title=YAML syntax::is not valid YAML",
    ]);
    expect(report.stderr.at(-1)).toBe(
      "\n1 problem in 1 imported file. The files are written: fix them in place, then run npm run validate.",
    );
  });

  it("ends the count with a full stop when there is no next step", () => {
    expect(
      problemReport([yamlProblem], { annotate: false, fileNoun: "file", nextStep: "" }).stderr.at(
        -1,
      ),
    ).toBe("\n1 problem in 1 file.");
  });
});
