/**
 * The landing page at /: static HTML written at build time, for the developers who use the APIs.
 * No script, no request to another origin; the only other request is the same-origin stylesheet.
 */
import { publisherName, type SiteSettings } from "../../read/site.js";
import type { DatasetDefinition } from "../../core/datasets.js";
import { describeLimit, type PlanLimit } from "../plan-limits.js";
import type { ManifestEntry } from "../../../contract/manifest.js";
import { OPENAPI_PATH } from "../openapi/document.js";
import { REFERENCE_PATH } from "../reference/path.js";
import { PARTICIPANT_STORE_PATH } from "../participant-store.js";
import { servedPaths } from "../served-paths.js";
import { escapeAttribute as attr, escapeHtml as text, formatCount } from "./html.js";
import type { LocatedRecord } from "../../assemble/locations.js";
import { brandClass, isMapKind, layoutMarks, mapSvg, markNames, type Outline } from "./map.js";
import { pollingLoop } from "./polling.js";
import { ORIGIN, shellExample } from "./origin.js";
import { nearSection } from "./near.js";
import type { NearEntry } from "../../../contract/near.js";
import type { PlanId } from "../../../contract/rate-limits.js";
import { freshnessParagraphs } from "../freshness.js";
import { changesSection, FEED_LINK, type ChangesSectionInput } from "./changes.js";

/** Where the page's stylesheet is served. */
export const STYLESHEET_PATH = "/style.css";

export interface LandingInput extends ChangesSectionInput {
  readonly datasets: readonly {
    readonly dataset: DatasetDefinition;
    readonly entry: ManifestEntry;
  }[];
  readonly located: readonly LocatedRecord[];
  /** The projected outline the map is drawn over (map.ts, loadOutline). */
  readonly outline: Outline;
  readonly settings: SiteSettings;
  readonly limits: Readonly<Record<PlanId, PlanLimit>>;
  /** The plan each data set's path is counted under. */
  readonly planOf: (path: string) => PlanId | undefined;
  /** The manifest's near-me indexes, for the "Find near a point" section. */
  readonly near?: readonly NearEntry[];
  /** The map's section as mapSection made it for these inputs earlier (the build cache's). */
  readonly map?: string;
}

/**
 * The opening of every page the site serves, up to its own links: the document's language, its
 * title (escaped here), the shared stylesheet and no icon to ask for.
 */
export function pageHead(title: string): string[] {
  return [
    "<!doctype html>",
    '<html lang="en-GB">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${text(title)}</title>`,
    `<link rel="stylesheet" href="${STYLESHEET_PATH}">`,
    // An empty icon, so a browser asks for no /favicon.ico (a 404 in its console).
    '<link rel="icon" href="data:,">',
  ];
}

