import { SPEC_LIMIT_PER_MINUTE, SPEC_PATHS } from "../../helpers/spec-values.js";
/**
 * No client address at rest: what the rate limiter writes to KV (keys and values) and to the log
 * never contains a client's address, in any of the forms it could be written in.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "../../../worker/rate-limit/client-bucket.js";
import { importHmacKey, truncatedHmac } from "../../../worker/rate-limit/counter-key.js";
import { makeFixture, makeWorker, type Fixture, type TestWorker } from "../support/fixture.js";

const BRANCHES = SPEC_PATHS.branches;
const PCA_METRICS = SPEC_PATHS["service-metrics-pca"];
const LIMIT = SPEC_LIMIT_PER_MINUTE;

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});

async function send(worker: TestWorker, address: string, count: number, path = BRANCHES) {
  for (let i = 0; i < count; i++) {
    const response = await worker.fetch(path, { headers: { [CLIENT_ADDRESS_HEADER]: address } });
    await response.body?.cancel();
  }
  await worker.clock.advance(2_000);
}

/** Every string the Worker stored or asked KV about, and every log line. */
function everythingWritten(worker: TestWorker): string[] {
  return [
    ...worker.kv.writes.flatMap((w) => [w.key, w.value]),
    ...worker.kv.reads.map((r) => r.key),
    ...[...worker.kv.data].flat(),
    ...worker.logs,
  ];
}

function counterKeys(worker: TestWorker): Set<string> {
  return new Set(worker.kv.writes.filter((w) => w.key.startsWith("rl:")).map((w) => w.key));
}

/**
 * Clients as CF-Connecting-IP may carry them, and the fragments of each that must not appear
 * anywhere (compared without regard to case).
 */
const CLIENTS: ReadonlyArray<{ address: string; forbidden: string[] }> = [
  { address: "198.51.100.7", forbidden: ["198.51.100.7", "c6336407"] },
  { address: "::ffff:203.0.113.9", forbidden: ["203.0.113.9", "ffff:cb00", "cb007109"] },
  {
    address: "2001:db8:aa:bb::1",
    forbidden: ["2001:db8:aa:bb", "2001:0db8:00aa:00bb", "20010db800aa00bb"],
  },
  {
    address: "2001:0DB8:0000:00CC:0000:0000:0000:0042",
    forbidden: ["2001:db8:0:cc", "2001:db8::cc", "2001:0db8:0000:00cc", "20010db8000000cc"],
  },
  {
    address: "2001:db8:0:dd:1:2:3:4",
    forbidden: ["2001:db8:0:dd", "2001:db8::dd", "2001:0db8:0000:00dd", "1:2:3:4"],
  },
];

describe("no client address in KV or in the log", () => {
  it("stores only hashes for IPv4, IPv4-mapped and IPv6 clients in any textual form, on both plans", async () => {
    const worker = makeWorker(fixture);
    for (const { address } of CLIENTS) {
      // Past the limit, so every client's counter is shared several times.
      await send(worker, address, LIMIT + 10);
      await send(worker, address, LIMIT + 10, PCA_METRICS);
    }
    const written = everythingWritten(worker);
    expect(counterKeys(worker).size).toBe(2 * CLIENTS.length);
    for (const text of written) {
      for (const { forbidden } of CLIENTS) {
        for (const fragment of forbidden) expect(text.toLowerCase()).not.toContain(fragment);
      }
    }
    for (const key of counterKeys(worker)) {
      expect(key).toMatch(/^rl:(open-data|service-metrics):\d+:[0-9a-f]{32}$/);
    }
  });

  it("writes no address to the log when KV fails while those clients are counted", async () => {
    const worker = makeWorker(fixture);
    worker.kv.failure = "throw";
    for (const { address } of CLIENTS) await send(worker, address, LIMIT);
    expect(worker.logs.map((line) => (JSON.parse(line) as { event: unknown }).event)).toContain(
      "rate-limit-counter-not-shared",
    );
    for (const line of worker.logs) {
      for (const { forbidden } of CLIENTS) {
        for (const fragment of forbidden) expect(line.toLowerCase()).not.toContain(fragment);
      }
    }
  });
});

