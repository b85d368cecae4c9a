/**
 * The map of the landing page: an SVG drawn at build time, one mark per located record over the
 * outline of the United Kingdom (Great Britain and Northern Ireland) from Natural Earth (public
 * domain, via world-atlas), with Ireland drawn lighter for context. Reading and projecting the
 * outline takes longer than the rest of the page, so the projected outline is kept in the build
 * cache, keyed by the atlas's version and the projection's settings.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { geoConicEqualArea, geoPath, type GeoProjection } from "d3-geo";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import type { BuildCache } from "../../core/cache.js";
import { escapeAttribute, escapeHtml } from "./html.js";
import type { LocatedRecord } from "../../assemble/locations.js";
import { CACHE_KINDS } from "../../core/cache-kinds.js";

/** Natural Earth 1:50m countries: enough detail for a page-sized map, 740 KB to read. */
const ATLAS = "world-atlas/countries-50m.json";
/** ISO 3166-1 numeric codes of the countries drawn. */
const UNITED_KINGDOM = "826";
const IRELAND = "372";

/** Size of the drawing, in SVG user units. */
const MAP_WIDTH = 360;
const MAP_HEIGHT = 560;
const PADDING = 12;
/** Decimal places kept in coordinates: a tenth of a unit is well below a screen pixel. */
const DIGITS = 1;
// An equal-area conic with parallels across the UK, the usual choice for one mid-latitude
// country: Shetland and Cornwall keep their true proportions.
const PARALLELS: [number, number] = [50, 60];
const ROTATE: [number, number] = [2.5, 0];
/** Bump when the outline's drawing changes in a way the settings above do not show. */
const OUTLINE_FORMAT = 1;

/** The projected outline, and the projection's fitted scale and translation for the marks. */
export interface Outline {
  readonly scale: number;
  readonly translate: readonly [number, number];
  readonly uk: string;
  readonly ireland: string;
}

/** The outline, from the cache when an earlier build projected it with the same settings. */
export async function loadOutline(cache?: BuildCache): Promise<Outline> {
  const require = createRequire(import.meta.url);
  const version = (require("world-atlas/package.json") as { version: string }).version;
  const settings = JSON.stringify([
    OUTLINE_FORMAT,
    ATLAS,
    version,
    MAP_WIDTH,
    MAP_HEIGHT,
    PADDING,
    DIGITS,
    PARALLELS,
    ROTATE,
  ]);
  const key = cache?.key("map-outline", settings);
  const hit = key && (await cache!.get(key, CACHE_KINDS.mapOutline));
  if (hit) return JSON.parse(hit.toString("utf8")) as Outline;
  const outline = projectOutline(require.resolve(ATLAS));
  if (key) await cache!.set(key, CACHE_KINDS.mapOutline, JSON.stringify(outline));
  return outline;
}

function projectOutline(file: string): Outline {
  const topology = JSON.parse(readFileSync(file, "utf8")) as Topology<{
    countries: GeometryCollection;
  }>;
  const countries = topology.objects.countries;
  const pick = (id: string) => {
    const geometry = countries.geometries.find((g) => String(g.id) === id);
    if (!geometry) throw new Error(`${ATLAS} has no country ${id}`);
    return feature(topology, geometry);
  };
  const uk = pick(UNITED_KINGDOM);
  const projection = geoConicEqualArea()
    .parallels(PARALLELS)
    .rotate(ROTATE)
    .fitExtent(
      [
        [PADDING, PADDING],
        [MAP_WIDTH - PADDING, MAP_HEIGHT - PADDING],
      ],
      uk,
    );
  const path = geoPath(projection).digits(DIGITS);
  const [x, y] = projection.translate();
  return {
    scale: projection.scale(),
    translate: [x, y],
    uk: path(uk) ?? "",
    ireland: path(pick(IRELAND)) ?? "",
  };
}

function projectionOf(outline: Outline): GeoProjection {
  return geoConicEqualArea()
    .parallels(PARALLELS)
    .rotate(ROTATE)
    .scale(outline.scale)
    .translate([outline.translate[0], outline.translate[1]]);
}

/** Kinds of mark, by the data set's title; any other kind is drawn as a diamond. */
const SHAPES: Readonly<Record<string, "circle" | "square">> = {
  Branches: "circle",
  ATMs: "square",
};

const round = (n: number) => Number(n.toFixed(DIGITS));

/** Whether the map has a shape for the data set titled `title` (its records are places). */
export const isMapKind = (title: string): boolean => title in SHAPES;

