import { describe, expect, it } from "vitest";
import {
  evaluatePreconditions,
  isNotModified,
  matchesIfNoneMatch,
  parseHttpDate,
} from "../../../worker/http/conditional.js";

const ETAG = `"${"ab12".repeat(16)}"`;
const OTHER = `"${"cd34".repeat(16)}"`;
const LAST_MODIFIED = "Fri, 20 Nov 2026 10:00:00 GMT";
const LAST_MODIFIED_MS = Date.parse(LAST_MODIFIED);
const NOW = Date.parse("2026-11-21T12:00:00Z");
const validators = { etag: ETAG, lastModifiedMs: LAST_MODIFIED_MS };

function notModified(headers: Record<string, string>): boolean {
  return isNotModified(new Headers(headers), validators, NOW);
}

describe("isNotModified (RFC 9110 section 13)", () => {
  describe("If-None-Match, weak comparison", () => {
    it.each([
      ["the current strong ETag", ETAG],
      ["the weak form of the current ETag", `W/${ETAG}`],
      ["a list holding the current ETag", `${OTHER}, ${ETAG}`],
      ["a list holding the weak form of the current ETag", `W/${OTHER},W/${ETAG}`],
      ["*", "*"],
      ["* with spaces around it", "  *  "],
    ])("returns 304 when If-None-Match is %s", (_name, value) => {
      expect(notModified({ "If-None-Match": value })).toBe(true);
    });

    it.each([
      ["another ETag", OTHER],
      ["the weak form of another ETag", `W/${OTHER}`],
      ["the current tag without its quotes", ETAG.slice(1, -1)],
      ["empty", ""],
    ])("returns 200 when If-None-Match is %s", (_name, value) => {
      expect(notModified({ "If-None-Match": value })).toBe(false);
    });

    it("matches a tag whose opaque part contains a comma without splitting it", () => {
      expect(matchesIfNoneMatch(`"a,b", "c"`, `"a,b"`)).toBe(true);
      expect(matchesIfNoneMatch(`"a,b"`, `"a"`)).toBe(false);
    });
  });

  describe("If-Modified-Since, one-second precision", () => {
    it.each([
      ["equal to Last-Modified", LAST_MODIFIED],
      ["later than Last-Modified", "Fri, 20 Nov 2026 10:00:01 GMT"],
      ["equal, in the obsolete RFC 850 form", "Friday, 20-Nov-26 10:00:00 GMT"],
      ["equal, in the obsolete asctime form", "Fri Nov 20 10:00:00 2026"],
    ])("returns 304 when If-Modified-Since is %s", (_name, value) => {
      expect(notModified({ "If-Modified-Since": value })).toBe(true);
    });

    it.each([
      ["earlier than Last-Modified by one second", "Fri, 20 Nov 2026 09:59:59 GMT"],
      ["earlier, in the asctime form with a one-digit day", "Sun Nov  1 10:00:00 2026"],
      ["not a date", "yesterday"],
      ["an ISO 8601 date, which is not an HTTP-date", "2027-01-01T00:00:00Z"],
      ["a day that does not exist", "Sat, 31 Feb 2027 10:00:00 GMT"],
      ["a date in another zone than GMT", "Sat, 21 Nov 2026 10:00:00 PST"],
      ["a list of two dates", `${LAST_MODIFIED}, ${LAST_MODIFIED}`],
      ["in lower case", LAST_MODIFIED.toLowerCase()],
    ])("returns 200 (header ignored or older) when If-Modified-Since is %s", (_name, value) => {
      expect(notModified({ "If-Modified-Since": value })).toBe(false);
    });

    it("compares whole seconds when Last-Modified carries milliseconds", () => {
      const v = { etag: ETAG, lastModifiedMs: LAST_MODIFIED_MS + 999 };
      expect(isNotModified(new Headers({ "If-Modified-Since": LAST_MODIFIED }), v, NOW)).toBe(true);
    });
  });

  describe("both headers", () => {
    it("ignores a matching If-Modified-Since when If-None-Match does not match", () => {
      expect(notModified({ "If-None-Match": OTHER, "If-Modified-Since": LAST_MODIFIED })).toBe(
        false,
      );
    });

    it("returns 304 on a matching If-None-Match whatever If-Modified-Since says", () => {
      const earlier = "Thu, 01 Jan 1970 00:00:00 GMT";
      expect(notModified({ "If-None-Match": ETAG, "If-Modified-Since": earlier })).toBe(true);
    });

    it("returns 200 when neither header is sent", () => {
      expect(notModified({})).toBe(false);
    });
  });
});

