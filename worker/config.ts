/**
 * Every tunable of the Worker, named once. Operators change the values under [vars] in
 * wrangler.toml; everything else here is a fixed policy constant that tests import.
 */

/** Rate-limit plans. Each has its own counter and its own limit per window. */
export type PlanId = "open-data" | "service-metrics";

/**
 * Which plan a path belongs to, first match wins. service-metrics-api-v1.0.md, "Limits": the
 * Default Plan covers GET and HEAD on both /reg-service-metrics paths. The open data API states
 * no limit (open-data-api-v2.2.md, "Limits"), so it gets a plan of the same shape (README, "Spec gaps and decisions").
 */
export const PLAN_PATH_PREFIXES: ReadonlyArray<readonly [prefix: string, plan: PlanId]> = [
  ["/std/v1.0/reg-service-metrics/", "service-metrics"],
  ["/std/v2.2/", "open-data"],
];

/** The plan a data path is counted under, or undefined when no plan covers it. */
export function planForPath(path: string): PlanId | undefined {
  for (const [prefix, plan] of PLAN_PATH_PREFIXES) if (path.startsWith(prefix)) return plan;
  return undefined;
}

/** Both plans are "per minute" (service-metrics-api-v1.0.md, "Limits"). */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
/** KV keeps a window's counter a window longer than the window (KV's minimum TTL is 60 s). */
export const COUNTER_TTL_SECONDS = 2 * RATE_LIMIT_WINDOW_SECONDS;
/** Prefix of counter keys in KV: `rl:<plan>:<window>:<client hash>` (counter-key.ts). */
export const COUNTER_KEY_PREFIX = "rl:";
/** The Worker secret holding the HMAC key of counter keys (`wrangler secret put RATE_LIMIT_KEY`). */
export const RATE_LIMIT_KEY_SECRET = "RATE_LIMIT_KEY";
/**
 * Bytes of HMAC-SHA-256 kept in a counter key: 16 (128 bits, 32 hex digits). Two clients whose
 * keys collide share one quota for one window, so what matters is the chance of any collision
 * among the n buckets counted in one window of one plan: about n^2 / 2^(bits + 1) (the birthday
 * bound). At internet scale, every IPv4 address and as many IPv6 /64s in one minute, n = 2^33:
 * 128 bits give 2^66 / 2^129 = 2^-63 per window, and over a century of minutes (about 2^26)
 * 2^-37. 64 bits would give 2^66 / 2^65: a collision almost surely. 96 bits would do (2^-31 per
 * window); 128 cost nothing more, since KV keys may be 512 bytes.
 */
export const COUNTER_KEY_HASH_BYTES = 16;
/** Bytes of the random key an isolate makes for itself when RATE_LIMIT_KEY is not set. */
export const FALLBACK_KEY_BYTES = 32;
/**
 * An isolate shares a client's count through KV once the requests it holds back reach this
 * fraction of the quota it believes is left (see ratelimit.ts).
 */
export const SHARE_FRACTION = 0.25;
/** Client buckets one isolate tracks at most; the oldest is forgotten first past this. */
export const MAX_TRACKED_COUNTERS = 20_000;

/** KV key of the maintenance flag (same namespace as the counters). */
export const MAINTENANCE_KEY = "maintenance";
/** Edge cache time of the flag read; KV's minimum is 30 s. */
export const MAINTENANCE_CACHE_TTL_SECONDS = 60;
/** How long an isolate reuses the flag value it read before it reads it again. */
export const MAINTENANCE_REFRESH_MS = 30_000;

/** A KV call that has not answered after this long counts as failed (fail open). */
export const KV_TIMEOUT_MS = 1_000;
/** At most one log line per topic per isolate in this period. */
export const LOG_INTERVAL_MS = 60_000;
/** Retry-After of a 503 caused by the assets binding failing (transient by nature). */
export const TRANSIENT_RETRY_AFTER_SECONDS = 10;

/** The [vars] this module reads, with the default used when one is absent or invalid. */
export const VAR_DEFAULTS = {
  OPEN_DATA_LIMIT_PER_MINUTE: "145",
  SERVICE_METRICS_LIMIT_PER_MINUTE: "145",
  RATE_LIMIT_SYNC_SECONDS: "1",
  MAINTENANCE: "off",
  MAINTENANCE_RETRY_AFTER_SECONDS: "300",
} as const;

export type ConfigVar = keyof typeof VAR_DEFAULTS;
export type Vars = Partial<Record<ConfigVar, string>>;

export interface Config {
  /** Requests per window per client, by plan. */
  readonly limits: Readonly<Record<PlanId, number>>;
  /**
   * Least time between two KV writes of one counter by one isolate. KV accepts at most one write
   * per key per second, so this is at least 1 s.
   */
  readonly syncIntervalMs: number;
  /** Maintenance switched on by configuration (the KV flag can switch it on too). */
  readonly maintenance: boolean;
  readonly maintenanceRetryAfterSeconds: number;
}

/** Values that switch a flag on, for the MAINTENANCE var and the KV flag alike. */
export function isSwitchedOn(value: string | null | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return v === "on" || v === "true" || v === "1";
}

/** Reads and checks the [vars]; an invalid value falls back to its default and is reported. */
export function readConfig(vars: Vars, warn: (message: string) => void = console.warn): Config {
  const int = (name: ConfigVar, min: number): number => {
    const raw = vars[name];
    if (raw !== undefined && /^\s*\d+\s*$/.test(raw) && Number(raw) >= min) return Number(raw);
    if (raw !== undefined)
      warn(`config: ${name}=${JSON.stringify(raw)} is invalid, using ${VAR_DEFAULTS[name]}`);
    return Number(VAR_DEFAULTS[name]);
  };
  return {
    limits: {
      "open-data": int("OPEN_DATA_LIMIT_PER_MINUTE", 1),
      "service-metrics": int("SERVICE_METRICS_LIMIT_PER_MINUTE", 1),
    },
    syncIntervalMs: int("RATE_LIMIT_SYNC_SECONDS", 1) * 1000,
    maintenance: isSwitchedOn(vars.MAINTENANCE ?? VAR_DEFAULTS.MAINTENANCE),
    maintenanceRetryAfterSeconds: int("MAINTENANCE_RETRY_AFTER_SECONDS", 1),
  };
}
