/**
 * Every request sample the API reference (/reference) shows, run as a reader pastes it against the
 * real Worker on loopback: the curl in bash, the JavaScript in Node.js as an ES module, the Python
 * with python3. Each must get the answer the page shows beside it: the status, the Content-Type,
 * and a body of which every field shown is true (test/helpers/reference-page.ts).
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type RunningWorker } from "../helpers/worker.js";
import { request } from "./http.js";
import { runExample, type Ran } from "../helpers/page-examples.js";
import {
  shownOperations,
  untrueOf,
  untrueTextOf,
  type ShownOperation,
} from "../helpers/reference-page.js";
import { parseJson } from "../helpers/json.js";

/** Runs `command` with `args`, ORIGIN set to `origin` unless undefined, and nothing on stdin. */
function runProgram(command: string, args: readonly string[], origin?: string): Promise<Ran> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  if (origin !== undefined) env.ORIGIN = origin;
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], timeout: 20_000 });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr })),
  );
}

// Python and Node.js start once each for all their samples (a start is 0.1 to 0.2 s of a loaded
// machine): each sample runs as written, in a fresh namespace (Python's exec) or as a module of
// its own (Node's import of a data: URL), with what it prints kept apart.
const PYTHON_BATCH = `
import contextlib, io, json, sys
results = []
for code in json.loads(sys.argv[1]):
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "<sample>", "exec"), {"__name__": "__main__"})
        results.append({"stdout": out.getvalue(), "error": ""})
    except BaseException as error:
        results.append({"stdout": out.getvalue(), "error": repr(error)})
sys.stdout.write(json.dumps(results))
`;
const NODE_BATCH = `
import { format } from "node:util";
const results = [];
const log = console.log;
for (const code of JSON.parse(process.argv[1])) {
  let stdout = "";
  console.log = (...args) => { stdout += format(...args) + "\\n"; };
  try {
    await import("data:text/javascript," + encodeURIComponent(code));
    results.push({ stdout, error: "" });
  } catch (error) {
    results.push({ stdout, error: String(error) });
  }
}
console.log = log;
process.stdout.write(JSON.stringify(results));
`;

/** Runs every code of `codes` in one process of `language`, with ORIGIN set to `origin`. */
async function runBatch(
  language: "javascript" | "python",
  codes: readonly string[],
  origin: string,
): Promise<{ stdout: string; error: string }[]> {
  const ran =
    language === "python"
      ? await runProgram("python3", ["-c", PYTHON_BATCH, JSON.stringify(codes)], origin)
      : await runProgram(
          process.execPath,
          ["--input-type=module", "-e", NODE_BATCH, JSON.stringify(codes)],
          origin,
        );
  if (ran.code !== 0) throw new Error(`${language} batch: exit ${ran.code}, ${ran.stderr}`);
  return JSON.parse(ran.stdout) as { stdout: string; error: string }[];
}

const runners: Record<string, (code: string, origin?: string) => Promise<Ran>> = {
  curl: (code, origin) => runExample(code, origin),
  javascript: (code, origin) =>
    runProgram(process.execPath, ["--input-type=module", "-e", code], origin),
  python: (code, origin) => runProgram("python3", ["-c", code], origin),
};

/** What a sample printed, read as an answer: status, Content-Type and body. */
interface Printed {
  readonly status: number;
  readonly mediaType: string;
  readonly body: string;
}

function printed(language: string, stdout: string): Printed {
  if (language === "curl") {
    // curl -i: the status line and header fields, CRLF each, a blank line, then the body.
    const end = stdout.indexOf("\r\n\r\n");
    const head = end < 0 ? stdout : stdout.slice(0, end);
    const [statusLine = "", ...fields] = head.split("\r\n");
    const type = fields.find((f) => /^content-type:/i.test(f)) ?? "";
    return {
      status: Number(statusLine.split(" ")[1]),
      mediaType: type.slice(type.indexOf(":") + 1).trim(),
      body: end < 0 ? "" : stdout.slice(end + 4),
    };
  }
  // The others: "status Content-Type" on the first line, then the body and the print's newline.
  const first = stdout.indexOf("\n");
  const [status = "", ...type] = stdout.slice(0, first).split(" ");
  return {
    status: Number(status),
    mediaType: type.join(" "),
    body: stdout.slice(first + 1).replace(/\n$/, ""),
  };
}

