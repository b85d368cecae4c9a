import { describe, expect, it } from "vitest";
import type { ErrorStatus } from "../../../contract/errors.js";
import {
  errorBody,
  errorBodyBytes,
  errorResponse,
  invalidParameterField,
} from "../../../worker/http/errors.js";
import {
  DECIDED_ERROR_HEADERS,
  SPEC_ERRORS,
  SPEC_SECURITY_HEADERS,
} from "../../helpers/spec-values.js";

describe("error bodies", () => {
  it.each(SPEC_ERRORS.map((row) => [...row] as [ErrorStatus, string, string]))(
    "%s uses the spec's title and description word for word",
    (status, title, description) => {
      expect(JSON.parse(errorBody(status))).toEqual({ status: String(status), title, description });
    },
  );

  it.each(SPEC_ERRORS.map(([status]) => status as ErrorStatus))(
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
    for (const [name, value] of SPEC_SECURITY_HEADERS)
      expect(response.headers.get(name)).toBe(value);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    for (const [name, value] of DECIDED_ERROR_HEADERS)
      expect(response.headers.get(name)).toBe(value(404));
    expect(response.headers.get("Allow")).toBe("GET");
    expect([...response.headers.keys()].some((name) => name.includes(" "))).toBe(false);
    expect(await response.json()).toEqual({
      status: "404",
      title: "Not found",
      description: "There is no resource at this path.",
    });
  });
});

describe("invalidParameterField (an RFC 9651 String Item with an expected String parameter)", () => {
  it.each([
    [{ parameter: "since", form: "Z, not +00:00" }, '"since";expected="Z, not +00:00"'],
    [{ parameter: 'a"b\\c', form: "x" }, '"a\\"b\\\\c";expected="x"'],
    [{ parameter: "caf\u00e9\n", form: "x" }, '"caf";expected="x"'],
  ])("writes %j as %s", (problem, field) => {
    expect(invalidParameterField(problem)).toEqual(["Invalid-Parameter", field]);
  });
});

describe("a cause's error body", () => {
  it("keeps the status's title and the body's shape, with the cause's own description", async () => {
    const response = errorResponse(404, [], "postcode-not-placed");
    const text = await response.clone().text();
    const body = JSON.parse(text) as Record<string, string>;
    expect(Object.keys(body)).toEqual(["status", "title", "description"]);
    expect([body.status, body.title]).toEqual(["404", "Not found"]);
    expect(body.description).not.toBe("There is no resource at this path.");
    expect(errorBodyBytes(response)).toBe(new TextEncoder().encode(text).length);
  });
});
