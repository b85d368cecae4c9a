/** Log lines: one JSON object each, with the event, data set, status and cause, throttled. */
import { SPEC_PATHS } from "../helpers/spec-values.js";
import { beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "../../worker/rate-limit/client-bucket.js";
import { logLine } from "../../worker/log.js";
import { makeFixture, makeWorker, type Fixture } from "./support/fixture.js";

const BRANCHES = SPEC_PATHS.branches;

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});

const FIELDS = ["cause", "dataset", "event", "status"];

function parsed(lines: readonly string[]): Record<string, unknown>[] {
  return lines.map((line) => {
    expect(line).not.toContain("\n");
    const entry = JSON.parse(line) as Record<string, unknown>;
    expect(Object.keys(entry).sort()).toEqual(FIELDS);
    return entry;
  });
}

describe("log lines", () => {
  it.each([
    {
      failure: "throw" as const,
      entry: { event: "assets-unavailable", dataset: "branches", status: 503 },
      cause: "Error: assets binding unavailable",
    },
    {
      failure: "missing" as const,
      entry: { event: "asset-mismatch", dataset: "branches", status: 500 },
      cause: "assets answered 404",
    },
  ])(
    "reports an assets failure ($failure) as one JSON object naming event, data set, status and cause",
    async ({ failure, entry, cause }) => {
      const worker = makeWorker(fixture);
      worker.assets.failure = failure;
      await worker.fetch(BRANCHES, { headers: { [CLIENT_ADDRESS_HEADER]: "198.51.100.70" } });
      const [line] = parsed(worker.logs);
      expect(line).toMatchObject(entry);
      expect(String(line!.cause)).toContain(cause);
      expect(worker.logs.join("\n")).not.toContain("198.51.100.70");
    },
  );

  it("writes each event at most once a minute per isolate, and null for the fields it lacks", async () => {
    const worker = makeWorker(fixture);
    worker.kv.failure = "throw";
    worker.assets.failure = "throw";
    for (let second = 0; second < 150; second++) {
      await worker.fetch(BRANCHES);
      await worker.clock.advance(1_000);
    }
    const entries = parsed(worker.logs);
    const count = (event: string) => entries.filter((e) => e.event === event).length;
    // 150 s from 10 s into a minute: written at 0 s, 60 s and 120 s.
    expect(count("assets-unavailable")).toBe(3);
    expect(count("maintenance-flag-not-read")).toBe(3);
    expect(entries.find((e) => e.event === "maintenance-flag-not-read")).toMatchObject({
      dataset: null,
      status: null,
    });
  });
});

describe("the cause of a log line", () => {
  it.each([
    { thrown: new TypeError("bad\n  value"), cause: "TypeError: bad value" },
    { thrown: "disk\nfull", cause: "disk full" },
    { thrown: 42, cause: "42" },
    { thrown: { code: 7, reason: "quota" }, cause: '{"code":7,"reason":"quota"}' },
  ])("names what was thrown on one line: $cause", ({ thrown, cause }) => {
    const line = JSON.parse(logLine({ event: "unexpected-error" }, thrown)) as { cause: unknown };
    expect(line.cause).toBe(cause);
  });

  it("puts the event's own cause before what was thrown", () => {
    const line = JSON.parse(
      logLine({ event: "asset-mismatch", cause: "assets answered 404" }, new Error("gone")),
    ) as { cause: unknown };
    expect(line.cause).toBe("assets answered 404: Error: gone");
  });
});