describe("one counter per IPv4 address or IPv6 /64", () => {
  it("gives two addresses in one /64, written differently, one key", async () => {
    const worker = makeWorker(fixture);
    await send(worker, "2001:db8:5:6::1", LIMIT / 2);
    await send(worker, "2001:0db8:0005:0006:ffff:eeee:dddd:cccc", LIMIT / 2);
    expect(counterKeys(worker).size).toBe(1);
  });

  it("gives two neighbouring /64s two keys", async () => {
    const worker = makeWorker(fixture);
    await send(worker, "2001:db8:5:6::1", LIMIT);
    await send(worker, "2001:db8:5:7::1", LIMIT);
    expect(counterKeys(worker).size).toBe(2);
  });

  it("gives an IPv4 address and its IPv4-mapped IPv6 form one key", async () => {
    const worker = makeWorker(fixture);
    await send(worker, "192.0.2.44", LIMIT / 2);
    await send(worker, "::ffff:192.0.2.44", LIMIT / 2);
    expect(counterKeys(worker).size).toBe(1);
  });

  it("names one client by different keys in different windows, so windows cannot be linked", async () => {
    const worker = makeWorker(fixture);
    await send(worker, "198.51.100.20", LIMIT);
    await worker.clock.advance(60_000);
    await send(worker, "198.51.100.20", LIMIT);
    const hashes = [...counterKeys(worker)].map((k) => k.split(":")[3]);
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).not.toBe(hashes[1]);
  });
});

describe("hashing happens when a counter is shared, not per request", () => {
  it("computes no HMAC while no counter is shared", async () => {
    const worker = makeWorker(fixture);
    for (let c = 0; c < 50; c++) await send(worker, `203.0.113.${c}`, 5);
    expect(worker.kv.writes).toEqual([]);
    expect(worker.crypto).toEqual({ importKey: 0, sign: 0 });
  });

  it("imports the key once per isolate and hashes each counter once, however often it is shared", async () => {
    const worker = makeWorker(fixture);
    // One client, 6 requests every 2 s for 40 s, all in one window: several shares of one counter.
    for (let s = 0; s < 20; s++) await send(worker, "198.51.100.30", 6);
    const shares = worker.kv.writes.filter((w) => w.key.startsWith("rl:")).length;
    expect(shares).toBeGreaterThan(2);
    expect(worker.crypto).toEqual({ importKey: 1, sign: 1 });
    await send(worker, "198.51.100.31", LIMIT);
    expect(worker.crypto).toEqual({ importKey: 1, sign: 2 });
  });
});

describe("without the RATE_LIMIT_KEY secret", () => {
  it("logs once, as one JSON line, that it runs without the secret", async () => {
    const worker = makeWorker(fixture, { rateLimitKey: null });
    await send(worker, "198.51.100.40", LIMIT);
    await worker.clock.advance(5 * 60_000);
    await send(worker, "198.51.100.40", LIMIT);
    const missing = worker.logs
      .map((line) => JSON.parse(line) as { event: string; cause: string })
      .filter((entry) => entry.event === "rate-limit-key-missing");
    expect(missing).toHaveLength(1);
    expect(missing[0]!.cause).toContain("wrangler secret put RATE_LIMIT_KEY");
  });

  it("still stores no address, under a key of its own that another isolate does not share", async () => {
    const a = makeWorker(fixture, { rateLimitKey: null });
    const b = makeWorker(fixture, { rateLimitKey: null, sameKvAs: a });
    await send(a, "198.51.100.50", LIMIT);
    await send(b, "198.51.100.50", LIMIT);
    const keys = counterKeys(a);
    expect(keys.size).toBe(2);
    for (const text of everythingWritten(a)) expect(text).not.toContain("198.51.100.50");
  });

  it("shares one key between isolates that have the same secret", async () => {
    const a = makeWorker(fixture);
    const b = makeWorker(fixture, { sameKvAs: a });
    await send(a, "198.51.100.60", LIMIT / 2);
    await send(b, "198.51.100.60", LIMIT / 2);
    expect(counterKeys(a).size).toBe(1);
  });
});

describe("the keyed hash", () => {
  // RFC 4231, HMAC-SHA-256 test vectors: test case 2, and test case 5 (truncated to 128 bits).
  it.each([
    {
      name: "RFC 4231 test case 2",
      key: new TextEncoder().encode("Jefe"),
      data: "what do ya want for nothing?",
      bytes: 32,
      mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    },
    {
      name: "RFC 4231 test case 5, truncated to 128 bits",
      key: new Uint8Array(20).fill(0x0c),
      data: "Test With Truncation",
      bytes: 16,
      mac: "a3b6167473100ee06e0c796c2955552b",
    },
  ])("matches $name", async ({ key, data, bytes, mac }) => {
    expect(await truncatedHmac(await importHmacKey(key), data, bytes)).toBe(mac);
  });
});
