import { beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "../../../worker/rate-limit/client-bucket.js";
import {
  DECIDED,
  SPEC_LIMIT_PER_MINUTE,
  SPEC_LIMIT_WINDOW_SECONDS,
  SPEC_PATHS,
} from "../../helpers/spec-values.js";
import { expectError } from "../support/assertions.js";
import {
  makeFixture,
  makeWorker,
  START_MS,
  type Fixture,
  TEST_RATE_LIMIT_KEY,
  type TestWorker,
} from "../support/fixture.js";

// The default limit of both plans: the spec's Default Plan, which the open data plan copies.
const LIMITS = { "open-data": SPEC_LIMIT_PER_MINUTE, "service-metrics": SPEC_LIMIT_PER_MINUTE };
const WINDOW_MS = SPEC_LIMIT_WINDOW_SECONDS * 1000;
const BRANCHES = SPEC_PATHS.branches;
const ATMS = SPEC_PATHS.atms;
const PCA_METRICS = SPEC_PATHS["service-metrics-pca"];
const BCA_METRICS = SPEC_PATHS["service-metrics-bca"];

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});

function from(address: string | null, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  if (address !== null) headers.set(CLIENT_ADDRESS_HEADER, address);
  return { ...init, headers };
}

/** Sends `count` requests and returns their statuses. */
async function statuses(
  worker: TestWorker,
  count: number,
  path: string,
  init: RequestInit,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await worker.fetch(path, init);
    await response.body?.cancel();
    out.push(response.status);
  }
  return out;
}

const okThenRefused = (ok: number, refused: number) => [
  ...Array<number>(ok).fill(200),
  ...Array<number>(refused).fill(429),
];

describe("limits per client", () => {
  it("gives one client exactly the plan's limit in a window, then 429 with the spec body", async () => {
    const worker = makeWorker(fixture);
    const limit = LIMITS["service-metrics"];
    expect(await statuses(worker, limit + 5, PCA_METRICS, from("203.0.113.1"))).toEqual(
      okThenRefused(limit, 5),
    );
    await expectError(await worker.fetch(PCA_METRICS, from("203.0.113.1")), 429);
  });

  it("counts separate clients independently", async () => {
    const worker = makeWorker(fixture);
    const limit = LIMITS["open-data"];
    await statuses(worker, limit, BRANCHES, from("203.0.113.1"));
    expect((await worker.fetch(BRANCHES, from("203.0.113.1"))).status).toBe(429);
    expect((await worker.fetch(BRANCHES, from("203.0.113.2"))).status).toBe(200);
  });

  it("makes two addresses in one IPv6 /64 share a quota", async () => {
    const worker = makeWorker(fixture);
    const limit = LIMITS["open-data"];
    await statuses(worker, limit, BRANCHES, from("2001:db8:1:2::1"));
    expect((await worker.fetch(BRANCHES, from("2001:db8:1:2:ffff::9"))).status).toBe(429);
    expect((await worker.fetch(BRANCHES, from("2001:db8:1:3::1"))).status).toBe(200);
  });

  it("serves requests without a usable address, counting them in one shared bucket", async () => {
    const worker = makeWorker(fixture);
    const limit = LIMITS["open-data"];
    const half = Math.floor(limit / 2);
    expect(await statuses(worker, half, BRANCHES, from(null))).toEqual(okThenRefused(half, 0));
    expect(await statuses(worker, limit - half + 1, BRANCHES, from("not an address"))).toEqual(
      okThenRefused(limit - half, 1),
    );
  });

  it("never reads X-Forwarded-For", async () => {
    const worker = makeWorker(fixture);
    const limit = LIMITS["open-data"];
    await statuses(worker, limit, BRANCHES, from("203.0.113.1"));
    const spoofed = from("203.0.113.1", { headers: { "X-Forwarded-For": "198.51.100.1" } });
    expect((await worker.fetch(BRANCHES, spoofed)).status).toBe(429);
  });
});

