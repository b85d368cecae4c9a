/**
 * The checks every data path shares before its answer is chosen, in the handler's order of
 * precedence: the method (405, preflight), then service state (503) and quota (429). Used by the
 * standard paths (handler.ts) and the extension paths (near-handler.ts) alike.
 */
import { ALLOWED_METHODS, CACHE_CONTROL, PREFLIGHT_HEADERS, VARY } from "../../contract/headers.js";
import type { PlanId } from "../../contract/rate-limits.js";
import { clientBucket, CLIENT_ADDRESS_HEADER } from "./client-bucket.js";
import { errorResponse } from "../http/errors.js";
import type { Deps } from "../handler.js";
import { baseHeaders } from "../http/headers.js";
import { quotaHeaders } from "./limiter.js";

/** The answer to a method other than GET and HEAD (a preflight or 405); undefined for those. */
export function methodAnswer(method: string): Response | undefined {
  if (method === "OPTIONS") return preflight();
  if (method !== "GET" && method !== "HEAD") {
    return errorResponse(405, [["Allow", ALLOWED_METHODS]]);
  }
  return undefined;
}

/**
 * Maintenance and quota for a request counted under `plan` (null: the documents, which skip
 * both). The 503 or 429 to answer, or the quota fields the answer carries.
 */
export async function admit(
  request: Request,
  deps: Deps,
  plan: PlanId | null,
): Promise<Response | [string, string][]> {
  if (plan === null) return [];
  const { config } = deps;
  if (config.maintenance || (await deps.maintenance.isOn(deps))) {
    return errorResponse(503, [["Retry-After", String(config.maintenanceRetryAfterSeconds)]]);
  }
  const client = clientBucket(request.headers.get(CLIENT_ADDRESS_HEADER));
  const decision = deps.limiter.check(plan, client, config, deps);
  const quota = quotaHeaders(decision);
  if (!decision.allowed) {
    return errorResponse(429, [...quota, ["Retry-After", String(decision.resetSeconds)]]);
  }
  return quota;
}

/** The fields a 200 and a 304 share: validators and caching. */
export function validatorHeaders(etag: string, lastModified: string): Headers {
  const headers = baseHeaders();
  headers.set("ETag", etag);
  headers.set("Last-Modified", lastModified);
  headers.set("Cache-Control", CACHE_CONTROL);
  // The answer depends on Accept-Encoding, so shared caches must key on it.
  headers.set("Vary", VARY);
  return headers;
}

// OPTIONS on a data path. Answers a CORS preflight (the Fetch standard's CORS-preflight fetch),
// and tells any other OPTIONS request what is allowed. Not rate-limited: it reads no data.
function preflight(): Response {
  const headers = baseHeaders();
  for (const [name, value] of Object.entries(PREFLIGHT_HEADERS)) headers.set(name, value);
  headers.set("Allow", ALLOWED_METHODS);
  return new Response(null, { status: 204, headers });
}
