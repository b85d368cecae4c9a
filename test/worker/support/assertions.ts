import { expect } from "vitest";
import {
  DECIDED_ERROR_HEADERS,
  specErrorBody,
  SPEC_SECURITY_HEADERS,
} from "../../helpers/spec-values.js";

/**
 * Asserts an error response against the specs' literal values: status, exact body, the security
 * headers, CORS, and the error headers docs/decisions.md states.
 */
export async function expectError(response: Response, status: number): Promise<void> {
  expect(response.status).toBe(status);
  expect(JSON.parse(await response.text())).toEqual(specErrorBody(status));
  for (const [name, value] of DECIDED_ERROR_HEADERS)
    expect(response.headers.get(name)).toBe(value(status));
  for (const [name, value] of SPEC_SECURITY_HEADERS) expect(response.headers.get(name)).toBe(value);
  expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
}
