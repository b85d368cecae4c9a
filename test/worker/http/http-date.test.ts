/** httpDate (worker/http/headers.ts): Date and a clamped Last-Modified as RFC 9110 section 5.6.7 writes them. */
import { describe, expect, it } from "vitest";
import { httpDate } from "../../../worker/http/headers.js";

describe("httpDate", () => {
  it.each([
    [Date.UTC(1994, 10, 6, 8, 49, 37), "Sun, 06 Nov 1994 08:49:37 GMT"],
    [Date.UTC(1994, 10, 6, 8, 49, 37, 999), "Sun, 06 Nov 1994 08:49:37 GMT"],
    [Date.UTC(1994, 10, 6, 8, 49, 38), "Sun, 06 Nov 1994 08:49:38 GMT"],
    [Date.UTC(2026, 11, 1, 21, 40, 0, 1), "Tue, 01 Dec 2026 21:40:00 GMT"],
    [Date.UTC(1994, 10, 6, 8, 49, 37, 500), "Sun, 06 Nov 1994 08:49:37 GMT"],
  ])("writes %i as %s, whichever second came before", (ms, expected) => {
    expect(httpDate(ms)).toBe(expected);
  });
});
