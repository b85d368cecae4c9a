/**
 * The Worker's [vars] in wrangler.toml, read once by the Worker at start-up and by the build for the
 * documents that state the limits, so both read them with the same rules and defaults. Operators
 * change the values in wrangler.toml.
 */
import type { PlanId } from "./rate-limits.js";

/** The [vars] this module reads, with the default used when one is absent or invalid. */
const VAR_DEFAULTS = {
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
