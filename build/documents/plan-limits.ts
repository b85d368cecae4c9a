/**
 * The rate limits the deployment enforces, for the documents that tell consumers about them. They
 * are [vars] in wrangler.toml, read here with the reader the Worker uses (contract/vars.ts), so the
 * page and /openapi.json state the numbers the Worker counts with.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { readConfig, type Vars } from "../../contract/vars.js";
import { RATE_LIMIT_WINDOW_SECONDS, type PlanId } from "../../contract/rate-limits.js";
import { PROJECT_ROOT } from "../core/paths.js";

/** The Worker's configuration file. */
const WRANGLER_CONFIG = join(PROJECT_ROOT, "wrangler.toml");

/** One rate-limit plan as consumers read about it. */
export interface PlanLimit {
  readonly plan: PlanId;
  /** Requests per window per client. */
  readonly limit: number;
  readonly windowSeconds: number;
}

/** The limit of every plan, from the [vars] of `configFile`. */
export function readLimits(configFile: string = WRANGLER_CONFIG): Record<PlanId, PlanLimit> {
  const toml = parse(readFileSync(configFile, "utf8")) as { vars?: Vars };
  const { limits } = readConfig(toml.vars ?? {}, () => {});
  const plan = (id: PlanId): PlanLimit => ({
    plan: id,
    limit: limits[id],
    windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
  });
  return { "open-data": plan("open-data"), "service-metrics": plan("service-metrics") };
}

/** The limit in words, e.g. "145 requests per minute per client (IP address or IPv6 /64)". */
export function describeLimit(limit: PlanLimit): string {
  const window = limit.windowSeconds === 60 ? "minute" : `${limit.windowSeconds} seconds`;
  return `${limit.limit} requests per ${window} per client (IPv4 address or IPv6 /64), GET and HEAD counted together`;
}
