/** What verify prints: a line per path, the closing line, the Markdown for a job summary. */
import { describe, expect, it } from "vitest";
import type { PathCheck } from "../../../build/verify/checks.js";
import { markdownSummary, resultLines, summaryLine } from "../../../build/verify/report.js";
import type { PathResult } from "../../../build/verify/verify.js";

const expected = { status: 200, etag: { exact: '"x"' }, lastModified: "" };
const atms: PathCheck = {
  path: "/std/v2.2/atms",
  what: "data set atms",
  dataset: "atms",
  expected,
};
const alias: PathCheck = { ...atms, path: "/open-banking/v2.2/atms", what: "data set atms, alias" };
const doc: PathCheck = { path: "/openapi.json", what: "document", expected };
const where = { base: "https://opendata.example", manifest: "dist/manifest.json" };

const mixed: PathResult[] = [
  { kind: "different", check: atms, differences: ["status 503, not 200"] },
  { kind: "different", check: alias, differences: ["ETag a, not b", "body SHA-256 c, not d"] },
  { kind: "same", check: doc },
  { kind: "unreachable", check: { ...doc, path: "/" }, cause: "no answer within 10 s" },
];

describe("the report", () => {
  it("prints one line per path: same, or what differs, or why it could not be reached", () => {
    expect(resultLines(mixed)).toEqual([
      "different    /std/v2.2/atms  (data set atms): status 503, not 200",
      "different    /open-banking/v2.2/atms  (data set atms, alias): ETag a, not b; body SHA-256 c, not d",
      "same         /openapi.json  (document)",
      "unreachable  /  (document): no answer within 10 s",
    ]);
  });

  it("closes naming the data sets that are not the same, each once", () => {
    expect(summaryLine(mixed, where)).toBe(
      "verify: 3 of 4 paths at https://opendata.example are not the same as dist/manifest.json (2 different, 1 unreachable); data sets: atms",
    );
    expect(summaryLine([{ kind: "same", check: doc }], where)).toBe(
      "verify: the 1 path at https://opendata.example is the same as dist/manifest.json",
    );
  });

  it("writes the paths that are not the same as a Markdown table for the job summary", () => {
    expect(markdownSummary(mixed, where)).toBe(
      [
        "### Deployment check",
        "",
        "3 of 4 paths at https://opendata.example are not the same as the build's `dist/manifest.json`:",
        "",
        "| path | serves | result |",
        "| --- | --- | --- |",
        "| `/std/v2.2/atms` | data set atms | different: status 503, not 200 |",
        "| `/open-banking/v2.2/atms` | data set atms, alias | different: ETag a, not b; body SHA-256 c, not d |",
        "| `/` | document | unreachable: no answer within 10 s |",
        "",
      ].join("\n"),
    );
  });
});
