/** Error responses: the spec's body (contract/errors.ts), security and CORS headers, never cached. */
import {
  ERROR_MEDIA_TYPE,
  ERRORS,
  STATUS_CODE_HEADER,
  type ErrorStatus,
} from "../../contract/errors.js";
import { ERROR_CACHE_CONTROL } from "../../contract/headers.js";
import { baseHeaders } from "./headers.js";

/** The exact body of an error response. */
export function errorBody(status: ErrorStatus): string {
  return BODIES[status];
}

// Serialised once per isolate: errors are answered without building JSON per request.
const BODIES = Object.fromEntries(
  Object.entries(ERRORS).map(([status, { title, description }]) => [
    status,
    JSON.stringify({ status, title, description }),
  ]),
) as Record<ErrorStatus, string>;

// Their lengths in bytes, for the outcome of a request (outcome.ts).
const BYTES = Object.fromEntries(
  Object.entries(BODIES).map(([status, body]) => [status, new TextEncoder().encode(body).length]),
) as Record<ErrorStatus, number>;

/** The length in bytes of an error body. */
export function errorBodyBytes(status: ErrorStatus): number {
  return BYTES[status];
}

/** An error response: spec body, security and CORS headers, `Status-Code`, never cached. */
export function errorResponse(status: ErrorStatus, headers?: Iterable<[string, string]>): Response {
  const h = baseHeaders();
  h.set("Content-Type", ERROR_MEDIA_TYPE);
  h.set("Cache-Control", ERROR_CACHE_CONTROL);
  h.set(STATUS_CODE_HEADER, String(status));
  if (headers) for (const [name, value] of headers) h.set(name, value);
  return new Response(BODIES[status], { status, headers: h });
}
