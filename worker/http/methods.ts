/**
 * The methods a path with a representation answers (RFC 9110 section 9): GET and HEAD; OPTIONS
 * as a CORS preflight; anything else 405 with Allow. Decided before anything else about the
 * request, so a 405 or a preflight reads no data and counts against no quota.
 */
import { ALLOWED_METHODS, PREFLIGHT_HEADERS } from "../../contract/headers.js";
import { errorResponse } from "./errors.js";
import { baseHeaders } from "./headers.js";

/** The answer to a method other than GET and HEAD (a preflight or 405); undefined for those. */
export function methodAnswer(method: string): Response | undefined {
  if (method === "GET" || method === "HEAD") return undefined;
  if (method === "OPTIONS") return preflight();
  return errorResponse(405, [["Allow", ALLOWED_METHODS]]);
}

// OPTIONS on a data path. Answers a CORS preflight (the Fetch standard's CORS-preflight fetch),
// and tells any other OPTIONS request what is allowed. Not rate-limited: it reads no data.
function preflight(): Response {
  const headers = baseHeaders();
  for (const [name, value] of Object.entries(PREFLIGHT_HEADERS)) headers.set(name, value);
  headers.set("Allow", ALLOWED_METHODS);
  return new Response(null, { status: 204, headers });
}
