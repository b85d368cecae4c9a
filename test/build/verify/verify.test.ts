/**
 * Asking a deployment again while the edge takes up a new version: with a stand-in for fetch and
 * a clock that moves only when the command sleeps, so rounds, pauses and the bound are exact.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { PathCheck } from "../../../build/verify/checks.js";
import { checkPath, verifyDeployment, type VerifyOptions } from "../../../build/verify/verify.js";

const DATE = "Mon, 21 Sep 2026 14:13:20 GMT";
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

function check(path: string, body: string): PathCheck {
  const hex = sha(body);
  return {
    path,
    what: "data set x",
    dataset: path.slice(1),
    expected: { status: 200, etag: { exact: `"${hex}"` }, lastModified: DATE, sha256: hex },
  };
}

const NEW = { "/a": "new a", "/b": "new b" } as Record<string, string>;
const OLD = { "/a": "old a", "/b": "old b" } as Record<string, string>;
const CHECKS = [check("/a", NEW["/a"]!), check("/b", NEW["/b"]!)];

/** A deployment that serves `version(path, round)`'s body, with its tag, recording each request. */
function deployment(serve: (path: string, asked: number) => string | Response | Error) {
  const requests: { path: string; headers: Headers }[] = [];
  const fake = ((input: URL, init?: RequestInit) => {
    const path = input.pathname + input.search;
    const headers = new Headers(init?.headers);
    requests.push({ path, headers });
    const answer = serve(path, requests.filter((r) => r.path === path).length);
    // Settled as fetch settles: a failed request rejects, it does not throw.
    if (answer instanceof Error) return Promise.reject(answer);
    if (answer instanceof Response) return Promise.resolve(answer);
    return Promise.resolve(
      new Response(answer, { headers: { ETag: `"${sha(answer)}"`, "Last-Modified": DATE } }),
    );
  }) as typeof globalThis.fetch;
  return { fetch: fake, requests };
}

function clock() {
  let now = 0;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: (ms: number) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
    slept,
  };
}

function options(fetch: typeof globalThis.fetch, c: ReturnType<typeof clock>, wait = 60_000) {
  const progress: string[] = [];
  const opts: VerifyOptions = {
    base: new URL("http://127.0.0.1:8787"),
    checks: CHECKS,
    fetch,
    now: c.now,
    sleep: c.sleep,
    waitMs: wait,
    intervalMs: 10_000,
    timeoutMs: 5_000,
    progress: (line) => progress.push(line),
  };
  return { opts, progress };
}

describe("one request", () => {
  it("asks for identity and names itself", async () => {
    const { fetch, requests } = deployment((path) => NEW[path]!);
    const result = await checkPath(CHECKS[0]!, {
      base: new URL("http://x.test"),
      fetch,
      timeoutMs: 1000,
    });
    expect(result.kind).toBe("same");
    expect(requests[0]!.headers.get("Accept-Encoding")).toBe("identity");
    expect(requests[0]!.headers.get("User-Agent")).toBe("opendata-edge-verify");
  });

  it("calls a path it cannot fetch unreachable, with the cause", async () => {
    const refused = new TypeError("fetch failed", {
      cause: new Error("connect ECONNREFUSED 127.0.0.1:9"),
    });
    const { fetch } = deployment(() => refused);
    const result = await checkPath(CHECKS[0]!, {
      base: new URL("http://x.test"),
      fetch,
      timeoutMs: 1000,
    });
    expect(result).toMatchObject({
      kind: "unreachable",
      cause: "connect ECONNREFUSED 127.0.0.1:9",
    });
  });
});

describe("rounds until every path is the same or the wait is over", () => {
  it("is done after one round when every path is the same", async () => {
    const c = clock();
    const { fetch, requests } = deployment((path) => NEW[path]!);
    const { opts, progress } = options(fetch, c);
    const results = await verifyDeployment(opts);
    expect(results.map((r) => r.kind)).toEqual(["same", "same"]);
    expect(requests).toHaveLength(2);
    expect(c.slept).toEqual([]);
    expect(progress).toEqual([]);
  });

  it("asks again, only for what differed, until the edge serves the new version", async () => {
    const c = clock();
    // /b is still the old version for its first two answers.
    const { fetch, requests } = deployment((path, asked) =>
      path === "/b" && asked <= 2 ? OLD[path]! : NEW[path]!,
    );
    const { opts, progress } = options(fetch, c);
    const results = await verifyDeployment(opts);
    expect(results.map((r) => r.kind)).toEqual(["same", "same"]);
    expect(requests.map((r) => r.path)).toEqual(["/a", "/b", "/b", "/b"]);
    expect(c.slept).toEqual([10_000, 10_000]);
    expect(progress[0]).toBe(
      "verify: 1 of 2 paths not the same yet; asking again in 10 s (60 s left)",
    );
  });

  it("stops at the bound and reports what still differs", async () => {
    const c = clock();
    const { fetch, requests } = deployment((path) => OLD[path]!);
    const { opts } = options(fetch, c, 25_000);
    const results = await verifyDeployment(opts);
    expect(results.map((r) => r.kind)).toEqual(["different", "different"]);
    // Rounds at 0 s, 10 s, 20 s and a last one at the deadline, 25 s.
    expect(c.slept).toEqual([10_000, 10_000, 5_000]);
    expect(requests).toHaveLength(8);
    expect(c.now()).toBe(25_000);
  });

  it("asks once with no wait", async () => {
    const c = clock();
    const { fetch, requests } = deployment((path) => OLD[path]!);
    const { opts } = options(fetch, c, 0);
    expect((await verifyDeployment(opts)).map((r) => r.kind)).toEqual(["different", "different"]);
    expect(requests).toHaveLength(2);
    expect(c.slept).toEqual([]);
  });

  it("waits as long as a 429's Retry-After says before asking again", async () => {
    const c = clock();
    const limited = () => new Response("{}", { status: 429, headers: { "Retry-After": "30" } });
    const { fetch } = deployment((path, asked) => (asked === 1 ? limited() : NEW[path]!));
    const { opts } = options(fetch, c);
    const results = await verifyDeployment(opts);
    expect(results.map((r) => r.kind)).toEqual(["same", "same"]);
    expect(c.slept).toEqual([30_000]);
  });

  it("gives up when a 429's Retry-After reaches past the wait", async () => {
    const c = clock();
    const limited = () => new Response("{}", { status: 429, headers: { "Retry-After": "120" } });
    const { fetch } = deployment(() => limited());
    const { opts } = options(fetch, c);
    const results = await verifyDeployment(opts);
    expect(results[0]).toMatchObject({
      kind: "unreachable",
      cause: "answered 429: this client is over its rate limit",
    });
    expect(c.slept).toEqual([]);
  });
});
