/**
 * `npm run verify`'s arguments and files: what it refuses before asking anything (exit 2), and
 * the job summary it appends to. Requests go to a stand-in for fetch; the end-to-end runs against
 * real Workers are in test/e2e/verify.test.ts.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runVerify } from "../../../build/cli/verify-run.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "opendata-edge-verify-run-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function verify(argv: string[], fetch?: typeof globalThis.fetch) {
  const out: string[] = [];
  const err: string[] = [];
  let asked = 0;
  const code = await runVerify(argv, {
    cwd: dir,
    env: {},
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    fetch: async (...args: Parameters<typeof globalThis.fetch>) => {
      asked += 1;
      if (!fetch) throw new Error("no request expected");
      return fetch(...args);
    },
  });
  return { code, stdout: out.join("\n"), stderr: err.join("\n"), asked };
}

const DATE = "Mon, 21 Sep 2026 14:13:20 GMT";
// The SHA-256 of "{}".
const HEX = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";
const MANIFEST = {
  formatVersion: 1,
  datasets: [],
  documents: [
    {
      path: "/openapi.json",
      mediaType: "application/json",
      lastModified: DATE,
      lastModifiedMs: 0,
      variants: { identity: { asset: "/openapi.json", etag: `"${HEX}"`, length: 2 } },
    },
  ],
};

describe("what verify refuses before asking anything", () => {
  it.each([
    ["no base URL", [], "give the deployment's base URL, and only that"],
    ["two base URLs", ["http://a.test", "http://b.test"], "give the deployment's base URL"],
    ["a base URL that is not one", ["opendata.example"], 'not a URL: "opendata.example"'],
    ["another scheme", ["ftp://opendata.example"], "must be http or https, not ftp:"],
    [
      "a wait that is not a duration",
      ["http://a.test", "--wait", "soon"],
      "--wait takes a duration",
    ],
    ["a timeout of 0", ["http://a.test", "--timeout", "0"], "--timeout takes a duration"],
  ])("%s", async (_, argv, message) => {
    const run = await verify(argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.asked).toBe(0);
  });

  it("a manifest that is not there, saying to build first", async () => {
    const run = await verify(["http://a.test", "--manifest", "none.json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "verify: there is no none.json: build first (npm run build), or give --manifest",
    );
  });

  it("a file that is not a manifest", async () => {
    await writeFile(join(dir, "other.json"), JSON.stringify({ formatVersion: 99 }));
    const run = await verify(["http://a.test", "--manifest", "other.json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("verify: other.json is not a manifest of format 1");
  });
});

describe("the job summary", () => {
  it("is appended to --summary's file, after what is there", async () => {
    await writeFile(join(dir, "manifest.json"), JSON.stringify(MANIFEST));
    await writeFile(join(dir, "summary.md"), "## Earlier step\n");
    const served = () =>
      Promise.resolve(
        new Response("{}", { headers: { ETag: `W/"${HEX}"`, "Last-Modified": DATE } }),
      );
    const run = await verify(
      [
        "https://opendata.example/ignored/path",
        "--manifest",
        "manifest.json",
        "--summary",
        "summary.md",
      ],
      served,
    );
    expect(run.stdout).toBe(
      [
        "same         /openapi.json  (document)",
        "verify: the 1 path at https://opendata.example is the same as manifest.json",
      ].join("\n"),
    );
    expect(run.code).toBe(0);
    expect(await readFile(join(dir, "summary.md"), "utf8")).toBe(
      "## Earlier step\n### Deployment check\n\nThe 1 path at https://opendata.example is the same as the build's `manifest.json`.\n",
    );
  });
});
