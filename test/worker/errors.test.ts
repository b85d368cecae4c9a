import { describe, expect, it } from "vitest";
import {
  errorBody,
  errorResponse,
  ERRORS,
  STATUS_CODE_HEADER,
  type ErrorStatus,
} from "../../worker/errors.js";
import { CORS_HEADERS, ERROR_CACHE_CONTROL, SECURITY_HEADERS } from "../../worker/headers.js";

// The spec's error table, copied here on purpose as the independent check that errors.ts says it
// word for word (open-data-api-v2.2.md and service-metrics-api-v1.0.md, "Errors").
const SPEC_TABLE: [ErrorStatus, string, string][] = [
  [400, "Bad request", "You have sent a request which could not be understood."],
  [
    408,
    "Client timeout",
    "Your client has failed to submit a request, and a timeout has occurred.",
  ],
  [429, "Too many requests", "You have requested this resource too often. Slow down."],
  [
    500,
    "Internal server error",
    "An error occurred on the server. No further information is available.",
  ],
  [503, "Service temporarily unavailable", "The service is temporarily unavailable."],
];

describe("error bodies", () => {
  it.each(SPEC_TABLE)(
    "%s uses the spec's title and description word for word",
    (status, title, description) => {
      expect(JSON.parse(errorBody(status))).toEqual({ status: String(status), title, description });
    },
  );

  it.each(Object.keys(ERRORS).map(Number) as ErrorStatus[])(
    "%s has exactly the fields status, title and description, all strings",
    (status) => {
      const body = JSON.parse(errorBody(status)) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(["description", "status", "title"]);
      expect(Object.values(body).every((v) => typeof v === "string")).toBe(true);
      expect(body.status).toBe(String(status));
    },
  );
});

describe("errorResponse", () => {
  it("carries the security headers, CORS, Status-Code and no-store, and nothing named with a space", async () => {
    const response = errorResponse(404, [["Allow", "GET"]]);
    expect(response.status).toBe(404);
    for (const [name, value] of Object.entries({ ...SECURITY_HEADERS, ...CORS_HEADERS })) {
      expect(response.headers.get(name)).toBe(value);
    }
    expect(response.headers.get(STATUS_CODE_HEADER)).toBe("404");
    expect(response.headers.get("Cache-Control")).toBe(ERROR_CACHE_CONTROL);
    expect(response.headers.get("Allow")).toBe("GET");
    expect([...response.headers.keys()].some((name) => name.includes(" "))).toBe(false);
    expect(await response.text()).toBe(errorBody(404));
  });
});