/** Colours the stylesheet defines (style.css, `.brand-0` to `.brand-7`); two brands may share one. */
const BRAND_COLOURS = 8;

/**
 * The class that colours `brand`: one of BRAND_COLOURS, from a hash of the brand's name (32-bit
 * FNV-1a of its UTF-8 bytes), so a brand keeps its colour whatever other brands are published.
 */
export function brandClass(brand: string): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(brand, "utf8")) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  return `brand-${hash % BRAND_COLOURS}`;
}

/**
 * How a mark names its record, in two parts: where it is (its Name, or an ATM's site, and its
 * town) and whose it is ("Thistlecombe Bank branch TB-WEX-01").
 */
export function markName(record: LocatedRecord): { readonly where: string; readonly what: string } {
  const singular = /^[A-Z][a-z]/.test(record.record) ? record.record.toLowerCase() : record.record;
  const id = record.identification ? ` ${record.identification}` : "";
  const parts = [record.name, record.town].filter((p): p is string => p !== undefined);
  // "Lynmoor, Lynmoor" says it once.
  const where = parts.filter(
    (part, i) => i === 0 || !parts[0]!.toLowerCase().includes(part.toLowerCase()),
  );
  return { where: where.join(", "), what: `${record.brand} ${singular}${id}` };
}

/** A mark's name on one line: "Ottersey Quay (Pennyfold Building Society branch PBS-0102)". */
function markTitle(record: LocatedRecord): string {
  const { where, what } = markName(record);
  return where ? `${where} (${what})` : what;
}

/**
 * A mark's size, in SVG units: a branch's circle is this wide, an ATM's square a little less.
 * Marks at one site are set this far apart, centre to centre, plus room for the site's dot.
 */
const MARK_SIZE = 8;
const SPACING = MARK_SIZE + 3;
/**
 * Records this close together on the map (in SVG units, a unit is about 2 km) are one site: a
 * branch and its ATMs, or a shopping centre's ATMs. Drawn where they are, each would hide the
 * others, so a site's marks are set around its position instead, with a dot at the position.
 */
const SITE_UNITS = 1;
/** Up to this many marks at one site stand on a ring; more fill a sunflower spiral. */
const RING_MAX = 6;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));
// A sunflower spiral (radius c·√(k+½), turning the golden angle) keeps its points at least about
// 1.546·c apart: c is chosen so that is SPACING.
const SPIRAL = SPACING / 1.5;

/** A record's mark where it is drawn. */
interface PlacedMark {
  readonly record: LocatedRecord;
  readonly x: number;
  readonly y: number;
}

/** The marks as drawn: those within the map, the sites they were set around, and the rest. */
export interface MarkLayout {
  readonly marks: readonly PlacedMark[];
  /** The positions of sites with more than one mark, each drawn as a small dot. */
  readonly sites: readonly { readonly x: number; readonly y: number }[];
  /** Records whose coordinates fall outside the map (swapped, or far away): not drawn. */
  readonly outside: readonly LocatedRecord[];
}

/** Where each mark goes: projected, grouped into sites, each site's marks set around it. */
export function layoutMarks(outline: Outline, records: readonly LocatedRecord[]): MarkLayout {
  const projection = projectionOf(outline);
  const outside: LocatedRecord[] = [];
  // Sites in publication order of their first record; a grid of SITE_UNITS cells finds a
  // record's site among those near it without comparing it with every other.
  const sites: { x: number; y: number; records: LocatedRecord[] }[] = [];
  const grid = new Map<string, typeof sites>();
  for (const record of records) {
    const [x, y] = projection([record.longitude, record.latitude]) ?? [NaN, NaN];
    if (!(x >= 0 && x <= MAP_WIDTH && y >= 0 && y <= MAP_HEIGHT)) {
      outside.push(record);
      continue;
    }
    const cx = Math.floor(x / SITE_UNITS);
    const cy = Math.floor(y / SITE_UNITS);
    let site: (typeof sites)[number] | undefined;
    for (let i = cx - 1; i <= cx + 1 && !site; i++) {
      for (let j = cy - 1; j <= cy + 1 && !site; j++) {
        site = grid.get(`${i},${j}`)?.find((s) => Math.hypot(s.x - x, s.y - y) <= SITE_UNITS);
      }
    }
    if (site) {
      site.records.push(record);
      continue;
    }
    site = { x, y, records: [record] };
    sites.push(site);
    const list = grid.get(`${cx},${cy}`);
    if (list) list.push(site);
    else grid.set(`${cx},${cy}`, [site]);
  }
  const marks: PlacedMark[] = [];
  for (const { x, y, records: here } of sites) {
    const offsets = siteOffsets(here.length);
    here.forEach((record, k) => {
      const [dx, dy] = offsets[k]!;
      marks.push({ record, x: x + dx, y: y + dy });
    });
  }
  return {
    marks,
    sites: sites.filter((s) => s.records.length > 1).map(({ x, y }) => ({ x, y })),
    outside,
  };
}

