import { afterEach, describe, expect, it } from "vitest";
import { sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { buildCommand } from "../../helpers/cli.js";
import { warmCache } from "../../helpers/sample-build.js";
import { diagnosticLines, problemReport } from "../../../build/cli/problem-report.js";
import { foldPointer } from "../../../build/core/diagnostics.js";

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

describe("grouping problems of one kind", () => {
  const bad = (i: number) => ({
    file: "content/atms/lloyds.yaml",
    line: 10 + i * 20,
    column: 9,
    pointer: `/ATM/${i}/SupportedLanguages/0`,
    rule: "pattern",
    message: `must be a two-letter language code in lower case, like en or cy (found "eng")`,
  });
  const many = Array.from({ length: 8234 }, (_, i) => bad(i));

  it.each([
    ["/ATM/12/SupportedLanguages/0", "/ATM/*/SupportedLanguages/*"],
    ["/PCA/0/PCAMarketingState/3/Eligibility", "/PCA/*/PCAMarketingState/*/Eligibility"],
    ["/BrandName", "/BrandName"],
    ["", ""],
  ])("folds the list indexes of %j to %j", (pointer, folded) => {
    expect(foldPointer(pointer)).toBe(folded);
  });

  it("prints the first three of a kind seen thousands of times, then one line for the rest", () => {
    const report = problemReport([...many, yamlProblem], {
      annotate: false,
      fileNoun: "file",
      nextStep: "",
    });
    expect(report.stderr).toEqual([
      'content/atms/lloyds.yaml:10:9: /ATM/0/SupportedLanguages/0: must be a two-letter language code in lower case, like en or cy (found "eng")',
      'content/atms/lloyds.yaml:30:9: /ATM/1/SupportedLanguages/0: must be a two-letter language code in lower case, like en or cy (found "eng")',
      'content/atms/lloyds.yaml:50:9: /ATM/2/SupportedLanguages/0: must be a two-letter language code in lower case, like en or cy (found "eng")',
      "  … and 8,231 more like these (8,234 in all, rule pattern at /ATM/*/SupportedLanguages/* in content/atms/lloyds.yaml); --verbose lists every one",
      "content/atms/a.yaml:1:1: /: is not valid YAML",
      "\n8,235 problems in 2 files. 2 kinds of problem; --verbose lists every one.",
    ]);
  });

  it("prints a kind seen a handful of times in full", () => {
    const five = many.slice(0, 5);
    expect(diagnosticLines(five, {})).toHaveLength(5);
    expect(diagnosticLines(many.slice(0, 6), {})).toHaveLength(4);
  });

  it("names how many files a kind is in when it is in several", () => {
    const spread = many.slice(0, 6).map((d, i) => ({ ...d, file: `content/atms/${i % 2}.yaml` }));
    expect(diagnosticLines(spread, {}).at(-1)).toBe(
      "  … and 3 more like these (6 in all, rule pattern at /ATM/*/SupportedLanguages/* in 2 files); --verbose lists every one",
    );
  });

  it("prints every problem when verbose", () => {
    const report = problemReport(many, {
      annotate: false,
      fileNoun: "file",
      nextStep: "",
      verbose: true,
    });
    expect(report.stderr).toHaveLength(8235);
    expect(report.stderr.at(-1)).toBe("\n8,234 problems in 1 file.");
  });

  it("annotates every problem under GitHub Actions, grouped or not", () => {
    const report = problemReport(many.slice(0, 10), {
      annotate: true,
      fileNoun: "file",
      nextStep: "",
    });
    expect(report.stdout).toHaveLength(10);
  });
});

describe("npm run validate groups a kind seen more than a handful of times", () => {
  let fixture: Fixture;
  afterEach(async () => fixture?.cleanup());

  // Twenty ATMs, each with a three-letter language code: twenty problems of one kind.
  const atms = Array.from(
    { length: 20 },
    (_, i) =>
      `  - Identification: "Z${i}"\n    SupportedLanguages: ["eng"]\n    SupportedCurrencies: ["GBP"]\n    Location:\n      PostalAddress:\n        Country: "GB"\n`,
  ).join("");
  const file = `BrandName: "Zed Bank"\nATM:\n${atms}`;

  const withoutCacheNote = (stderr: string) =>
    stderr
      .trim()
      .split("\n")
      .filter((line) => !line.startsWith("Build cache not used: --no-cache was given"));

  it("prints three, a line for the other seventeen, and every one with --verbose", async () => {
    fixture = await sampleFixture({ "atms/zed-bank.yaml": file });
    const cache = await warmCache();
    const run = await buildCommand(["validate", "--content", "content", "--cache", cache], {
      cwd: fixture.root,
    });
    expect(run.code).toBe(1);
    const lines = withoutCacheNote(run.stderr);
    expect(lines).toHaveLength(6);
    expect(lines[3]).toBe(
      "  … and 17 more like these (20 in all, rule pattern at /ATM/*/SupportedLanguages/* in content/atms/zed-bank.yaml); --verbose lists every one",
    );
    expect(lines[5]).toBe("20 problems in 1 file. 1 kind of problem; --verbose lists every one.");
    const verbose = await buildCommand(
      ["validate", "--verbose", "--content", "content", "--cache", cache],
      { cwd: fixture.root },
    );
    expect(verbose.code).toBe(1);
    expect(withoutCacheNote(verbose.stderr)).toHaveLength(22);
  });
});
