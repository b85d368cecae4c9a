/**
 * End to end through Stoplight Prism's validating proxy, as a consumer puts it in front of a
 * publisher: `prism proxy dist/openapi.json <the Worker> --errors`, the real Worker behind it.
 * Prism checks each request and each answer against the document; with --errors it answers a
 * mismatch with an error of its own (a 500 whose body names the violation) and logs it. Every data
 * set, every document /openapi.json describes and a changes answer of each data set are asked, with
 * no Accept-Encoding and with curl --compressed's: a GET, then GET and HEAD conditional on its
 * validators (If-None-Match, If-Modified-Since: each a 304), and a plain HEAD; then a 400, a 404, a
 * 410 and a 429. Each answer must come through with the Worker's status and Prism must log no
 * violation: a failure names the request, the status and Prism's words. Prism runs as its own
 * process from node_modules, offline, on a port it chooses, and must listen within 30 s.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST_DIR } from "../../build/core/paths.js";
import { objectAt, parseJson } from "../helpers/json.js";
import { SPEC_PATHS } from "../helpers/spec-values.js";
import { startWorker, withinOneWindow, type RunningWorker } from "../helpers/worker.js";
import { newClients, request, stableHeaders, type RawResponse } from "./http.js";

const resolve = createRequire(import.meta.url).resolve;
const PRISM = join(resolve("@stoplight/prism-cli/package.json"), "..", "dist", "index.js");
const OPENAPI = join(DIST_DIR, "openapi.json");
/** How long Prism may take to read the document and listen (it takes about a second). */
const STARTUP_MS = 30_000;

interface RunningPrism {
  readonly base: URL;
  /** Everything Prism has written so far, colours taken out. */
  output(): string;
  /** Resolves once `text` is in the output, or fails after STARTUP_MS saying what is there. */
  waitFor(text: string): Promise<void>;
  dispose(): Promise<void>;
}

// Prism colours its log with chalk; FORCE_COLOR=0 turns that off, and this takes out any left.
// oxlint-disable-next-line no-control-regex -- the escape sequences are what is matched
const ANSI = /\u001b\[[0-9;]*m/g;

/** Starts Prism's validating proxy on `document` in front of `upstream`, on a free loopback port. */
function startPrism(document: string, upstream: URL): Promise<RunningPrism> {
  const child: ChildProcess = spawn(
    process.execPath,
    [PRISM, "proxy", document, upstream.href, "--errors", "--host", "127.0.0.1", "--port", "0"],
    // Only what it needs: no proxy settings, no colour.
    { env: { PATH: process.env.PATH, HOME: process.env.HOME, FORCE_COLOR: "0" } },
  );
  let text = "";
  const output = () => text.replace(ANSI, "");
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  const waitFor = (wanted: string) =>
    new Promise<void>((found, fail) => {
      const look = () => {
        if (!output().includes(wanted)) return;
        clearTimeout(timer);
        child.stdout!.off("data", look);
        found();
      };
      const timer = setTimeout(() => {
        child.stdout!.off("data", look);
        fail(new Error(`Prism did not log ${wanted} within ${STARTUP_MS} ms:\n${output()}`));
      }, STARTUP_MS);
      child.stdout!.on("data", look);
      look();
    });
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => {
      void dispose();
      fail(new Error(`Prism did not listen within ${STARTUP_MS} ms:\n${output()}`));
    }, STARTUP_MS);
    const read = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const listening = /Prism is listening on (http:\/\/\S+)/.exec(output());
      if (listening) {
        clearTimeout(timer);
        ready({ base: new URL(listening[1]!), output, waitFor, dispose });
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`Prism exited (${code ?? signal}) before it listened:\n${output()}`));
    });
  });
}

let worker: RunningWorker;
let prism: RunningPrism;
/** Prism on a copy of the document whose branches 200 declares a field the Worker never sends. */
let strict: RunningPrism;
let folder: string;
/** The paths /openapi.json describes. */
let described: Set<string>;

