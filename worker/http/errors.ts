/** Error responses: the spec's body (contract/errors.ts), security and CORS headers, never cached. */
import {
  ERROR_CAUSES,
  ERROR_MEDIA_TYPE,
  ERRORS,
  INVALID_PARAMETER_HEADER,
  STATUS_CODE_HEADER,
  type ErrorCause,
  type ErrorStatus,
} from "../../contract/errors.js";
import { ERROR_CACHE_CONTROL } from "../../contract/headers.js";
import { baseHeaders } from "./headers.js";
import type { ParameterProblem } from "./representation.js";

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

// The bodies of the causes that share a status (contract/errors.ts): the status's title, the
// cause's description.
const CAUSE_BODIES = Object.fromEntries(
  Object.entries(ERROR_CAUSES).map(([cause, { status, description }]) => [
    cause,
    JSON.stringify({ status: String(status), title: ERRORS[status].title, description }),
  ]),
) as Record<ErrorCause, string>;

const bytesOf = (body: string) => new TextEncoder().encode(body).length;
// Their lengths in bytes, for the outcome of a request (outcome.ts).
const BYTES = Object.fromEntries(
  Object.entries(BODIES).map(([status, body]) => [status, bytesOf(body)]),
) as Record<ErrorStatus, number>;
const CAUSE_BYTES = Object.fromEntries(
  Object.entries(CAUSE_BODIES).map(([cause, body]) => [cause, bytesOf(body)]),
) as Record<ErrorCause, number>;

// The length of the body of each error response made with a cause's body, by response.
const SENT_CAUSE_BYTES = new WeakMap<Response, number>();

/** The length in bytes of the body of `response`, an error response made here. */
export function errorBodyBytes(response: Response): number {
  return SENT_CAUSE_BYTES.get(response) ?? BYTES[response.status as ErrorStatus];
}

/**
 * An error response: spec body, security and CORS headers, `Status-Code`, never cached. With a
 * cause, the body is that cause's (its status must be `status`).
 */
export function errorResponse(
  status: ErrorStatus,
  headers?: Iterable<[string, string]>,
  cause?: ErrorCause,
): Response {
  const h = baseHeaders();
  h.set("Content-Type", ERROR_MEDIA_TYPE);
  h.set("Cache-Control", ERROR_CACHE_CONTROL);
  h.set(STATUS_CODE_HEADER, String(status));
  if (headers) for (const [name, value] of headers) h.set(name, value);
  if (cause === undefined) return new Response(BODIES[status], { status, headers: h });
  const response = new Response(CAUSE_BODIES[cause], { status, headers: h });
  SENT_CAUSE_BYTES.set(response, CAUSE_BYTES[cause]);
  return response;
}

/**
 * The Invalid-Parameter field (contract/errors.ts) of a 400: an RFC 9651 String Item, the
 * parameter's name, with the String parameter `expected`, the form it wants. Characters a String
 * cannot hold (outside printable ASCII) are dropped from the name the client sent.
 */
export function invalidParameterField({ parameter, form }: ParameterProblem): [string, string] {
  const quote = (text: string) =>
    `"${text.replace(/[^\x20-\x7e]/g, "").replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return [INVALID_PARAMETER_HEADER, `${quote(parameter)};expected=${quote(form)}`];
}
