/**
 * Placing a postcode: the publisher's own records first (the mean position of the records at
 * that exact postcode), then the mean position of what is known in its sector, then in its
 * district. A publisher may add a postcode-centroid file (content/postcode-centroids.csv, for
 * example cut from the ONS Postcode Directory, Open Government Licence); its points count towards
 * sectors and districts only, so the index stays small however large the file
 * (docs/decisions.md#placing-a-postcode).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { atFileStart, type Diagnostic } from "../core/diagnostics.js";
import { readPostcode } from "../core/place.js";

/** The optional centroid file's name under content/. */
export const POSTCODE_CENTROIDS_FILE = "postcode-centroids.csv";

/** A known position of a postcode unit (no spaces, upper case). */
export interface PostcodePoint {
  readonly unit: string;
  readonly latitude: number;
  readonly longitude: number;
}

type Table = Record<string, [number, number]>;

/** Where postcodes are, by unit, sector and district key. */
export interface PostcodeTable {
  readonly unit: Table;
  readonly sector: Table;
  readonly district: Table;
}

// Means with six decimals (about 0.1 m): enough, and stable text in the index.
const round = (n: number) => Math.round(n * 1e6) / 1e6;

function means(groups: Map<string, [number, number, number]>): Table {
  const table: Table = {};
  for (const key of [...groups.keys()].sort()) {
    const [lat, lon, n] = groups.get(key)!;
    table[key] = [round(lat / n), round(lon / n)];
  }
  return table;
}

function add(groups: Map<string, [number, number, number]>, key: string, lat: number, lon: number) {
  const sum = groups.get(key) ?? [0, 0, 0];
  groups.set(key, [sum[0] + lat, sum[1] + lon, sum[2] + 1]);
}

/** The placement table from the records' own points and the centroid file's. */
export function postcodeTable(
  own: readonly PostcodePoint[],
  centroids: readonly PostcodePoint[],
): PostcodeTable {
  const unit = new Map<string, [number, number, number]>();
  const sector = new Map<string, [number, number, number]>();
  const district = new Map<string, [number, number, number]>();
  for (const point of [...own, ...centroids]) {
    const keys = readPostcode(point.unit)?.keys;
    if (!keys) continue;
    add(sector, keys.sector, point.latitude, point.longitude);
    add(district, keys.district, point.latitude, point.longitude);
  }
  for (const point of own) add(unit, point.unit, point.latitude, point.longitude);
  return { unit: means(unit), sector: means(sector), district: means(district) };
}

// Column names the file's header may use: the ONS Postcode Directory's (pcd, pcd2, pcds, lat,
// long) and plain ones.
const POSTCODE_COLUMNS = ["postcode", "pcds", "pcd2", "pcd"];
const LATITUDE_COLUMNS = ["latitude", "lat"];
const LONGITUDE_COLUMNS = ["longitude", "long", "lon"];

/**
 * The centroid file's points, read from `contentDir`; none when there is no file. A header
 * without the three columns is an error; rows that are not a full postcode with a position in
 * range are skipped (the ONS directory marks a postcode with no position as latitude 99.999999).
 */
export async function readPostcodeCentroids(
  contentDir: string,
  shownPath: string,
): Promise<{ points: PostcodePoint[]; problems: Diagnostic[] }> {
  let text: string;
  try {
    text = await readFile(join(contentDir, POSTCODE_CENTROIDS_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { points: [], problems: [] };
    throw error;
  }
  return parsePostcodeCentroids(text, shownPath);
}

/** The points of a centroid file's text (comma-separated, a header row, optional quotes). */
export function parsePostcodeCentroids(
  text: string,
  shownPath: string,
): { points: PostcodePoint[]; problems: Diagnostic[] } {
  const lines = text.split(/\r?\n/);
  const cells = (line: string) => line.split(",").map((c) => c.trim().replace(/^"(.*)"$/, "$1"));
  const header = cells(lines[0] ?? "").map((c) => c.toLowerCase());
  const find = (names: readonly string[]) => header.findIndex((c) => names.includes(c));
  const columns = [find(POSTCODE_COLUMNS), find(LATITUDE_COLUMNS), find(LONGITUDE_COLUMNS)];
  if (columns.some((c) => c < 0)) {
    const message =
      `${shownPath}: the first line must name the columns postcode, latitude and longitude ` +
      `(or the ONS Postcode Directory's pcds, lat and long); it reads "${lines[0] ?? ""}"`;
    return { points: [], problems: [atFileStart(shownPath, "postcode-centroids", message, "")] };
  }
  const [p, la, lo] = columns as [number, number, number];
  const points: PostcodePoint[] = [];
  for (const line of lines.slice(1)) {
    if (line.trim() === "") continue;
    const row = cells(line);
    const unit = readPostcode(row[p] ?? "")?.keys.unit;
    const latitude = Number(row[la]);
    const longitude = Number(row[lo]);
    if (!unit || !Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) continue;
    points.push({ unit, latitude, longitude });
  }
  return { points, problems: [] };
}
