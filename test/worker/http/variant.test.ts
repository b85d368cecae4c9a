/**
 * Which variant a request gets, and what a 304 for it says, as tables of the pure functions the
 * response path runs (worker/http/encoding.ts, conditional.ts, headers.ts), with no runtime: a
 * 304 answers only for the tag of the variant its 200 would send, whatever the order of the
 * client's Accept-Encoding (RFC 9110 section 8.8.3), and carries that tag with no Content-Type and
 * no Content-Encoding (RFC 9110 section 15.4.5), so no cache can store a wrong coding from it.
 */
import { describe, expect, it } from "vitest";
import type { ContentCoding } from "../../../contract/manifest.js";
import { evaluatePreconditions } from "../../../worker/http/conditional.js";
import {
  compressedByFrontLine,
  frontLineCoding,
  variantCoding,
} from "../../../worker/http/encoding.js";
import { notModifiedFields, okFields } from "../../../worker/http/headers.js";
import type { Representation } from "../../../worker/http/representation.js";

const ALL: readonly ContentCoding[] = ["br", "gzip", "identity"];
const DATA = "application/prs.std.opendata.v2.2+json";
const PAGE = "text/html; charset=utf-8";

// One representation with a tag per coding, written out.
const TAGS: Readonly<Record<ContentCoding, string>> = {
  identity: `"${"1".repeat(64)}"`,
  br: `"${"2".repeat(64)}"`,
  gzip: `"${"3".repeat(64)}"`,
};
const LAST_MODIFIED = "Tue, 24 Nov 2026 23:34:11 GMT";
const LAST_MODIFIED_MS = Date.UTC(2026, 10, 24, 23, 34, 11);
const NOW = LAST_MODIFIED_MS + 3_600_000;

function representation(mediaType: string): Representation {
  return {
    asked: { kind: "dataset", name: "atms", detail: "" },
    plan: "open-data",
    mediaType,
    lastModified: LAST_MODIFIED,
    lastModifiedMs: LAST_MODIFIED_MS,
    maxAge: 28800,
    headers: [],
    body: undefined,
  };
}

/** Status and fields of the answer to a GET with `acceptEncoding` and If-None-Match `tag`. */
function answer(acceptEncoding: string | null, mediaType: string, tag: string) {
  const coding = variantCoding(acceptEncoding, mediaType, ALL);
  const headers = new Headers({ "If-None-Match": tag });
  const validators = { etag: TAGS[coding], lastModifiedMs: LAST_MODIFIED_MS };
  const status = evaluatePreconditions(headers, validators, NOW) === "not-modified" ? 304 : 200;
  const rep = representation(mediaType);
  const fields = new Headers(
    status === 304
      ? notModifiedFields(rep, TAGS[coding], NOW)
      : okFields(rep, TAGS[coding], coding, 1000, NOW),
  );
  return {
    status,
    etag: fields.get("ETag"),
    encoding: fields.get("Content-Encoding"),
    type: fields.get("Content-Type"),
  };
}

// Accept-Encoding as clients send it, and the coding the 200 is in: for a data set (a type the
// front line leaves alone, so brotli wins a tie) and for the landing page (a type the front line
// re-encodes, in the client's order, so ours follows it).
const ORDERS: readonly [string | null, ContentCoding, ContentCoding][] = [
  ["gzip, br", "br", "gzip"],
  ["br, gzip", "br", "br"],
  ["gzip", "gzip", "gzip"],
  ["br", "br", "br"],
  ["identity", "identity", "identity"],
  ["*", "br", "identity"],
  ["gzip, deflate, br, zstd", "br", "gzip"],
  ["br;q=0.5, gzip", "gzip", "gzip"],
  [null, "identity", "identity"],
];

describe("a 304 answers for the tag of the variant its 200 would send, and names no coding", () => {
  for (const [acceptEncoding, dataCoding, pageCoding] of ORDERS) {
    for (const [mediaType, expected] of [
      [DATA, dataCoding],
      [PAGE, pageCoding],
    ] as const) {
      for (const held of ["identity", "br", "gzip"] as const) {
        const name = `Accept-Encoding ${acceptEncoding ?? "(none)"}, ${mediaType}, If-None-Match of the ${held} variant`;
        const outcome =
          held === expected
            ? "304 with that tag and no Content-Type or Content-Encoding"
            : `200 in ${expected} with its own tag`;
        it(`${name}: ${outcome}`, () => {
          const got = answer(acceptEncoding, mediaType, TAGS[held]);
          expect(got.etag).toBe(TAGS[expected]);
          if (held === expected) {
            expect(got.status).toBe(304);
            // RFC 9110 section 15.4.5: no representation metadata of content it does not carry.
            expect(got.encoding).toBeNull();
            expect(got.type).toBeNull();
          } else {
            expect(got.status).toBe(200);
            expect(got.encoding).toBe(expected === "identity" ? null : expected);
            expect(got.type).toBe(mediaType);
          }
        });
      }
    }
  }
});

describe("frontLineCoding (the front line's choice for the types it compresses)", () => {
  it.each<[string | null, ContentCoding | undefined]>([
    [null, undefined],
    ["", undefined],
    ["gzip, br", "gzip"],
    ["br, gzip", "br"],
    ["gzip;q=0.5, br", "br"],
    ["identity, gzip", "identity"],
    ["*", "identity"],
    ["deflate", "identity"],
    ["gzip;q=0, br;q=0", "identity"],
  ])("for %s sends %s", (acceptEncoding, expected) => {
    expect(frontLineCoding(acceptEncoding)).toBe(expected);
  });

  it("applies to the landing page, its stylesheet and plain JSON, not to the APIs' media types", () => {
    expect(compressedByFrontLine("text/html; charset=utf-8")).toBe(true);
    expect(compressedByFrontLine("text/css; charset=utf-8")).toBe(true);
    expect(compressedByFrontLine("application/json")).toBe(true);
    expect(compressedByFrontLine("application/prs.std.opendata.v2.2+json")).toBe(false);
    expect(compressedByFrontLine("application/prs.openbanking.opendata.v1.0+json")).toBe(false);
    expect(compressedByFrontLine("application/atom+xml")).toBe(false);
    expect(compressedByFrontLine("application/vnd.oai.openapi+json;version=3.1")).toBe(false);
  });

  it("falls back to identity when the front line's coding was not stored", () => {
    expect(variantCoding("gzip, br", PAGE, ["identity"])).toBe("identity");
  });
});
