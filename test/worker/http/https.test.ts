import { describe, expect, it } from "vitest";
import { httpsLocation } from "../../../worker/http/https.js";

describe("httpsLocation (https only; RFC 9110 section 15.4.9 for 308)", () => {
  it.each([
    [
      "a plain-http request",
      "http://opendata.example/std/v2.2/atms",
      "https://opendata.example/std/v2.2/atms",
    ],
    [
      "a plain-http request with a query, kept as it is",
      "http://opendata.example/std/v2.2/atms?x=1&y=%20",
      "https://opendata.example/std/v2.2/atms?x=1&y=%20",
    ],
    [
      "a plain-http request on another port, sent to https's default port",
      "http://opendata.example:8080/",
      "https://opendata.example/",
    ],
  ])("redirects %s to https", (_name, url, location) => {
    expect(httpsLocation(new URL(url))).toBe(location);
  });

  it.each([
    ["an https request", "https://opendata.example/std/v2.2/atms"],
    ["plain http to 127.0.0.1", "http://127.0.0.1:8787/std/v2.2/atms"],
    ["plain http to localhost", "http://localhost:8787/"],
    ["plain http to [::1]", "http://[::1]:8787/"],
  ])("serves %s as it is", (_name, url) => {
    expect(httpsLocation(new URL(url))).toBeUndefined();
  });

  it("redirects plain http to another loopback address than the three local development uses", () => {
    expect(httpsLocation(new URL("http://127.0.0.2/"))).toBe("https://127.0.0.2/");
  });
});