describe("plans", () => {
  it("counts both service metrics paths under one plan", async () => {
    const worker = makeWorker(fixture);
    const limit = LIMITS["service-metrics"];
    await statuses(worker, limit - 1, PCA_METRICS, from("203.0.113.1"));
    expect(await statuses(worker, 2, BCA_METRICS, from("203.0.113.1"))).toEqual([200, 429]);
  });

  it("keeps the open data plan's counter apart from the service metrics plan's", async () => {
    const worker = makeWorker(fixture);
    await statuses(worker, LIMITS["service-metrics"], PCA_METRICS, from("203.0.113.1"));
    expect((await worker.fetch(PCA_METRICS, from("203.0.113.1"))).status).toBe(429);
    expect((await worker.fetch(ATMS, from("203.0.113.1"))).status).toBe(200);
  });

  it("takes each plan's limit from configuration", async () => {
    const worker = makeWorker(fixture, {
      vars: { OPEN_DATA_LIMIT_PER_MINUTE: "3", SERVICE_METRICS_LIMIT_PER_MINUTE: "2" },
    });
    expect(await statuses(worker, 4, ATMS, from("203.0.113.1"))).toEqual(okThenRefused(3, 1));
    expect(await statuses(worker, 3, PCA_METRICS, from("203.0.113.1"))).toEqual(
      okThenRefused(2, 1),
    );
  });
});

describe("what counts", () => {
  it("counts HEAD requests, and not 304 responses", async () => {
    const worker = makeWorker(fixture, { vars: { OPEN_DATA_LIMIT_PER_MINUTE: "3" } });
    const entry = fixture.manifest.datasets.find((d) => d.path === BRANCHES)!;
    const client = "203.0.113.1";
    expect((await worker.fetch(BRANCHES, from(client, { method: "HEAD" }))).status).toBe(200);
    const conditional = from(client, {
      headers: { "If-None-Match": entry.variants.identity.etag },
    });
    expect(await statuses(worker, 5, BRANCHES, conditional)).toEqual([304, 304, 304, 304, 304]);
    expect((await worker.fetch(BRANCHES, from(client))).status).toBe(200);
    expect((await worker.fetch(BRANCHES, from(client, { method: "HEAD" }))).status).toBe(200);
    // The quota spent by the 200s and the HEAD refuses even a request that would be 304.
    expect((await worker.fetch(BRANCHES, conditional)).status).toBe(429);
  });

  it.each<[string, Record<string, string>, number, string]>([
    ["a 200", {}, 200, "r=144"],
    ["a 304 to If-None-Match", { "If-None-Match": "TAG" }, 304, "r=145"],
    ["a 304 to If-Modified-Since", { "If-Modified-Since": "LAST" }, 304, "r=145"],
    ["a 412 to If-Match of another tag", { "If-Match": '"other"' }, 412, "r=144"],
  ])(
    "leaves the RateLimit remaining as it was after %s only if it was a 304",
    async (_name, conditions, status, remaining) => {
      const worker = makeWorker(fixture);
      const entry = fixture.manifest.datasets.find((d) => d.path === BRANCHES)!;
      const headers = Object.fromEntries(
        Object.entries(conditions).map(([name, value]) => [
          name,
          value === "TAG"
            ? entry.variants.identity.etag
            : value === "LAST"
              ? entry.lastModified
              : value,
        ]),
      );
      const response = await worker.fetch(BRANCHES, from("203.0.113.9", { headers }));
      expect(response.status).toBe(status);
      expect(response.headers.get(DECIDED.rateLimitHeader)).toMatch(
        new RegExp(`^"open-data";${remaining};t=`),
      );
    },
  );

  it("does not count preflights or 405s", async () => {
    const worker = makeWorker(fixture, { vars: { OPEN_DATA_LIMIT_PER_MINUTE: "1" } });
    const client = "203.0.113.1";
    const preflight = from(client, {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
    });
    expect(await statuses(worker, 3, BRANCHES, preflight)).toEqual([204, 204, 204]);
    expect(await statuses(worker, 3, BRANCHES, from(client, { method: "POST" }))).toEqual([
      405, 405, 405,
    ]);
    expect((await worker.fetch(BRANCHES, from(client))).status).toBe(200);
  });
});

