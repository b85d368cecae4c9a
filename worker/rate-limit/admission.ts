/**
 * Whether a request for a representation is served now: service state (503), then its client's
 * quota (429), in the response path's order of precedence (worker/http/respond.ts): after the
 * method and the parameters, before any precondition.
 */
import type { PlanId } from "../../contract/rate-limits.js";
import type { Deps } from "../deps.js";
import { errorResponse } from "../http/errors.js";
import { retryAfter } from "../http/headers.js";
import { clientBucket, CLIENT_ADDRESS_HEADER } from "./client-bucket.js";
import { quotaHeaders } from "./limiter.js";

/**
 * Maintenance and quota for a request counted under `plan` (null: the documents, which skip
 * both). The 503 or 429 to answer, or the quota fields the answer carries. A request that will be
 * answered 304 is admitted as any other, but not counted (`count` false): a revalidation that
 * finds the copy current spends none of the quota, so polling with ETags is rewarded
 * (docs/decisions.md, "304s are free"). A client whose quota is spent still gets the 429.
 */
export async function admit(
  request: Request,
  deps: Deps,
  plan: PlanId | null,
  count = true,
): Promise<Response | [string, string][]> {
  if (plan === null) return [];
  const { config } = deps;
  if (config.maintenance || (await deps.maintenance.isOn(deps))) {
    return errorResponse(503, [retryAfter(config.maintenanceRetryAfterSeconds)]);
  }
  const bucket = clientBucket(request.headers.get(CLIENT_ADDRESS_HEADER));
  // Each site counts its own clients: one client of three brands' hosts is three clients of
  // three APIs, as with three publishers (docs/decisions.md#each-site-counts-its-own-clients).
  // The site is in the counter's hashed text, so its KV key is its own too (counter-key.ts).
  const client = deps.site ? `${deps.site} ${bucket}` : bucket;
  const decision = deps.limiter.check(plan, client, config, deps, count);
  const quota = quotaHeaders(decision);
  if (!decision.allowed) return errorResponse(429, [...quota, retryAfter(decision.resetSeconds)]);
  return quota;
}
