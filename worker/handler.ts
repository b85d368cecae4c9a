/**
 * One request, start to finish: transport (https), then which representation the path names
 * (404 when none), then the response path (http/respond.ts), which answers every representation
 * in one order of precedence. Records the request's outcome (outcome.ts) as it goes.
 */
import type { Deps } from "./deps.js";
import { errorBodyBytes, errorResponse } from "./http/errors.js";
import { baseHeaders, httpDate } from "./http/headers.js";
import { httpsLocation } from "./http/https.js";
import { respond } from "./http/respond.js";
import { LOG_EVENTS } from "./log.js";
import { changesRepresentation } from "./changes/answer.js";
import { nearRepresentation } from "./near/answer.js";
import { matchNear } from "./near/query.js";
import { newOutcome, type Outcome } from "./outcome.js";

/**
 * The response to `request`. Never throws: an unexpected error is the spec's 500. `outcome` is
 * filled in with what was asked and how it was answered.
 */
export async function handle(
  request: Request,
  deps: Deps,
  outcome: Outcome = newOutcome(),
): Promise<Response> {
  let response: Response;
  try {
    response = await answer(request, deps, outcome);
  } catch (error) {
    deps.log({ event: LOG_EVENTS.unexpectedError, status: 500 }, error);
    outcome.coding = null;
    outcome.bytes = outcome.fullBytes = outcome.identityBytes = 0;
    response = errorResponse(500);
  }
  // RFC 9110 section 6.6.1: an origin server with a clock sends Date in every 2xx, 3xx and 4xx
  // response (and may in a 5xx); caches take a response's age from it (RFC 9111 section 4.2.3).
  // Set here, once, so every answer has it, whichever module made it.
  response.headers.set("Date", httpDate(deps.clock.now()));
  const status = response.status;
  outcome.status = status;
  // Every status from 400 up is an error response with the spec's body (http/errors.ts); a
  // HEAD's body is dropped by the runtime.
  if (status >= 400 && request.method !== "HEAD") outcome.bytes = errorBodyBytes(response);
  return response;
}

// A % that does not start a percent-encoded octet (RFC 3986 section 2.1): not a valid URI.
const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

// Not async: the response path's promise is handed back as it is, without one more promise
// wrapped around it to resolve per request.
function answer(request: Request, deps: Deps, outcome: Outcome): Response | Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return errorResponse(400);
  }

  outcome.site = deps.site ?? "";
  const location = deps.plainHttp ? undefined : httpsLocation(url);
  if (location !== undefined) {
    const headers = baseHeaders();
    headers.set("Location", location);
    return new Response(null, { status: 308, headers });
  }

  // Exact match on the path only: the query never changes a standard path's answer.
  let representation = deps.routes.get(url.pathname);
  const changes = representation ? undefined : deps.changes?.get(url.pathname);
  if (changes) representation = changesRepresentation(changes, url.searchParams);
  if (!representation) {
    // The extension endpoints are the only paths with parameters (worker/near/).
    const near = deps.near && matchNear(url.pathname, url.searchParams, deps.near.routes);
    if (!near) return errorResponse(MALFORMED_ESCAPE.test(url.pathname) ? 400 : 404);
    representation = nearRepresentation(near, deps, url.origin);
  }
  outcome.asked = representation.asked;
  outcome.plan = representation.plan;
  return respond(request, deps, url.origin, representation, outcome);
}