/** The whole page. */
export function landingPage(input: LandingInput): string {
  const { settings } = input;
  const publisher = publisherName(settings);
  return [
    ...pageHead(`${publisher}: open data APIs`),
    ...(input.changes?.length ? [FEED_LINK] : []),
    "</head>",
    "<body>",
    "<header>",
    `<h1>${text(publisher)}</h1>`,
    '<p class="lead">Regulated open banking data, published as the read-only JSON APIs the standards define: branches, ATMs, products and service quality metrics. Free to use under the licence below.</p>',
    `<p class="lead">Every path and operation, with requests in curl, JavaScript and Python: <a href="${REFERENCE_PATH}">the API reference</a>.</p>`,
    "</header>",
    "<main>",
    datasetsSection(input),
    input.map ?? mapSection(input),
    fetchSection(input),
    nearSection(input),
    changesSection(input),
    describeSection(),
    "</main>",
    "<footer>",
    `<p>Data published under the <a href="${attr(settings.License)}">open licence</a> and subject to the <a href="${attr(settings.TermsOfUse)}">terms of use</a>.</p>`,
    "</footer>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function datasetsSection({ datasets }: LandingInput): string {
  const rows = datasets.map(({ dataset, entry }) => {
    const paths = servedPaths(entry)
      .map((p) => `<a href="${attr(p.path)}"><code>${text(p.path)}</code></a>`)
      .join("<br>");
    const size = (coding: "identity" | "br" | "gzip", label: string) => {
      const variant = entry.variants[coding];
      return `<td class="num" data-label="${label}" data-bytes="${variant?.length ?? ""}">${variant ? formatCount(variant.length) : "–"}</td>`;
    };
    // Each cell names its column (data-label), for the narrow layout where rows become cards.
    return [
      `<tr data-path="${attr(entry.path)}">`,
      `<th scope="row">${text(dataset.title)}</th>`,
      `<td data-label="API">${text(dataset.api.name)}</td>`,
      `<td data-label="Path">${paths}</td>`,
      `<td class="num" data-label="Brands" data-field="brands">${formatCount(entry.brands)}</td>`,
      `<td class="num" data-label="Records" data-field="records">${formatCount(entry.totalResults)}</td>`,
      `<td class="nowrap" data-label="LastUpdated" data-field="last-updated"><time datetime="${attr(entry.lastUpdated)}">${text(entry.lastUpdated)}</time></td>`,
      size("identity", "Bytes"),
      size("br", "Brotli"),
      size("gzip", "Gzip"),
      "</tr>",
    ].join("");
  });
  return [
    '<section aria-labelledby="datasets">',
    '<h2 id="datasets">Data sets</h2>',
    '<div class="table-wrap">',
    '<table class="cards">',
    "<caption>What is published now. LastUpdated is when the data set's content last changed. Sizes are in bytes as sent: without compression, with brotli and with gzip.</caption>",
    "<thead><tr>",
    '<th scope="col">Data set</th><th scope="col">API</th><th scope="col">Path</th>',
    '<th scope="col" class="num">Brands</th><th scope="col" class="num">Records</th>',
    '<th scope="col">LastUpdated</th>',
    '<th scope="col" class="num">Bytes</th><th scope="col" class="num">Brotli</th><th scope="col" class="num">Gzip</th>',
    "</tr></thead>",
    `<tbody>${rows.join("\n")}</tbody>`,
    "</table>",
    "</div>",
    "</section>",
  ].join("\n");
}

/** What the map's section is drawn from: a build caches the section by these. */
export type MapInput = Pick<LandingInput, "datasets" | "located" | "outline">;

/**
 * What the map is drawn from, as the parts of its cache key (BuildCache.key hashes them one after
 * another): the outline, each data set's title, record key and count, and every located record.
 * Most edits change none of them (an ATM's opening hours, a product's fee), and drawing thousands
 * of marks is most of the page's time. Parts, not one text: hashing many short texts one by one
 * is several times as fast as joining them and hashing the whole
 * (bench/results/2026-11-28-loading-wrangler.md, "The map's cache key in parts").
 */
export function mapKey(
  { datasets, located, outline }: MapInput,
  kept: MarkTexts = new WeakMap(),
): string[] {
  const counts = datasets.map(({ dataset, entry }) => [
    dataset.title,
    dataset.recordsKey,
    entry.totalResults,
  ]);
  // Each located record's text is kept by it: an unchanged record's is the same object from one
  // build to the next (assemble/locations.ts), so a rebuild writes out only the new ones.
  return [
    JSON.stringify(outline),
    JSON.stringify(counts),
    ...located.map((l) => keptText(l, kept)),
  ];
}

/**
 * Each map mark's JSON text, by the mark, as a build's memory keeps them (core/memory.ts,
 * "mark-texts"): builds that share a memory (the live preview's) write out only new marks.
 */
export type MarkTexts = WeakMap<object, string>;

/** JSON.stringify of a value that is never changed, kept by the value. */
function keptText(value: object, texts: MarkTexts): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** The map, its caption, legend and table of marks by brand. */
export function mapSection({ datasets, located, outline }: MapInput): string {
  const layout = layoutMarks(outline, located);
  const drawn = layout.marks.map((m) => m.record);
  // The data sets the map is of: those whose records are drawn as a shape, and any other with a
  // located record; each with its record count, from the same manifest as the data sets table.
  // A data set with no records at all is left out: "0 of the 0 ATMs" says nothing.
  const kinds = datasets
    .filter(
      ({ dataset, entry }) =>
        (isMapKind(dataset.title) && entry.totalResults > 0) ||
        located.some((r) => r.kind === dataset.title),
    )
    .map(({ dataset, entry }) => {
      const of = (list: readonly LocatedRecord[]) => list.filter((r) => r.kind === dataset.title);
      const count = (n: number) =>
        `${formatCount(n)} ${n === 1 ? inSentence(dataset.recordsKey ?? dataset.title) : inSentence(dataset.title)}`;
      return {
        title: dataset.title,
        count,
        total: entry.totalResults,
        located: of(located).length,
        drawn: of(drawn).length,
      };
    });
  const brands = [...new Set(located.map((r) => r.brand))];
  const drawnOf = (brand: string, kind: string) =>
    drawn.filter((r) => r.brand === brand && r.kind === kind).length;
  const summary = mapSummary(kinds, brands.length);
  const swatch = (brand: string, kind: string) =>
    kind === "Branches"
      ? `<svg viewBox="0 0 16 16" aria-hidden="true"><circle class="${brandClass(brand)}" cx="8" cy="8" r="6"/></svg>`
      : `<svg viewBox="0 0 16 16" aria-hidden="true"><rect class="${brandClass(brand)}" x="2" y="2" width="12" height="12"/></svg>`;
  // Only what a brand has on the map: no "ATMs" swatch for a brand with no ATM drawn.
  const legend = brands.flatMap((brand) =>
    kinds
      .filter((k) => drawnOf(brand, k.title) > 0)
      .map((k) => `<li>${swatch(brand, k.title)}${text(brand)}: ${text(inSentence(k.title))}</li>`),
  );
  const table = [
    '<div class="table-wrap">',
    "<table>",
    "<caption>Marks on the map by brand</caption>",
    `<thead><tr><th scope="col">Brand</th>${kinds.map((k) => `<th scope="col" class="num">${text(k.title)}</th>`).join("")}</tr></thead>`,
    "<tbody>",
    ...brands.map(
      (brand) =>
        `<tr><th scope="row">${text(brand)}</th>${kinds
          .map((k) => `<td class="num">${formatCount(drawnOf(brand, k.title))}</td>`)
          .join("")}</tr>`,
    ),
    "</tbody>",
    "</table>",
    "</div>",
  ].join("\n");
  const key = [
    "Circles are branches, squares ATMs; the colour is the brand.",
    layout.sites.length > 0 ? "Marks at one site are set around a dot at its position." : "",
    drawn.length > 0 ? "Hover over or tap a mark for its name." : "",
  ].filter(Boolean);
  return [
    '<section aria-labelledby="map">',
    '<h2 id="map">Where the branches and ATMs are</h2>',
    '<div class="map-layout">',
    "<figure>",
    mapSvg(outline, layout, `Map of the United Kingdom. ${summary}`),
    markNames(layout),
    `<figcaption>${text(summary)} ${text(key.join(" "))}</figcaption>`,
    "</figure>",
    "<div>",
    legend.length > 0 ? `<ul class="legend">${legend.join("")}</ul>` : "",
    brands.length > 0 ? table : "",
    "</div>",
    "</div>",
    "</section>",
  ].join("\n");
}

interface MapKind {
  readonly title: string;
  /** "1 branch", "6 branches". */
  readonly count: (n: number) => string;
  /** Records the data set publishes, drawn or not. */
  readonly total: number;
  /** Records with coordinates. */
  readonly located: number;
  /** Records with a mark on the map. */
  readonly drawn: number;
}

/**
 * What the map shows, counted as the data sets table counts: of each data set's records, how many
 * have a mark, and of the others why not (no coordinates, or coordinates outside the map).
 */
function mapSummary(kinds: readonly MapKind[], brands: number): string {
  if (kinds.every((k) => k.located === 0)) return "No record gives coordinates yet.";
  const marked = kinds.map((k) =>
    k.drawn < k.total
      ? `${formatCount(k.drawn)} of the ${k.count(k.total)}`
      : k.total === 1
        ? `the ${k.count(1)}`
        : `all ${k.count(k.total)}`,
  );
  const missing = kinds.filter((k) => k.total > k.located).map((k) => k.count(k.total - k.located));
  const outside = kinds.filter((k) => k.located > k.drawn).map((k) => k.count(k.located - k.drawn));
  const notDrawn = [
    missing.length > 0 ? `${and(missing)} without coordinates` : "",
    outside.length > 0 ? `${and(outside)} whose coordinates fall outside the map` : "",
  ].filter(Boolean);
  return [
    `Marks for ${and(marked)}, of ${brands} ${brands === 1 ? "brand" : "brands"}.`,
    notDrawn.length > 0 ? `Not drawn: ${notDrawn.join("; ")}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

// A data set's title inside a sentence: "Branches" reads "branches", "ATMs" stays as it is.
function inSentence(title: string): string {
  return /^[A-Z][a-z]/.test(title) ? title[0]!.toLowerCase() + title.slice(1) : title;
}

// A paragraph of the documents' shared text (freshness.ts) as HTML: escaped, then its **bold**
// and `code` marked up.
function prose(paragraph: string): string {
  return text(paragraph)
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/`([^`]+)`/g, "<code>$1</code>");
}

// "a", "a and b", "a, b and c".
function and(parts: readonly string[]): string {
  return parts.length <= 1
    ? (parts[0] ?? "")
    : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

function fetchSection({ datasets, limits, planOf, settings }: LandingInput): string {
  const example = datasets[0]?.entry;
  const curl = example
    ? [
        `# the first time: note the ETag`,
        `curl -si "${ORIGIN}${example.path}"`,
        `# then send it back: 304 Not Modified, no body, while nothing has changed`,
        `curl -si -H 'If-None-Match: ${example.variants.identity.etag}' \\`,
        `  "${ORIGIN}${example.path}"`,
      ].join("\n")
    : "";
  const open = limits["open-data"];
  const planRows = Object.values(limits).map((limit) => {
    const paths = datasets
      // Every path a data set is served under counts under the data set's plan.
      .filter(({ entry }) => planOf(entry.path) === limit.plan)
      .flatMap(({ entry }) => servedPaths(entry))
      .map((p) => `<code>${text(p.path)}</code>`);
    return `<tr><th scope="row"><code>${text(limit.plan)}</code></th><td data-label="Limit">${text(describeLimit(limit))}</td><td data-label="Paths">${paths.join(", ") || "–"}</td></tr>`;
  });
  return [
    '<section aria-labelledby="fetch">',
    '<h2 id="fetch">How to fetch</h2>',
    `<p>Every path answers <code>GET</code> and <code>HEAD</code> with the whole data set. Ask with <code>Accept-Encoding: br</code> or <code>gzip</code> to get it compressed. Each response has a strong <code>ETag</code> and a <code>Last-Modified</code>: send them back in <code>If-None-Match</code> or <code>If-Modified-Since</code> and an unchanged data set costs a 304 with no body. Each coding (identity, br, gzip) has its own ETag.</p>`,
    '<h3 id="freshness">How fresh an answer is</h3>',
    ...freshnessParagraphs(settings.CacheMaxAgeSeconds).map(
      (paragraph) => `<p>${prose(paragraph)}</p>`,
    ),
    example ? shellExample(curl, settings.PublicOrigin) : "",
    '<h3 id="polling">Polling with curl</h3>',
    "<p>To follow a data set from a script, keep its ETag between runs: curl sends it back (<code>--etag-compare</code>) and saves the new one (<code>--etag-save</code>), so a run that finds nothing changed costs a 304 and no body. Every five minutes is plenty: the data changes a few times a day at most.</p>",
    example
      ? shellExample(pollingLoop(`"${ORIGIN}${example.path}"`, "data.json"), settings.PublicOrigin)
      : "",
    '<h3 id="limits">Rate limits</h3>',
    '<div class="table-wrap">',
    '<table class="cards">',
    `<caption>Requests per client, in fixed windows aligned to the minute. Every answer on a data path tells you where you are: <code>RateLimit-Policy: "open-data";q=${open.limit};w=${open.windowSeconds}</code> is the plan's quota (q requests per w seconds) and <code>RateLimit: "open-data";r=${open.limit - 1};t=37</code> what is left (r requests, for t more seconds). Over the limit you get 429 with <code>Retry-After</code>, the seconds to wait. This page, ${OPENAPI_PATH} and ${PARTICIPANT_STORE_PATH} are not counted.</caption>`,
    '<thead><tr><th scope="col">Plan</th><th scope="col">Limit</th><th scope="col">Paths</th></tr></thead>',
    `<tbody>${planRows.join("\n")}</tbody>`,
    "</table>",
    "</div>",
    '<h3 id="cors">From a browser (CORS)</h3>',
    "<p>Any origin may read the data: responses carry <code>Access-Control-Allow-Origin: *</code> and expose <code>ETag</code>, <code>Last-Modified</code>, <code>Retry-After</code>, <code>RateLimit</code> and <code>RateLimit-Policy</code> to scripts. A conditional request from a page is preceded by a preflight, which is answered and may be cached.</p>",
    "</section>",
  ].join("\n");
}

function describeSection(): string {
  return [
    '<section aria-labelledby="openapi">',
    '<h2 id="openapi">Machine-readable description</h2>',
    `<p><a href="${OPENAPI_PATH}"><code>${OPENAPI_PATH}</code></a> is an OpenAPI 3.1 document describing every path above: its headers, the response schemas, the errors and the rate limits. Generate a client from it with any OpenAPI 3.1 tool, or validate what you receive against its schemas.</p>`,
    `<p><a href="${REFERENCE_PATH}">The API reference</a> shows every path and operation it describes, in a browser: the parameters, header fields, statuses and error bodies, and for each operation a request in curl, JavaScript (<code>fetch</code>) and Python (<code>urllib</code>) with the answer it gets from this deployment.</p>`,
    `<p><a href="${PARTICIPANT_STORE_PATH}"><code>${PARTICIPANT_STORE_PATH}</code></a> lists this publisher the way the open banking participant directory does (<code>baseUrl</code> and, per API, its versions): a client that reads that directory can be pointed at this one file.</p>`,
    "</section>",
  ].join("\n");
}
