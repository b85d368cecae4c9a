import { describe, expect, it } from "vitest";
import type { ContentCoding } from "../../../contract/manifest.js";
import {
  clientAcceptEncoding,
  CODING_PREFERENCE,
  selectCoding,
} from "../../../worker/http/encoding.js";

const ALL = CODING_PREFERENCE;

describe("selectCoding (RFC 9110 section 12.5.3)", () => {
  it.each<[string, string | null, ContentCoding]>([
    ["no Accept-Encoding", null, "identity"],
    ["an empty Accept-Encoding", "", "identity"],
    ["gzip only", "gzip", "gzip"],
    ["br only", "br", "br"],
    ["a browser's list", "gzip, deflate, br, zstd", "br"],
    ["br at a lower weight than gzip", "br;q=0.5, gzip", "gzip"],
    ["q with spaces and upper case", "BR ; Q=0.2 , GZIP ; q=0.9", "gzip"],
    ["x-gzip, an alias of gzip", "x-gzip", "gzip"],
    ["identity only", "identity", "identity"],
    ["*", "*", "br"],
    ["* refused but gzip named", "gzip;q=0.3, *;q=0", "gzip"],
    ["gzip refused and nothing else named", "gzip;q=0", "identity"],
    ["identity;q=0 with gzip", "identity;q=0, gzip;q=0.1", "gzip"],
    ["only codings the build did not store", "zstd, deflate", "identity"],
    [
      "identity refused and nothing acceptable (identity is sent anyway)",
      "identity;q=0",
      "identity",
    ],
    ["an invalid weight on br, which drops that member", "br;q=2, gzip;q=0.1", "gzip"],
    ["identity preferred by weight", "identity;q=1, gzip;q=0.5", "identity"],
  ])("for %s (%s) sends the %s variant", (_name, header, expected) => {
    expect(selectCoding(header, ALL)).toBe(expected);
  });

  it("picks only among the codings the build stored", () => {
    expect(selectCoding("br, gzip", ["gzip", "identity"])).toBe("gzip");
    expect(selectCoding("br", ["identity"])).toBe("identity");
  });
});

describe("clientAcceptEncoding", () => {
  it("reads the client's value from request.cf, not the front line's header", () => {
    const request = new Request("https://x/", {
      headers: { "Accept-Encoding": "br, gzip" },
      cf: { clientAcceptEncoding: "gzip;q=0.5" },
    });
    expect(clientAcceptEncoding(request)).toBe("gzip;q=0.5");
  });

  it("takes an empty request.cf value as the client sending none", () => {
    const request = new Request("https://x/", {
      headers: { "Accept-Encoding": "br, gzip" },
      cf: { clientAcceptEncoding: "" },
    });
    expect(selectCoding(clientAcceptEncoding(request), ALL)).toBe("identity");
  });

  it("falls back to the header when the request has no cf field", () => {
    const request = new Request("https://x/", { headers: { "Accept-Encoding": "gzip" } });
    expect(clientAcceptEncoding(request)).toBe("gzip");
  });
});