describe("windows", () => {
  it("starts a new count when a new window starts", async () => {
    const worker = makeWorker(fixture);
    const limit = LIMITS["open-data"];
    await statuses(worker, limit, BRANCHES, from("203.0.113.1"));
    expect((await worker.fetch(BRANCHES, from("203.0.113.1"))).status).toBe(429);
    await worker.clock.advanceTo((Math.floor(START_MS / WINDOW_MS) + 1) * WINDOW_MS);
    expect(await statuses(worker, limit + 1, BRANCHES, from("203.0.113.1"))).toEqual(
      okThenRefused(limit, 1),
    );
  });
});

describe("quota fields", () => {
  const secondsToWindowEnd = (worker: TestWorker) =>
    Math.ceil(
      ((Math.floor(worker.clock.now() / WINDOW_MS) + 1) * WINDOW_MS - worker.clock.now()) / 1000,
    );

  it("tells the client its policy, what remains and when the window resets", async () => {
    const worker = makeWorker(fixture);
    const limit = LIMITS["service-metrics"];
    const first = await worker.fetch(PCA_METRICS, from("203.0.113.1"));
    expect(first.headers.get(DECIDED.rateLimitPolicyHeader)).toBe(
      `"service-metrics";q=${limit};w=${SPEC_LIMIT_WINDOW_SECONDS}`,
    );
    expect(first.headers.get(DECIDED.rateLimitHeader)).toBe(
      `"service-metrics";r=${limit - 1};t=${secondsToWindowEnd(worker)}`,
    );
    await worker.clock.advance(20_500);
    const second = await worker.fetch(PCA_METRICS, from("203.0.113.1"));
    expect(second.headers.get(DECIDED.rateLimitHeader)).toBe(
      `"service-metrics";r=${limit - 2};t=${secondsToWindowEnd(worker)}`,
    );
    const open = await worker.fetch(ATMS, from("203.0.113.1"));
    expect(open.headers.get(DECIDED.rateLimitPolicyHeader)).toBe(
      `"open-data";q=${LIMITS["open-data"]};w=${SPEC_LIMIT_WINDOW_SECONDS}`,
    );
  });

  it("sends Retry-After with the whole seconds until the window ends, and r=0, on a 429", async () => {
    const worker = makeWorker(fixture);
    await statuses(worker, LIMITS["open-data"], ATMS, from("203.0.113.1"));
    await worker.clock.advance(1_300);
    const refused = await worker.fetch(ATMS, from("203.0.113.1"));
    expect(refused.status).toBe(429);
    const seconds = secondsToWindowEnd(worker);
    expect(refused.headers.get("Retry-After")).toBe(String(seconds));
    expect(refused.headers.get(DECIDED.rateLimitHeader)).toBe(`"open-data";r=0;t=${seconds}`);
    // After Retry-After seconds the client is served again.
    await worker.clock.advance(seconds * 1000);
    expect((await worker.fetch(ATMS, from("203.0.113.1"))).status).toBe(200);
  });
});