/** Where the n marks of one site go, relative to it: itself for one, a ring or a spiral for more. */
export function siteOffsets(n: number): [number, number][] {
  if (n === 1) return [[0, 0]];
  if (n <= RING_MAX) {
    // Neighbours on a ring of radius R are 2·R·sin(π/n) apart.
    const radius = SPACING / (2 * Math.sin(Math.PI / n));
    // The first mark to the left, then clockwise: a branch and its ATM read left to right.
    return Array.from({ length: n }, (_, k) => {
      const angle = Math.PI + (2 * Math.PI * k) / n;
      return [radius * Math.cos(angle), radius * Math.sin(angle)];
    });
  }
  return Array.from({ length: n }, (_, k) => {
    const radius = SPIRAL * Math.sqrt(k + 0.5);
    return [radius * Math.cos(k * GOLDEN_ANGLE), radius * Math.sin(k * GOLDEN_ANGLE)];
  });
}

/** The id of the name of the mark at `index` (0-based) of a layout: its link's target. */
const nameId = (index: number) => `m${index + 1}`;

/**
 * The marks' names, one list item each, shown only while it is the page's target (a tap or a click
 * on its mark, no script): at the top of the window, fixed, so showing it scrolls nothing (a
 * fixed element is in view wherever the page is), with one link that hides it again. What the
 * mark's <title> says on hover, on two lines: where, then whose.
 */
export function markNames(layout: MarkLayout): string {
  const items = layout.marks.map(({ record }, i) => {
    const { where, what } = markName(record);
    const first = where ? `<strong>${escapeHtml(where)}</strong> ` : "";
    return `<li id="${nameId(i)}">${first}${escapeHtml(what)}</li>`;
  });
  return [
    '<div class="mark-names">',
    `<ol>${items.join("")}</ol>`,
    // A fragment that names nothing on the page: following it ends the name's :target and,
    // with nothing to scroll to, leaves the page where it is (HTML, "scroll to the fragment").
    '<a class="hide-name" href="#no-mark" aria-label="Hide the name">×</a>',
    "</div>",
  ].join("\n");
}

/**
 * The SVG element. Each mark is a link (class `mark`, `data-kind`, the brand's colour class)
 * named by its <title> (shown on hover, read by screen readers) to its name in markNames, which
 * a tap or a click shows. Marks at one site are set around a dot at its position (layoutMarks).
 */
export function mapSvg(outline: Outline, layout: MarkLayout, label_: string): string {
  const { uk, ireland } = outline;
  const marks = layout.marks.map((mark, i) => {
    const { record, x, y } = mark;
    const cls = `mark ${brandClass(record.brand)}`;
    const kind = escapeAttribute(record.kind);
    const shape = SHAPES[record.kind];
    const title = `<title>${escapeHtml(markTitle(record))}</title>`;
    const drawn =
      shape === "circle"
        ? `<circle class="${cls}" data-kind="${kind}" cx="${round(x)}" cy="${round(y)}" r="${MARK_SIZE / 2}"/>`
        : shape === "square"
          ? `<rect class="${cls}" data-kind="${kind}" x="${round(x - 3.5)}" y="${round(y - 3.5)}" width="7" height="7"/>`
          : `<path class="${cls}" data-kind="${kind}" d="M${round(x)} ${round(y - 5)}l5 5-5 5-5-5z"/>`;
    // Out of the tab order: a publisher's thousands of marks would stand between a keyboard and
    // the rest of the page; a pointer or a tap reaches each.
    return `<a href="#${nameId(i)}" tabindex="-1">${title}${drawn}</a>`;
  });
  const sites = layout.sites.map(
    ({ x, y }) => `<circle class="site" cx="${round(x)}" cy="${round(y)}" r="1.5"/>`,
  );
  return [
    // No role="img": that would hide the marks' names from screen readers.
    `<svg class="map" viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}" aria-labelledby="map-title">`,
    `<title id="map-title">${escapeHtml(label_)}</title>`,
    `<path class="land other" d="${ireland}"/>`,
    `<path class="land" d="${uk}"/>`,
    `<g class="sites">${sites.join("")}</g>`,
    `<g class="marks">${marks.join("")}</g>`,
    `</svg>`,
  ].join("\n");
}
