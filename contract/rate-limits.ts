/**
 * The rate-limit plans, part of the build–Worker contract: the Worker counts requests under them
 * and the documents the build writes (/openapi.json, the landing page) describe them.
 */

/** Rate-limit plans. Each has its own counter and its own limit per window. */
export type PlanId = "open-data" | "service-metrics";

/**
 * The path prefix of each API, which is also its plan: every data set's path starts with its API's
 * prefix (build/core/datasets.ts builds the paths from these), and the Worker counts a path under
 * the plan whose prefix it starts with. service-metrics-api-v1.0.md, "Limits": the Default Plan
 * covers GET and HEAD on both /reg-service-metrics paths. The open data API states no limit
 * (open-data-api-v2.2.md, "Limits"), so it gets a plan of the same shape
 * (docs/decisions.md#a-rate-limit-for-the-open-data-api-too).
 */
export const PLAN_PATH_PREFIXES: Readonly<Record<PlanId, string>> = {
  "open-data": "/std/v2.2/",
  "service-metrics": "/std/v1.0/reg-service-metrics/",
};

/** The plan a data path is counted under, or undefined when no plan covers it. */
export function planForPath(path: string): PlanId | undefined {
  // No prefix is the start of another, so at most one matches.
  for (const [plan, prefix] of Object.entries(PLAN_PATH_PREFIXES) as [PlanId, string][])
    if (path.startsWith(prefix)) return plan;
  return undefined;
}

/** Both plans are "per minute" (service-metrics-api-v1.0.md, "Limits"). */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