describe("sharing counts through KV", () => {
  const counterWrites = (worker: TestWorker) =>
    worker.kv.writes.filter((w) => w.key.startsWith(DECIDED.counterKeyPrefix));

  // The first share is due when an isolate holds back a quarter of a fresh quota.
  const firstShare = Math.ceil(LIMITS["open-data"] * DECIDED.shareFraction);

  it("costs no KV operation while a client stays far below its limit", async () => {
    const worker = makeWorker(fixture);
    await statuses(worker, firstShare - 1, BRANCHES, from("203.0.113.1"));
    await worker.clock.advance(5_000);
    expect(counterWrites(worker)).toEqual([]);
    expect(worker.kv.reads.filter((r) => r.key.startsWith(DECIDED.counterKeyPrefix))).toEqual([]);
  });

  it("costs no KV operation for 304s, however many: they are not counted, so never shared", async () => {
    const worker = makeWorker(fixture);
    const entry = fixture.manifest.datasets.find((d) => d.path === BRANCHES)!;
    const conditional = from("203.0.113.1", {
      headers: { "If-None-Match": entry.variants.identity.etag },
    });
    const answers = await statuses(worker, LIMITS["open-data"] * 2, BRANCHES, conditional);
    expect(answers.every((status) => status === 304)).toBe(true);
    await worker.clock.advance(5_000);
    expect(counterWrites(worker)).toEqual([]);
    expect(worker.kv.reads.filter((r) => r.key.startsWith(DECIDED.counterKeyPrefix))).toEqual([]);
  });

  it("shares the count in the background, under a window key that expires, once it holds back a quarter of what is left", async () => {
    const worker = makeWorker(fixture);
    await statuses(worker, firstShare, BRANCHES, from("203.0.113.1"));
    await worker.clock.advance(0);
    const window = Math.floor(START_MS / WINDOW_MS);
    // The client is named by HMAC-SHA-256 of "<plan>:<window>:<bucket>" under the secret,
    // truncated to 128 bits (computed here with Web Crypto directly).
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(TEST_RATE_LIMIT_KEY),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = new Uint8Array(
      await crypto.subtle.sign(
        "HMAC",
        key,
        new TextEncoder().encode(`open-data:${window}:203.0.113.1`),
      ),
    );
    const hex = [...mac.subarray(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(counterWrites(worker)).toEqual([
      {
        key: `rl:open-data:${window}:${hex}`,
        value: String(firstShare),
        at: START_MS,
        expirationTtl: DECIDED.counterTtlSeconds,
      },
    ]);
    expect(worker.background.promises.length).toBeGreaterThan(0);
  });

  it("writes each counter at most once a second under a burst", async () => {
    const worker = makeWorker(fixture);
    // 20 seconds of bursts from 5 clients, 7 requests each every 100 ms.
    for (let tick = 0; tick < 200; tick++) {
      for (let c = 0; c < 5; c++) await statuses(worker, 7, BRANCHES, from(`203.0.113.${c}`));
      await worker.clock.advance(100);
    }
    await worker.clock.advance(5_000);
    const byKey = new Map<string, number[]>();
    for (const w of counterWrites(worker)) byKey.set(w.key, [...(byKey.get(w.key) ?? []), w.at]);
    expect(byKey.size).toBeGreaterThan(0);
    for (const times of byKey.values()) {
      for (let i = 1; i < times.length; i++)
        expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
    }
  });

  it("lets an isolate learn what another counted, so two admit at most the limit and a quarter", async () => {
    const a = makeWorker(fixture);
    const b = makeWorker(fixture, { sameKvAs: a });
    const limit = LIMITS["open-data"];
    const client = from("203.0.113.1");
    // Isolate A serves almost the whole quota and shares it.
    const servedByA = (await statuses(a, limit - 5, BRANCHES, client)).filter(
      (s) => s === 200,
    ).length;
    await a.clock.advance(2_000);
    // Isolate B knows nothing of it until B holds back a quarter of a fresh quota and shares.
    const servedByB = (await statuses(b, limit, BRANCHES, client)).filter((s) => s === 200).length;
    await b.clock.advance(2_000);
    const more = (await statuses(b, 10, BRANCHES, client)).filter((s) => s === 200).length;
    expect(servedByA).toBe(limit - 5);
    expect(more).toBe(0);
    expect(servedByA + servedByB).toBeLessThanOrEqual(limit + limit * DECIDED.shareFraction);
    expect(
      Number(
        a.kv.data.get([...a.kv.data.keys()].find((k) => k.startsWith(DECIDED.counterKeyPrefix))!),
      ),
    ).toBe(servedByA + servedByB);
  });
});

describe("failing KV", () => {
  it("serves with 200 when every KV call throws, and logs once a minute per isolate", async () => {
    const worker = makeWorker(fixture);
    worker.kv.failure = "throw";
    for (let second = 0; second < 90; second++) {
      expect(await statuses(worker, 1, BRANCHES, from(`203.0.113.${second % 3}`))).toEqual([200]);
      await worker.clock.advance(1_000);
    }
    // The maintenance flag's read fails every 30 s; its line is written once a minute.
    const kvLines = worker.logs.filter(
      (line) => (JSON.parse(line) as { event: string }).event === "maintenance-flag-not-read",
    );
    expect(kvLines.length).toBe(Math.ceil((90 * 1000) / DECIDED.logIntervalMs));
  });

  it("serves with 200 when KV never answers, waiting at most the KV timeout once per isolate", async () => {
    const worker = makeWorker(fixture);
    worker.kv.failure = "hang";
    const first = worker.fetch(BRANCHES, from("203.0.113.1"));
    await worker.clock.advance(DECIDED.kvTimeoutMs);
    expect((await first).status).toBe(200);
    // Later requests do not wait for KV at all: the clock is not moved while they run.
    expect(await statuses(worker, 30, BRANCHES, from("203.0.113.1"))).toEqual(okThenRefused(30, 0));
  });

  it("still limits in the isolate while KV fails", async () => {
    const worker = makeWorker(fixture);
    worker.kv.failure = "throw";
    const limit = LIMITS["open-data"];
    expect(await statuses(worker, limit + 1, BRANCHES, from("203.0.113.1"))).toEqual(
      okThenRefused(limit, 1),
    );
  });
});

/**
 * KV cost, measured on the stand-in store for the figures in docs/operations.md#what-is-stored. Counter operations only
 * (the maintenance flag adds one read per isolate per 30 s, counted separately).
 */
describe("KV reads and writes per 1,000 requests", () => {
  async function measure(run: (worker: TestWorker, other: TestWorker) => Promise<void>) {
    const worker = makeWorker(fixture);
    await run(worker, makeWorker(fixture, { sameKvAs: worker }));
    await worker.clock.advance(10_000);
    const counterOps = (ops: { key: string }[]) =>
      ops.filter((o) => o.key.startsWith(DECIDED.counterKeyPrefix)).length;
    return {
      reads: counterOps(worker.kv.reads),
      writes: counterOps(worker.kv.writes),
      flagReads: worker.kv.reads.length - counterOps(worker.kv.reads),
    };
  }

  const path = BRANCHES;

  it("one client in a burst of 1,000 in one second (145 served): 2 reads and 2 writes", async () => {
    const cost = await measure(async (w) => {
      for (let i = 0; i < 1000; i++) {
        await statuses(w, 1, path, from("203.0.113.1"));
        await w.clock.advance(1);
      }
    });
    expect(cost).toEqual({ reads: 2, writes: 2, flagReads: 1 });
  });

  it("one client at 2 requests a second for 500 s (all served), one isolate: 40 reads and 40 writes", async () => {
    const cost = await measure(async (w) => {
      for (let i = 0; i < 1000; i++) {
        await statuses(w, 1, path, from("203.0.113.1"));
        await w.clock.advance(500);
      }
    });
    expect(cost).toEqual({ reads: 40, writes: 40, flagReads: 17 });
  });

  it("the same client spread evenly over two isolates: 23 reads and 23 writes", async () => {
    const cost = await measure(async (a, b) => {
      for (let i = 0; i < 1000; i++) {
        await statuses(i % 2 ? a : b, 1, path, from("203.0.113.1"));
        await a.clock.advance(500);
      }
    });
    expect(cost).toEqual({ reads: 23, writes: 23, flagReads: 34 });
  });

  it("1,000 clients with one request each: no KV operations", async () => {
    const cost = await measure(async (w) => {
      for (let i = 0; i < 1000; i++) {
        await statuses(w, 1, path, from(`10.0.${i >> 8}.${i & 255}`));
        await w.clock.advance(10);
      }
    });
    expect(cost).toEqual({ reads: 0, writes: 0, flagReads: 1 });
  });

  it("100 clients with 10 requests each in one minute: no KV operations", async () => {
    const cost = await measure(async (w) => {
      for (let round = 0; round < 10; round++) {
        for (let c = 0; c < 100; c++) await statuses(w, 1, path, from(`10.1.0.${c}`));
        await w.clock.advance(4_000);
      }
    });
    expect(cost).toEqual({ reads: 0, writes: 0, flagReads: 2 });
  });

  it("10 clients with 100 requests each in one minute: 4 reads and 4 writes per client", async () => {
    const cost = await measure(async (w) => {
      for (let round = 0; round < 100; round++) {
        for (let c = 0; c < 10; c++) await statuses(w, 1, path, from(`10.2.0.${c}`));
        await w.clock.advance(450);
      }
    });
    expect(cost).toEqual({ reads: 40, writes: 40, flagReads: 2 });
  });
});
