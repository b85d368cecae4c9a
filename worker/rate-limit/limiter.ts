/**
 * Per-client rate limiting in fixed windows, counted in the isolate and shared through KV.
 *
 * The decision never waits for KV: each isolate counts in memory and decides at once. It shares a
 * client's count only when that could change a decision: once the requests it has counted and not
 * yet shared reach a fraction (SHARE_FRACTION) of the quota it believes is left. Sharing runs in
 * the background (ctx.waitUntil): read the window's counter from KV, which also tells this isolate
 * what other isolates counted, add what it holds back, write the sum. It repeats while a share is
 * due, at most once per `syncIntervalMs` per counter (KV takes one write per key per second). A KV
 * failure only stops the sharing (fail open); the local count still limits.
 *
 * Client buckets stay in the isolate's memory. The KV key of a counter names the client by a
 * keyed hash (counter-key.ts), computed when the counter is first shared, not per request.
 */
import { RATE_LIMIT_WINDOW_SECONDS, type PlanId } from "../../contract/rate-limits.js";
import { type Config } from "../../contract/vars.js";
import type { CounterKeys } from "./counter-key.js";
import { RATE_LIMIT_HEADER, RATE_LIMIT_POLICY_HEADER } from "../../contract/headers.js";
import { LOG_EVENTS } from "../log.js";
import { withTimeout, type Platform } from "../runtime.js";

/** KV keeps a window's counter a window longer than the window (KV's minimum TTL is 60 s). */
const COUNTER_TTL_SECONDS = 2 * RATE_LIMIT_WINDOW_SECONDS;

/**
 * An isolate shares a client's count through KV once the requests it holds back reach this
 * fraction of the quota it believes is left (see limiter.ts).
 */
const SHARE_FRACTION = 0.25;

/** Client buckets one isolate tracks at most; the oldest is forgotten first past this. */
const MAX_TRACKED_COUNTERS = 20_000;

const WINDOW_MS = RATE_LIMIT_WINDOW_SECONDS * 1000;

/** The outcome for one request. */
export interface LimitDecision {
  readonly allowed: boolean;
  readonly plan: PlanId;
  readonly limit: number;
  /** Requests left in this window after this one. */
  readonly remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  readonly resetSeconds: number;
}

/** The platform plus the isolate's counter-key maker. */
export interface RateLimitPlatform extends Platform {
  readonly counterKeys: CounterKeys;
}

interface Counter {
  readonly plan: PlanId;
  readonly window: number;
  /** The client's bucket: kept in memory only, never written. */
  readonly client: string;
  readonly limit: number;
  // The KV key, once the counter has been shared (hashed then, once).
  storeKey: string | undefined;
  // The window's total as last read from or written to KV (includes what this isolate wrote).
  remote: number;
  // Counted here and not yet written.
  unshared: number;
  lastSyncAt: number;
  syncing: boolean;
}

// Whether an isolate should share now: it holds back at least SHARE_FRACTION of what it believes
// is left. Other isolates then never miss more than that fraction of the remaining quota per
// isolate, and a client far below its limit costs no KV operations at all.
function shareDue(c: Counter): boolean {
  return c.unshared > 0 && c.unshared >= (c.limit - c.remote) * SHARE_FRACTION;
}

/** Counters of one isolate; create one per isolate and keep it for its lifetime. */
export class RateLimiter {
  private window = Number.NaN;
  private counters = new Map<string, Counter>();

  constructor(private readonly maxCounters = MAX_TRACKED_COUNTERS) {}

  /**
   * Counts the request of `client` under `plan` if it is within the limit, and says whether it
   * is. With `count` false (a 304) it only says: nothing is counted, so nothing is shared either
   * and `remaining` is what is left before it.
   */
  check(
    plan: PlanId,
    client: string,
    config: Config,
    platform: RateLimitPlatform,
    count = true,
  ): LimitDecision {
    const limit = config.limits[plan];
    const now = platform.clock.now();
    const window = Math.floor(now / WINDOW_MS);
    if (window !== this.window) {
      // Keys name their window, so nothing of an earlier window is needed any more (a sync still
      // running keeps its own counter).
      this.window = window;
      this.counters = new Map();
    }
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    const counter = this.counter(plan, window, client, limit);
    const used = counter.remote + counter.unshared;
    // A refused request is not counted: it changes nothing until the window ends.
    if (used >= limit) return { allowed: false, plan, limit, remaining: 0, resetSeconds };
    if (!count) return { allowed: true, plan, limit, remaining: limit - used, resetSeconds };
    counter.unshared += 1;
    if (!counter.syncing && shareDue(counter)) {
      counter.syncing = true;
      platform.waitUntil(this.sync(counter, config.syncIntervalMs, platform));
    }
    return { allowed: true, plan, limit, remaining: limit - used - 1, resetSeconds };
  }

  private counter(plan: PlanId, window: number, client: string, limit: number): Counter {
    // This in-memory key holds the bucket in clear: it never leaves the isolate.
    const key = `${plan}:${window}:${client}`;
    let counter = this.counters.get(key);
    if (!counter) {
      // Bounded memory under many addresses: forget the client seen first (Map keeps order).
      if (this.counters.size >= this.maxCounters) {
        this.counters.delete(this.counters.keys().next().value as string);
      }
      counter = {
        plan,
        window,
        client,
        limit,
        storeKey: undefined,
        remote: 0,
        unshared: 0,
        lastSyncAt: -Infinity,
        syncing: false,
      };
      this.counters.set(key, counter);
    }
    return counter;
  }

  // Read, add, write while a share is due; never faster than `intervalMs` per counter.
  private async sync(
    counter: Counter,
    intervalMs: number,
    platform: RateLimitPlatform,
  ): Promise<void> {
    const { clock, store } = platform;
    try {
      counter.storeKey ??= await platform.counterKeys.counterKey(
        counter.plan,
        counter.window,
        counter.client,
      );
      const key = counter.storeKey;
      while (shareDue(counter)) {
        const wait = counter.lastSyncAt + intervalMs - clock.now();
        if (wait > 0) await clock.sleep(wait);
        counter.lastSyncAt = clock.now();
        // No cacheTtl: an edge-cached value would hide what other isolates wrote since.
        const stored = Number(await withTimeout(store.get(key), clock)) || 0;
        counter.remote = Math.max(counter.remote, stored);
        const adding = counter.unshared;
        const total = counter.remote + adding;
        const options = { expirationTtl: COUNTER_TTL_SECONDS };
        await withTimeout(store.put(key, String(total), options), clock);
        counter.remote = total;
        counter.unshared -= adding;
      }
    } catch (error) {
      platform.log({ event: LOG_EVENTS.counterNotShared }, error);
    } finally {
      counter.syncing = false;
    }
  }
}

/**
 * The quota fields of draft-ietf-httpapi-ratelimit-headers-10: the policy (quota per window, named
 * by plan) and the state (remaining, seconds to reset).
 */
export function quotaHeaders(decision: LimitDecision): [string, string][] {
  const name = `"${decision.plan}"`;
  return [
    [RATE_LIMIT_POLICY_HEADER, `${name};q=${decision.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`],
    [RATE_LIMIT_HEADER, `${name};r=${decision.remaining};t=${decision.resetSeconds}`],
  ];
}
