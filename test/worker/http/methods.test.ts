import { describe, expect, it } from "vitest";
import { methodAnswer } from "../../../worker/http/methods.js";
import { DECIDED, EVERY_RESPONSE_HEADERS, specErrorBody } from "../../helpers/spec-values.js";

describe("methodAnswer (RFC 9110 section 9)", () => {
  it.each(["GET", "HEAD"])("lets %s through to the rest of the response path", (method) => {
    expect(methodAnswer(method)).toBeUndefined();
  });

  it("answers OPTIONS as a CORS preflight: 204, no body, the allowed methods and headers", async () => {
    const response = methodAnswer("OPTIONS")!;
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    for (const [name, value] of [...EVERY_RESPONSE_HEADERS, ...Object.entries(DECIDED.preflight)])
      expect(response.headers.get(name)).toBe(value);
    expect(response.headers.get("Allow")).toBe(DECIDED.allow);
  });

  it.each([
    "POST",
    "PUT",
    "DELETE",
    "PATCH",
    "TRACE",
    "CONNECT",
    "PROPFIND",
    "QUERY",
    // Method names are case-sensitive (RFC 9110 section 9.1): "get" is not GET.
    "get",
  ])("answers %s with the spec's 405 and Allow: GET, HEAD", async (method) => {
    const response = methodAnswer(method)!;
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe(DECIDED.allow);
    expect(await response.json()).toEqual(specErrorBody(405));
  });
});
