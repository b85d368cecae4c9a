/**
 * The build's side of the place model (contract/place.ts is the side the Worker shares): where a
 * record's postal address and coordinates are, and UK postcodes read with the `postcode` package
 * (Ideal Postcodes' parser of the Royal Mail format, BS 7666). The data-quality rules and the
 * near-me index read places only through here (docs/architecture.md, "The place model").
 */
import { fix, isValid } from "postcode";
import { compactPostcode, keysOf, type PostcodeKeys } from "../../contract/place.js";
import { pointerJoin } from "./json-pointer.js";
import { objectAt } from "./json-value.js";

/** A position in decimal degrees. */
export interface Point {
  readonly latitude: number;
  readonly longitude: number;
}

/**
 * A record whose content gives coordinates, as the landing page's map marks it: found in the
 * assembled bodies by assemble/locations.ts, kept with each body.
 */
export interface LocatedRecord {
  /** The data set's title, e.g. "Branches": the kind of mark. */
  readonly kind: string;
  /** What one record of the data set is called, its records' key: "Branch", "ATM". */
  readonly record: string;
  readonly brand: string;
  readonly latitude: number;
  readonly longitude: number;
  /** The record's Identification, its Name (a branch's, or an ATM's Location.Site), and its town: the map names a mark by them. */
  readonly identification?: string;
  readonly name?: string;
  readonly town?: string;
}

/** The pointer of a record's postal address: an ATM's sits in its Location (the spec's tables). */
export function addressPointer(recordsKey: string, at: string): string {
  return recordsKey === "ATM"
    ? pointerJoin(pointerJoin(at, "Location"), "PostalAddress")
    : pointerJoin(at, "PostalAddress");
}

/** A record's postal address: a branch's PostalAddress, an ATM's Location.PostalAddress. */
export function addressOf(
  record: unknown,
  recordsKey: string,
): Record<string, unknown> | undefined {
  return recordsKey === "ATM"
    ? objectAt(objectAt(record, "Location"), "PostalAddress")
    : objectAt(record, "PostalAddress");
}

/** The pointer of an address's coordinates. */
export const coordinatesPointer = (address: string) =>
  pointerJoin(pointerJoin(address, "GeoLocation"), "GeographicCoordinates");

/**
 * An address's latitude and longitude, when both read as numbers (the schema writes them as
 * decimal strings), whatever their range: the data-quality rules say what is wrong with them.
 */
export function coordinatesOf(address: Record<string, unknown> | undefined): Point | undefined {
  const coordinates = objectAt(objectAt(address, "GeoLocation"), "GeographicCoordinates");
  if (!coordinates) return undefined;
  const latitude = Number(coordinates.Latitude);
  const longitude = Number(coordinates.Longitude);
  return Number.isFinite(latitude) && Number.isFinite(longitude)
    ? { latitude, longitude }
    : undefined;
}

/** Whether a point is a position on Earth: latitude within ±90, longitude within ±180. */
export const isOnEarth = ({ latitude, longitude }: Point): boolean =>
  Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;

/** A UK postcode as read. */
export interface Postcode {
  /** As Royal Mail writes it: capitals, one space ("SW1A 1AA"). */
  readonly normalised: string;
  readonly keys: PostcodeKeys;
  /** The postcode area, its leading letters ("SW"); none for GIR 0AA, which is in no area. */
  readonly area: string | undefined;
}

// The one postcode outside the pattern (Girobank's), which the package does not accept.
const GIROBANK: Postcode = {
  normalised: "GIR 0AA",
  keys: keysOf("GIR", "0AA"),
  area: undefined,
};

/**
 * A full UK postcode in the Royal Mail format, any case, its white space wherever it is set
 * aside ("wx1  4ab" and "W4 5 LG" are WX1 4AB and W4 5LG); undefined when `text` is not one.
 */
export function readPostcode(text: string): Postcode | undefined {
  const compact = compactPostcode(text);
  if (compact === "GIR0AA") return GIROBANK;
  if (!isValid(compact)) return undefined;
  // Valid, its last three characters are the inward code (the package's toIncode).
  const outward = compact.slice(0, -3);
  const inward = compact.slice(-3);
  return {
    normalised: `${outward} ${inward}`,
    keys: keysOf(outward, inward),
    // The leading letters, as the package's toArea gives them.
    area: /^[A-Z]{1,2}/.exec(compact)![0],
  };
}

/** Whether `value` is a postcode written as Royal Mail writes it: capitals, one space. */
export function isRoyalMailForm(value: string): boolean {
  return readPostcode(value)?.normalised === value;
}

/**
 * How `value` should be written, when a fix gives a postcode in the format: spaces and capitals
 * put right, and a letter O or I where the inward code's digit belongs read as 0 or 1.
 */
export function postcodeFix(value: string): string | undefined {
  const fixed = fix(value.trim());
  return isRoyalMailForm(fixed) && fixed !== value ? fixed : undefined;
}

/** The postcode area of `value` once fixed ("CH" of "CH7 1AR"), or undefined when it is no postcode. */
export function postcodeArea(value: string | undefined): string | undefined {
  return value === undefined ? undefined : readPostcode(fix(value.trim()))?.area;
}
