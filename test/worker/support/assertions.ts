import { expect } from "vitest";
import {
  errorBody,
  ERROR_MEDIA_TYPE,
  STATUS_CODE_HEADER,
  type ErrorStatus,
} from "../../../worker/errors.js";
import { BASE_HEADERS, ERROR_CACHE_CONTROL } from "../../../worker/headers.js";

/** Asserts an error response: status, exact spec body, and the headers every error carries. */
export async function expectError(response: Response, status: ErrorStatus): Promise<void> {
  expect(response.status).toBe(status);
  expect(await response.text()).toBe(errorBody(status));
  expect(response.headers.get("Content-Type")).toBe(ERROR_MEDIA_TYPE);
  expect(response.headers.get(STATUS_CODE_HEADER)).toBe(String(status));
  expect(response.headers.get("Cache-Control")).toBe(ERROR_CACHE_CONTROL);
  for (const [name, value] of Object.entries(BASE_HEADERS))
    expect(response.headers.get(name)).toBe(value);
}
