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

/** Natural Earth 1:50m countries: enough detail for a page-sized map, 740 KB to read. */
const ATLAS = "world-atlas/countries-50m.json";
/** ISO 3166-1 numeric codes of the countries drawn. */
const UNITED_KINGDOM = "826";
const IRELAND = "372";

/** Size of the drawing, in SVG user units. */
export const MAP_WIDTH = 360;
export const MAP_HEIGHT = 560;
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
  const hit = key && (await cache!.get(key, "outline"));
  if (hit) return JSON.parse(hit.toString("utf8")) as Outline;
  const outline = projectOutline(require.resolve(ATLAS));
  if (key) await cache!.set(key, "outline", JSON.stringify(outline));
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

/** Colours the stylesheet defines (style.css, `.brand-0` to `.brand-7`); more brands reuse them. */
export const BRAND_COLOURS = 8;

/** The class that colours the brand at `index` of the brand list. */
export function brandClass(index: number): string {
  return `brand-${index % BRAND_COLOURS}`;
}

/**
 * The SVG element. Marks carry class `mark`, `data-kind` and the brand's colour class (brandClass
 * of its position in `brands`).
 */
export function mapSvg(
  outline: Outline,
  records: readonly LocatedRecord[],
  brands: readonly string[],
  label: string,
): string {
  const projection = projectionOf(outline);
  const { uk, ireland } = outline;
  const marks = records.map((record) => {
    const [x, y] = projection([record.longitude, record.latitude]) ?? [NaN, NaN];
    const cls = `mark ${brandClass(brands.indexOf(record.brand))}`;
    const kind = escapeAttribute(record.kind);
    const shape = SHAPES[record.kind];
    if (shape === "circle") {
      return `<circle class="${cls}" data-kind="${kind}" cx="${round(x)}" cy="${round(y)}" r="4"/>`;
    }
    if (shape === "square") {
      return `<rect class="${cls}" data-kind="${kind}" x="${round(x - 3.5)}" y="${round(y - 3.5)}" width="7" height="7"/>`;
    }
    return `<path class="${cls}" data-kind="${kind}" d="M${round(x)} ${round(y - 5)}l5 5-5 5-5-5z"/>`;
  });
  return [
    `<svg class="map" viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}" role="img" aria-labelledby="map-title">`,
    `<title id="map-title">${escapeHtml(label)}</title>`,
    `<path class="land other" d="${ireland}"/>`,
    `<path class="land" d="${uk}"/>`,
    `<g class="marks">${marks.join("")}</g>`,
    `</svg>`,
  ].join("\n");
}