/** Where what a sample printed is not the answer the page shows. */
function untrue(o: ShownOperation, got: Printed): string[] {
  const faults: string[] = [];
  if (got.status !== o.answer.status) faults.push(`status ${got.status}, shown ${o.answer.status}`);
  if (got.mediaType !== o.answer.mediaType) {
    faults.push(`Content-Type ${got.mediaType}, shown ${o.answer.mediaType}`);
  }
  if (o.method === "HEAD") return got.body === "" ? faults : [...faults, "a body to HEAD"];
  const json = /json/.test(o.answer.mediaType);
  return [
    ...faults,
    ...(json
      ? untrueOf(parseJson(o.answer.body), parseJson(got.body))
      : untrueTextOf(o.answer.body, got.body.replace(/\n$/, ""))),
  ];
}

let worker: RunningWorker;
let operations: ShownOperation[];
beforeAll(async () => {
  // Every sample of every operation is one request from this one client: a quota above them all.
  worker = await startWorker({
    OPEN_DATA_LIMIT_PER_MINUTE: "10000",
    SERVICE_METRICS_LIMIT_PER_MINUTE: "10000",
  });
  const page = await request(new URL("/reference", worker.base), { method: "GET", headers: {} });
  operations = shownOperations(page.body.toString("utf8"));
}, 60_000);
afterAll(async () => worker?.dispose());

describe("the API reference's samples, run against the Worker", () => {
  it("are shown for every data set, near-me, changes and document operation", () => {
    const paths = new Set(operations.map((o) => o.path));
    expect(paths).toContain("/std/v2.2/atms");
    expect(paths).toContain("/std/v1.0/reg-service-metrics/pca");
    expect(paths).toContain("/x-std/v2.2/atms/postcode/{postcode}");
    expect(paths).toContain("/x-std/v2.2/branches/geo-location/lat/{latitude}/long/{longitude}");
    expect(paths).toContain("/x-std/v2.2/atms/changes");
    expect(paths).toContain("/participant_store.json");
    expect(operations.every((o) => Object.keys(o.samples).length === 3)).toBe(true);
  });

  it("each get the answer the page shows beside them, in curl, JavaScript and Python", async () => {
    const origin = worker.base.origin;
    const faults: string[] = [];
    const check = (o: ShownOperation, language: string, stdout: string, error: string) => {
      const where = `${o.method} ${o.path} (${language})`;
      if (error !== "") faults.push(`${where}: ${error.slice(0, 300)}`);
      else faults.push(...untrue(o, printed(language, stdout)).map((f) => `${where}: ${f}`));
    };
    const batches = (["javascript", "python"] as const).map(async (language) => {
      const results = await runBatch(
        language,
        operations.map((o) => o.samples[language]!),
        origin,
      );
      expect(results.length).toBe(operations.length);
      results.forEach((r, i) => check(operations[i]!, language, r.stdout, r.error));
    });
    // The curl samples in bash, four at a time beside the two batches: bounded, on two cores.
    for (let i = 0; i < operations.length; i += 4) {
      await Promise.all(
        operations.slice(i, i + 4).map(async (o) => {
          const ran = await runners.curl!(o.samples.curl!, origin);
          check(
            o,
            "curl",
            ran.stdout,
            ran.code === 0 ? ran.stderr : `exit ${ran.code} ${ran.stderr}`,
          );
        }),
      );
    }
    await Promise.all(batches);
    expect(faults).toEqual([]);
  }, 120_000);

  it("each stop before sending anything when ORIGIN is not set, and say to set it", async () => {
    const o = operations.find((op) => op.method === "GET" && op.path === "/std/v2.2/branches")!;
    for (const [language, code] of Object.entries(o.samples)) {
      const ran = await runners[language]!(code, undefined);
      expect({ language, failed: ran.code !== 0, stdout: ran.stdout }).toEqual({
        language,
        failed: true,
        stdout: "",
      });
      expect(ran.stderr).toContain("ORIGIN");
    }
  });
});
