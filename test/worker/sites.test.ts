/**
 * worker/sites.ts and entry.ts's servedFor: which site a request is for, by its host, as tables
 * (docs/decisions.md#sites). Host names compare case-insensitively (RFC 3986 section 3.2.2), a
 * port is not part of the host (RFC 9110 section 7.2), a trailing dot names the same host (RFC
 * 1034 section 3.1); no host, or a host no site names, finds no site.
 */
import { describe, expect, it } from "vitest";
import { hostKey, requestHost } from "../../worker/sites.js";
import { selectionOf, servedFor } from "../../worker/entry.js";
import type { Manifest } from "../../contract/manifest.js";

describe("the host a request names", () => {
  it.each<[string, string | null, string | undefined]>([
    ["a host as the build wrote it", "api.halifax.example", "api.halifax.example"],
    ["capitals", "API.Halifax.Example", "api.halifax.example"],
    ["a port", "api.halifax.example:443", "api.halifax.example"],
    ["a trailing dot", "api.halifax.example.", "api.halifax.example"],
    ["a trailing dot, a port and capitals", "Api.Halifax.Example.:8443", "api.halifax.example"],
    ["loopback with the preview's port", "127.0.0.1:8787", "127.0.0.1"],
    ["an IPv6 literal with a port", "[::1]:8787", "[::1]"],
    ["an IPv6 literal alone", "[::1]", "[::1]"],
    ["a site's preview address", "halifax.localhost:8787", "halifax.localhost"],
    ["an empty Host", "", undefined],
    ["no Host", null, undefined],
  ])("%s: %j is %j", (_, host, key) => {
    expect(hostKey(host)).toBe(key);
  });

  it.each<[string, string | null, string, string | undefined]>([
    [
      "the Host header over the URL",
      "api.halifax.example",
      "https://127.0.0.1/",
      "api.halifax.example",
    ],
    [
      "the URL's authority without a Host",
      null,
      "https://API.lloyds.example:8443/std/v2.2/atms",
      "api.lloyds.example",
    ],
    [
      "the URL's authority without a path",
      null,
      "https://api.lloyds.example",
      "api.lloyds.example",
    ],
  ])("reads %s", (_, header, url, key) => {
    expect(requestHost(header, url)).toBe(key);
  });
});

/** A manifest with two sites, each serving one document so the two can be told apart. */
function siteManifest(name: string): Manifest {
  const variant = { asset: `/sites/${name}/index.html`, etag: `"${name}"`, length: 1 };
  return {
    formatVersion: 1,
    datasets: [],
    documents: [
      {
        path: "/",
        mediaType: "text/html; charset=utf-8",
        lastModified: "Mon, 21 Sep 2026 14:13:20 GMT",
        lastModifiedMs: 1790000000000,
        variants: { identity: variant },
      },
    ],
  };
}

const SITES: Manifest = {
  formatVersion: 1,
  datasets: [],
  documents: [],
  sites: [
    { name: "halifax", host: "api.halifax.example", manifest: siteManifest("halifax") },
    { name: "group", host: "opendata.group.example", manifest: siteManifest("group") },
  ],
};

describe("the site that answers a request", () => {
  const selection = selectionOf(SITES);
  const siteOf = (url: string, host?: string) => {
    const headers: Record<string, string> = host === undefined ? {} : { Host: host };
    return servedFor(selection, new Request(url, { headers })).site;
  };

  it.each<[string, string, string | undefined, string]>([
    ["its host", "https://api.halifax.example/", undefined, "halifax"],
    [
      "its host in capitals with a port",
      "https://127.0.0.1/",
      "API.HALIFAX.EXAMPLE:443",
      "halifax",
    ],
    ["the group's host", "https://opendata.group.example/", undefined, "group"],
    ["a host no site names: no site", "https://api.lloyds.example/", undefined, ""],
    ["loopback, which no site names: no site", "http://127.0.0.1:8787/", undefined, ""],
  ])("is found by %s", (_, url, host, site) => {
    expect(siteOf(url, host)).toBe(site);
  });

  it("serves nothing at a host no site names, so every path is 404", () => {
    const served = servedFor(selection, new Request("https://api.lloyds.example/"));
    expect([...served.routes.keys()]).toEqual([]);
  });

  it("is the one publication, whatever the host, without Sites", () => {
    const one = selectionOf(siteManifest("one"));
    const served = servedFor(one, new Request("https://anything.example/"));
    expect(served.site).toBeUndefined();
    expect([...served.routes.keys()]).toEqual(["/"]);
  });

  it("answers a site at further names the preview gives it (<Name>.localhost)", () => {
    const preview = selectionOf(SITES, ({ name }) => [`${name}.localhost`]);
    const served = servedFor(preview, new Request("http://halifax.localhost:8787/"));
    expect(served.site).toBe("halifax");
  });
});
