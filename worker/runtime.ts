/**
 * What the Worker needs from its platform besides the request: a clock, a key-value store and a
 * log. Passed in, so tests drive time and failures (KV simulators ignore fake timers).
 */
import { logLine, type LogEntry } from "./log.js";

/** A KV call that has not answered after this long counts as failed (fail open). */
const KV_TIMEOUT_MS = 1_000;

/** At most one log line per topic per isolate in this period. */
const LOG_INTERVAL_MS = 60_000;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The part of a KV namespace the Worker uses. */
export interface KvStore {
  get(key: string, options?: { cacheTtl?: number }): Promise<string | null>;
  put(key: string, value: string, options: { expirationTtl: number }): Promise<void>;
}

/** Reports an event (log.ts), with the error that caused it if any; callers may be throttled. */
export type Log = (entry: LogEntry, error?: unknown) => void;

/** The static-assets binding, or a stand-in for it. */
export interface AssetFetcher {
  fetch(request: Request): Promise<Response>;
}

/** The platform services one request can use. */
export interface Platform {
  readonly store: KvStore;
  readonly clock: Clock;
  /** Work that may finish after the response (ctx.waitUntil). */
  readonly waitUntil: (promise: Promise<unknown>) => void;
  readonly log: Log;
}

/** The platform's clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Raised by withTimeout. */
class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "TimeoutError";
  }
}

/** `promise`, or a TimeoutError once `ms` have passed on `clock` without an answer. */
export function withTimeout<T>(promise: Promise<T>, clock: Clock, ms = KV_TIMEOUT_MS): Promise<T> {
  const timeout = clock.sleep(ms).then(() => Promise.reject(new TimeoutError(ms)));
  return Promise.race([promise, timeout]);
}

/**
 * A Log that writes each event at most once per `intervalMs`, so a failing dependency costs one
 * line a minute per isolate rather than one per request. Each line is one JSON object (log.ts).
 */
export function throttledLog(
  clock: Clock,
  write: (line: string) => void = console.error,
  intervalMs = LOG_INTERVAL_MS,
): Log {
  const lastWritten = new Map<string, number>();
  return (entry, error) => {
    const now = clock.now();
    if (now - (lastWritten.get(entry.event) ?? -Infinity) < intervalMs) return;
    lastWritten.set(entry.event, now);
    write(logLine(entry, error));
  };
}
