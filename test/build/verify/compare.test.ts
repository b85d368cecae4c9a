/** One answer against what the build made: status, ETag (weak or strong), Last-Modified, body. */
import { describe, expect, it } from "vitest";
import { differences, type Answer } from "../../../build/verify/compare.js";
import type { Expected } from "../../../build/verify/checks.js";

const HEX = "0123456789abcdef".repeat(4);
const OTHER = "fedcba9876543210".repeat(4);
const DATE = "Mon, 21 Sep 2026 14:13:20 GMT";
const expected: Expected = {
  status: 200,
  etag: { exact: `"${HEX}"` },
  lastModified: DATE,
  sha256: HEX,
};
const same: Answer = {
  status: 200,
  etag: `"${HEX}"`,
  lastModified: DATE,
  date: "Tue, 22 Sep 2026 09:00:00 GMT",
  sha256: HEX,
};
// Ten minutes before the build's Last-Modified: a clock behind the content's date.
const EARLIER = "Mon, 21 Sep 2026 14:03:20 GMT";

describe("an answer compared with the build", () => {
  it.each<[string, Partial<Answer>, string[]]>([
    ["the same in every field", {}, []],
    ["the same with a tag the edge weakened (W/)", { etag: `W/"${HEX}"` }, []],
    ["another status, which says it all", { status: 503, etag: null }, ["status 503, not 200"]],
    [
      "another tag",
      { etag: `"${OTHER}"` },
      [`ETag "fedcba9876543210fedcba98…", not "0123456789abcdef01234567…"`],
    ],
    ["no tag", { etag: null }, [`ETag missing, not "0123456789abcdef01234567…"`]],
    [
      "another Last-Modified",
      { lastModified: "Tue, 22 Sep 2026 08:00:00 GMT" },
      [`Last-Modified "Tue, 22 Sep 2026 08:00:00 GMT", not "${DATE}"`],
    ],
    ["no Last-Modified", { lastModified: null }, [`Last-Modified missing, not "${DATE}"`]],
    [
      "Last-Modified held back to the answer's Date, which is before the build's date",
      { lastModified: EARLIER, date: EARLIER },
      [],
    ],
    [
      "Last-Modified equal to the answer's Date, when the build's date is not ahead of it",
      { lastModified: "Tue, 22 Sep 2026 09:00:00 GMT" },
      [`Last-Modified "Tue, 22 Sep 2026 09:00:00 GMT", not "${DATE}"`],
    ],
    [
      "an earlier Last-Modified than the build's that is not the answer's Date",
      { lastModified: EARLIER },
      [`Last-Modified "${EARLIER}", not "${DATE}"`],
    ],
    [
      "another body under the same tag",
      { sha256: OTHER },
      ["body SHA-256 fedcba9876543210fedcba98…, not 0123456789abcdef01234567…"],
    ],
    [
      "another build altogether: tag, date and body",
      { etag: `"${OTHER}"`, lastModified: "Tue, 22 Sep 2026 08:00:00 GMT", sha256: OTHER },
      [
        `ETag "fedcba9876543210fedcba98…", not "0123456789abcdef01234567…"`,
        `Last-Modified "Tue, 22 Sep 2026 08:00:00 GMT", not "${DATE}"`,
        "body SHA-256 fedcba9876543210fedcba98…, not 0123456789abcdef01234567…",
      ],
    ],
  ])("%s", (_, change, found) => {
    expect(differences(expected, { ...same, ...change })).toEqual(found);
  });

  describe("a near-me answer, whose tag is known only up to the query", () => {
    const near: Expected = {
      status: 200,
      etag: { prefix: `"near.1.${HEX}.` },
      lastModified: DATE,
    };
    it.each<[string, string | null, number]>([
      ["the index's tag, any query", `"near.1.${HEX}.country/GB"`, 0],
      ["weakened", `W/"near.1.${HEX}.country/GB"`, 0],
      ["another index", `"near.1.${OTHER}.country/GB"`, 1],
      ["another format version", `"near.2.${HEX}.country/GB"`, 1],
      ["no tag", null, 1],
    ])("%s", (_, etag, count) => {
      // The body is made per request: any body is compared only through the tag.
      expect(differences(near, { ...same, etag, sha256: OTHER })).toHaveLength(count);
    });
  });
});
