/**
 * build/verify/sites.ts: with site.yaml's Sites, `npm run verify` asks each site at its own host
 * (the URL's scheme and port kept) against its own manifest; without, the URL given and the one
 * manifest.
 */
import { describe, expect, it } from "vitest";
import type { Manifest } from "../../../contract/manifest.js";
import { verifyTargets } from "../../../build/verify/sites.js";

// Told apart by their max-age alone.
const empty = (cacheMaxAge = 60): Manifest => ({
  cacheMaxAge,
  formatVersion: 1,
  datasets: [],
  documents: [],
  near: [],
  changes: [],
});

const WITH_SITES: Manifest = {
  formatVersion: 1,
  datasets: [],
  documents: [],
  sites: [
    { name: "halifax", host: "api.halifax.example", manifest: empty(1) },
    { name: "group", host: "opendata.group.example", manifest: empty(2) },
  ],
};

describe("what npm run verify asks", () => {
  it.each<[string, string, string[]]>([
    [
      "each site at its host over https",
      "https://opendata.group.example",
      ["https://api.halifax.example", "https://opendata.group.example"],
    ],
    [
      "each site at its host, the URL's port kept",
      "https://127.0.0.1:8443/",
      ["https://api.halifax.example:8443", "https://opendata.group.example:8443"],
    ],
    [
      "each site at its host, the URL's scheme kept",
      "http://staging.example",
      ["http://api.halifax.example", "http://opendata.group.example"],
    ],
  ])("asks %s", (_, given, asked) => {
    const targets = verifyTargets(new URL(given), WITH_SITES);
    expect(targets.map((t) => [t.siteName, t.base.origin])).toEqual([
      ["halifax", asked[0]],
      ["group", asked[1]],
    ]);
    expect(targets.map((t) => t.manifest.cacheMaxAge)).toEqual([1, 2]);
  });

  it("asks the URL given for the one manifest without Sites", () => {
    const one = empty();
    expect(verifyTargets(new URL("https://opendata.example.com/"), one)).toEqual([
      { base: new URL("https://opendata.example.com/"), manifest: one },
    ]);
  });
});
