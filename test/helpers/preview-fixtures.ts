/** What the preview's tests share: a problem, a warning, a page and a manifest to show them with. */
import type { Diagnostic } from "../../build/core/diagnostics.js";
import type { Manifest } from "../../contract/manifest.js";

export const problem: Diagnostic = {
  file: "content/branches/a&b.yaml",
  line: 7,
  column: 11,
  pointer: "/Branch/0/Name",
  message: 'must be text, but YAML read the number 12; put it in quotes: <"12">',
  rule: "type",
};
export const warning: Diagnostic = {
  file: "content/atms/a&b.yaml",
  line: 57,
  column: 13,
  pointer: "/ATM/0/Location/PostalAddress/GeoLocation/GeographicCoordinates",
  message: "Latitude -1.73411 and Longitude 54.12372 look swapped <here>",
  rule: "coordinates-swapped",
  severity: "warning",
};
export const at = (line: number): Diagnostic => ({ ...warning, line });
export const page =
  "<!doctype html>\n<html>\n<head>\n<title>t</title>\n</head>\n<body>\n<main></main>\n</body>\n</html>\n";

export const etag = (c: string) => `"${c.repeat(64)}"`;
export const manifest: Manifest = {
  formatVersion: 1,
  datasets: [
    {
      dataset: "branches",
      path: "/std/v2.2/branches",
      mediaType: "application/prs.std.opendata.v2.2+json",
      lastModified: "Mon, 21 Sep 2026 14:13:20 GMT",
      lastModifiedMs: 1790000000000,
      lastUpdated: "2026-09-21T14:13:20Z",
      totalResults: 1,
      brands: 1,
      aliases: [],
      variants: { identity: { asset: "/std/v2.2/branches.json", etag: etag("a"), length: 2 } },
    },
  ],
  documents: [
    {
      path: "/",
      mediaType: "text/html; charset=utf-8",
      lastModified: "Mon, 21 Sep 2026 14:13:20 GMT",
      lastModifiedMs: 1790000000000,
      variants: {
        identity: { asset: "/index.html", etag: etag("b"), length: page.length },
        br: { asset: "/index.html.br", etag: etag("c"), length: 1 },
      },
    },
  ],
};
export const files = [
  { path: "manifest.json", bytes: JSON.stringify(manifest) },
  { path: "std/v2.2/branches.json", bytes: "{}" },
  { path: "index.html", bytes: page },
  { path: "index.html.br", bytes: "x" },
];