/** RFC 9110 section 13.2.2's steps 1 to 4, from the request's headers to 412, 304 or 200. */
describe("evaluatePreconditions (RFC 9110 section 13.2.2)", () => {
  const answer = (headers: Record<string, string>) =>
    ({ failed: 412, "not-modified": 304, ok: 200 })[
      evaluatePreconditions(new Headers(headers), validators, NOW)
    ];

  describe("If-Match, strong comparison (section 13.1.1)", () => {
    it.each([
      ["the current strong ETag", ETAG],
      ["a list holding the current ETag", `${OTHER}, ${ETAG}`],
      ["*", "*"],
    ])("goes on when If-Match is %s", (_name, value) => {
      expect(answer({ "If-Match": value })).toBe(200);
    });

    it.each([
      ["another ETag", OTHER],
      ["the weak form of the current ETag, which strong comparison never matches", `W/${ETAG}`],
      ["a list of weak tags", `W/${OTHER}, W/${ETAG}`],
      ["the current tag without its quotes", ETAG.slice(1, -1)],
      ["empty", ""],
    ])("returns 412 when If-Match is %s", (_name, value) => {
      expect(answer({ "If-Match": value })).toBe(412);
    });
  });

  describe("If-Unmodified-Since, one-second precision (section 13.1.4)", () => {
    it.each([
      ["equal to Last-Modified", LAST_MODIFIED],
      ["later than Last-Modified", "Sat, 21 Nov 2026 10:00:00 GMT"],
      ["not a date, so ignored", "yesterday"],
      ["a list of two dates, so ignored", "Thu, 01 Jan 1970 00:00:00 GMT, " + LAST_MODIFIED],
    ])("goes on when If-Unmodified-Since is %s", (_name, value) => {
      expect(answer({ "If-Unmodified-Since": value })).toBe(200);
    });

    it.each([
      ["one second before Last-Modified", "Fri, 20 Nov 2026 09:59:59 GMT"],
      ["before it, in the obsolete RFC 850 form", "Thursday, 19-Nov-26 10:00:00 GMT"],
    ])("returns 412 when If-Unmodified-Since is %s", (_name, value) => {
      expect(answer({ "If-Unmodified-Since": value })).toBe(412);
    });

    it("compares whole seconds when Last-Modified carries milliseconds", () => {
      const v = { etag: ETAG, lastModifiedMs: LAST_MODIFIED_MS + 999 };
      const headers = new Headers({ "If-Unmodified-Since": LAST_MODIFIED });
      expect(evaluatePreconditions(headers, v, NOW)).toBe("ok");
    });
  });

  describe("in order", () => {
    it("ignores If-Unmodified-Since when If-Match is sent (step 2)", () => {
      const earlier = "Thu, 01 Jan 1970 00:00:00 GMT";
      expect(answer({ "If-Match": ETAG, "If-Unmodified-Since": earlier })).toBe(200);
      expect(answer({ "If-Match": OTHER, "If-Unmodified-Since": LAST_MODIFIED })).toBe(412);
    });

    it("returns 412 for a failed If-Match even where If-None-Match gives 304 (step 1)", () => {
      expect(answer({ "If-Match": OTHER, "If-None-Match": ETAG })).toBe(412);
      expect(
        answer({ "If-Unmodified-Since": "Thu, 01 Jan 1970 00:00:00 GMT", "If-None-Match": ETAG }),
      ).toBe(412);
    });

    it("returns 304 when If-Match holds and If-None-Match matches (steps 1 and 3)", () => {
      expect(answer({ "If-Match": ETAG, "If-None-Match": ETAG })).toBe(304);
      expect(answer({ "If-Match": "*", "If-Modified-Since": LAST_MODIFIED })).toBe(304);
    });

    it("returns 200 when no precondition is sent", () => {
      expect(answer({})).toBe(200);
    });
  });
});

describe("parseHttpDate", () => {
  it.each([
    ["Sun, 06 Nov 1994 08:49:37 GMT", Date.UTC(1994, 10, 6, 8, 49, 37)],
    ["Sunday, 06-Nov-94 08:49:37 GMT", Date.UTC(1994, 10, 6, 8, 49, 37)],
    ["Sun Nov  6 08:49:37 1994", Date.UTC(1994, 10, 6, 8, 49, 37)],
    ["Thursday, 01-Jan-70 00:00:00 GMT", Date.UTC(2070, 0, 1)],
    ["Monday, 01-Jan-77 00:00:00 GMT", Date.UTC(1977, 0, 1)],
  ])("reads %s, placing two-digit years at most 50 years ahead", (value, ms) => {
    expect(parseHttpDate(value, NOW)).toBe(ms);
  });

  it.each([
    "Sun, 06 Nov 1994 24:00:00 GMT",
    "Sun, 06 Nov 1994 08:60:00 GMT",
    "Sun, 6 Nov 1994 08:49:37 GMT",
  ])("rejects %s", (value) => {
    expect(parseHttpDate(value, NOW)).toBeUndefined();
  });
});
