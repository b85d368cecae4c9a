/**
 * Load from a separate process: autocannon's command line in a child, so the load generator never
 * shares an event loop with the servers' harness (unstable_startWorker's proxy holds requests while
 * Node's event loop is busy). Loopback only, and bounded three ways: autocannon's duration, its cap
 * on requests, and a kill if the child outlives both.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";

const run = promisify(execFile);
const AUTOCANNON = createRequire(import.meta.url).resolve("autocannon");
/** What a child may take beyond its duration to connect, finish and report before it is killed. */
const GRACE_MS = 20_000;
const LOOPBACK = "127.0.0.1";

/** A server under load, on loopback. */
export interface Server {
  readonly url: URL;
  stop(): Promise<void>;
}

export interface LoadSpec {
  readonly url: URL;
  readonly headers?: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly seconds: number;
  /** A safety cap: the rate is only right if the run ends by its duration, not by this. */
  readonly maxRequests: number;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly errors: number;
  /** Bytes received per response, header fields included. */
  readonly bytesPerResponse: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

interface AutocannonJson {
  duration: number;
  errors: number;
  requests: { total: number };
  latency: { p50: number; p99: number };
  throughput: { total: number };
  statusCodeStats?: Record<string, { count: number }>;
}

/** Runs one load test and returns what it measured. */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  if (spec.url.hostname !== LOOPBACK) throw new Error(`load tests target ${LOOPBACK} only`);
  const args = [AUTOCANNON, "--json", "--no-progress"];
  args.push("--connections", String(spec.connections));
  args.push("--duration", String(spec.seconds));
  args.push("--maxOverallRequests", String(spec.maxRequests));
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    args.push("--headers", `${name}=${value}`);
  }
  args.push(spec.url.href);
  const { stdout } = await run(process.execPath, args, {
    timeout: spec.seconds * 1000 + GRACE_MS,
    maxBuffer: 1 << 22,
  });
  const result = JSON.parse(stdout) as AutocannonJson;
  if (result.requests.total >= spec.maxRequests) {
    throw new Error(`${spec.url.href}: the cap of ${spec.maxRequests} requests was reached`);
  }
  return {
    requestsPerSecond: result.requests.total / result.duration,
    requests: result.requests.total,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, s]) => [status, s.count]),
    ),
    errors: result.errors,
    bytesPerResponse: result.throughput.total / Math.max(1, result.requests.total),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