beforeAll(async () => {
  worker = await startWorker();
  const doc = objectAt(parseJson(await readFile(OPENAPI, "utf8")), "");
  described = new Set(Object.keys(objectAt(doc, "/paths")));
  // The wrong copy holds the one path it is asked for: Prism starts faster on fewer paths.
  const branches = objectAt(doc, "/paths/~1std~1v2.2~1branches");
  const headers = objectAt(branches, "/get/responses/200/headers");
  headers["X-Never-Sent"] = { required: true, schema: { type: "string" } };
  folder = await mkdtemp(join(tmpdir(), "opendata-edge-prism-"));
  const wrong = join(folder, "openapi.json");
  await writeFile(wrong, JSON.stringify({ ...doc, paths: { "/std/v2.2/branches": branches } }));
  [prism, strict] = await Promise.all([
    startPrism(OPENAPI, worker.base),
    startPrism(wrong, worker.base),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all([prism?.dispose(), strict?.dispose()]);
  if (folder) await rm(folder, { recursive: true, force: true });
  await worker?.dispose();
});

// Each request from its own address, so that no quota interferes but where one is tested.
const fresh = newClients("198.51");

/** The codings consumers accept: none named (Prism's own fetch then asks), and curl --compressed's. */
const CODINGS: readonly Record<string, string>[] = [{}, { "Accept-Encoding": "gzip, br" }];

/**
 * What Prism (5.x, `parseResponseBody` in @stoplight/prism-http) answers for any response with a
 * JSON media type and a status other than 204, whatever the method: it parses the body as JSON,
 * and a HEAD answer has none (RFC 9110 section 9.3.2: the same header fields as the GET, Content-Type
 * among them, and no content). So a correct HEAD of a JSON representation fails inside Prism
 * before Prism validates it; the test then checks the HEAD answer against the GET Prism did
 * validate, directly from the Worker.
 */
const PRISM_HEAD_DEFECT = /invalid json response body .* Unexpected end of JSON input/;

/** The two conditions a consumer's cache asks with, from a 200's validators. */
const CONDITIONS = (etag: string, lastModified: string): Record<string, string>[] => [
  { "If-None-Match": etag },
  { "If-Modified-Since": lastModified },
];

interface Asked {
  readonly method: "GET" | "HEAD";
  readonly path: string;
  readonly headers: Record<string, string>;
  /** The Worker's status for it; "head-defect" for Prism's own failure on a JSON HEAD (above). */
  readonly expected: number | "head-defect";
}

/** What was asked, in one line. */
const line = ({ method, path, headers }: Asked) =>
  [`${method} ${path}`, ...Object.entries(headers).map(([n, v]) => `${n}: ${v}`)].join(", ");

/** What Prism's error answer says: its title, detail and each violation. */
function prismWords(answer: RawResponse): string {
  if (!answer.headers["content-type"]?.startsWith("application/problem+json")) return "";
  const text = answer.body.toString("utf8");
  if (text === "") return "(Prism's error, its body dropped by HEAD)";
  const problem = JSON.parse(text) as {
    title?: string;
    detail?: string;
    validation?: { location?: string[]; message?: string }[];
  };
  const violations = (problem.validation ?? []).map(
    (v) => `${v.location?.join(".") ?? ""}: ${v.message ?? ""}`,
  );
  return [problem.title, problem.detail, ...violations].filter(Boolean).join(" | ");
}

/** Asks through Prism; the answer and a line for it if it is not what was expected. */
async function ask(asked: Asked): Promise<{ answer: RawResponse; mismatch?: string }> {
  const answer = await request(new URL(asked.path, prism.base), {
    method: asked.method,
    headers: fresh(asked.headers),
  });
  const words = prismWords(answer);
  const ok =
    asked.expected === "head-defect"
      ? answer.status === 500 && answer.headers["content-type"] === "application/problem+json"
      : answer.status === asked.expected && words === "";
  if (ok) return { answer };
  const expected = asked.expected === "head-defect" ? "Prism's HEAD failure" : asked.expected;
  return { answer, mismatch: `${line(asked)}: ${answer.status} (expected ${expected}) ${words}` };
}

/**
 * Prism's logged violations (warnings too, which --errors lets through), each with the request it
 * was logged for. Prism logs each request's line before it answers the next; so once the line of a
 * last request is in its output, every earlier line is.
 */
async function loggedViolations(): Promise<string[]> {
  const marker = `/std/v2.2/branches?prism-log-mark=${Date.now()}`;
  await request(new URL(marker, prism.base), { headers: fresh() });
  await prism.waitFor(marker);
  const found: string[] = [];
  let current = "(before any request)";
  for (const text of prism.output().split("\n")) {
    const received = /\[HTTP SERVER\] (\w+) (\S+) .*Request received/.exec(text);
    if (received) current = `${received[1]!.toUpperCase()} ${received[2]}`;
    else if (/Violation:/.test(text))
      found.push(`${current}: ${text.replace(/^.*?Violation:/, "")}`);
    // A HEAD's error body never reaches the client: its log line is all there is to read.
    else if (
      current.startsWith("HEAD ") &&
      /Request terminated with error/.test(text) &&
      !PRISM_HEAD_DEFECT.test(text)
    )
      found.push(`${current}: ${text.replace(/^.*?Request terminated with error:/, "")}`);
  }
  return found;
}

/**
 * The requests a consumer makes of one path through Prism, with each coding: a GET, then GET
 * and HEAD conditional on the validators that answer gave (each a 304), and a plain HEAD, whose
 * header fields must be the GET's. Returns a line for each answer that was not as expected.
 */
async function matrix(path: string): Promise<{ asked: number; mismatches: string[] }> {
  const mismatches: string[] = [];
  let asked = 0;
  const through = async (request: Asked) => {
    asked++;
    const result = await ask(request);
    if (result.mismatch) mismatches.push(result.mismatch);
    return result.answer;
  };
  for (const coding of CODINGS) {
    const ok = await through({ method: "GET", path, headers: coding, expected: 200 });
    const etag = ok.headers["etag"];
    const lastModified = ok.headers["last-modified"];
    if (ok.status !== 200 || !etag || !lastModified) {
      mismatches.push(`GET ${path}: no validators to ask conditionally with`);
      continue;
    }
    const json = /[/+]json\b/.test(ok.headers["content-type"] ?? "");
    for (const method of ["GET", "HEAD"] as const) {
      for (const condition of CONDITIONS(etag, lastModified)) {
        await through({ method, path, headers: { ...coding, ...condition }, expected: 304 });
      }
    }
    await through({
      method: "HEAD",
      path,
      headers: coding,
      expected: json ? "head-defect" : 200,
    });
    // The HEAD Prism could not read, from the Worker directly: the GET's fields, no content.
    const direct = { headers: fresh(coding) };
    const [get, head] = [
      await request(new URL(path, worker.base), direct),
      await request(new URL(path, worker.base), { ...direct, method: "HEAD" }),
    ];
    const fields = (r: RawResponse) => {
      const { ratelimit: _r, ...rest } = stableHeaders(r.headers);
      return rest;
    };
    if (
      head.status !== 200 ||
      head.body.length > 0 ||
      !isDeepStrictEqual(fields(head), fields(get))
    )
      mismatches.push(`HEAD ${path} (${JSON.stringify(coding)}), directly: not the GET's fields`);
  }
  return { asked, mismatches };
}

/** The matrix over `paths`, every mismatch and logged violation in one list. */
async function throughPrism(paths: readonly string[]): Promise<{ asked: number; found: string[] }> {
  let asked = 0;
  const found: string[] = [];
  for (const path of paths) {
    const result = await matrix(path);
    asked += result.asked;
    found.push(...result.mismatches);
  }
  found.push(...(await loggedViolations()));
  return { asked, found };
}

describe("Stoplight Prism's validating proxy in front of the Worker", () => {
  it("passes every data set's 200, its 304s to If-None-Match and If-Modified-Since, and HEAD", async () => {
    const paths = worker.manifest.datasets.map((d) => d.path);
    expect(paths.toSorted()).toEqual(Object.values(SPEC_PATHS).toSorted());
    const { asked, found } = await throughPrism(paths);
    expect(asked).toBe(paths.length * CODINGS.length * 6);
    expect(found).toEqual([]);
  });

  it("passes every document /openapi.json describes, 200, 304s and HEAD", async () => {
    const paths = (worker.manifest.documents ?? [])
      .map((d) => d.path)
      .filter((p) => described.has(p));
    expect(paths).toEqual(["/participant_store.json", "/x-std/changes.atom"]);
    const { found } = await throughPrism(paths);
    expect(found).toEqual([]);
  });

  it("passes a changes answer of every data set, 200, 304s and HEAD", async () => {
    const changes = worker.manifest.changes ?? [];
    expect(changes).toHaveLength(Object.keys(SPEC_PATHS).length);
    const paths = changes.map((c) => `${c.path}?since=${encodeURIComponent(c.answers[0]!.since)}`);
    const { found } = await throughPrism(paths);
    expect(found).toEqual([]);
  });

  it("passes the Worker's 400, 404 and 410 error bodies", async () => {
    const errors: Asked[] = [
      { method: "GET", path: "/x-std/v2.2/atms/country/ZZ", headers: {}, expected: 400 },
      { method: "GET", path: "/x-std/v2.2/branches/postcode/ZZ999ZZ", headers: {}, expected: 404 },
      {
        method: "GET",
        path: "/x-std/v2.2/branches/changes?since=2000-01-01T00%3A00%3A00Z",
        headers: {},
        expected: 410,
      },
    ];
    const found: string[] = [];
    for (const asked of errors) {
      const direct = await request(new URL(asked.path, worker.base), { headers: fresh() });
      expect(direct.status, asked.path).toBe(asked.expected);
      const { mismatch } = await ask(asked);
      if (mismatch) found.push(mismatch);
    }
    found.push(...(await loggedViolations()));
    expect(found).toEqual([]);
  });

  it("passes the Worker's 429 once a client has spent its quota", async () => {
    const path = "/std/v2.2/branches";
    const status = await withinOneWindow(async () => {
      // One new client spends its quota directly (145 a minute, wrangler.toml), then asks once
      // more through Prism.
      const client = fresh();
      for (let i = 0; i < 1000; i++) {
        const answer = await request(new URL(path, worker.base), { headers: client });
        if (answer.status === 429) break;
      }
      const answer = await request(new URL(path, prism.base), { headers: client });
      return `${answer.status} ${prismWords(answer)}`.trim();
    });
    expect(status).toBe("429");
    expect(await loggedViolations()).toEqual([]);
  });

  it("is really looking: a field the document requires and the Worker does not send is Prism's 500, named", async () => {
    const answer = await request(new URL("/std/v2.2/branches", strict.base), { headers: fresh() });
    expect(answer.status).toBe(500);
    expect(prismWords(answer)).toMatch(/x-never-sent/i);
  });
});
