/**
 * What the extension endpoints select records by, read from one published record: its place (a
 * branch's PostalAddress, an ATM's Location.PostalAddress), a branch's sort codes, a product's
 * segments (open-data-api-v2.2.md and open-data-api-v2.2-products.md name the fields).
 */
import { normaliseCountry, normaliseTown, postcodeKeys } from "../../contract/near.js";

/** The facts of one record that the filters use; absent where the record does not say. */
export interface RecordFacts {
  readonly latitude?: number;
  readonly longitude?: number;
  /** Upper case, UK read as GB (normaliseCountry). */
  readonly country?: string;
  /** Normalised by normaliseTown. */
  readonly town?: string;
  /** The postcode's unit key (no spaces, upper case), when it is a full UK postcode. */
  readonly postcode?: string;
  /** Digits only. */
  readonly sortcodes: readonly string[];
  readonly segments: readonly string[];
}

type Json = Record<string, unknown>;

const object = (value: unknown): Json | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Json)
    : undefined;
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** The facts of one record of any data set. */
export function recordFacts(record: unknown): RecordFacts {
  const r = object(record) ?? {};
  const address = object(r.PostalAddress) ?? object(object(r.Location)?.PostalAddress) ?? {};
  const at = object(object(address.GeoLocation)?.GeographicCoordinates);
  // The schema holds coordinates as decimal strings; anything that is not a number in range is
  // treated as no position rather than placed somewhere wrong.
  const latitude = Number(at?.Latitude);
  const longitude = Number(at?.Longitude);
  const located =
    at !== undefined &&
    Number.isFinite(latitude) &&
    Number.isFinite(longitude) &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180;
  const town = typeof address.TownName === "string" ? normaliseTown(address.TownName) : undefined;
  const postcode =
    typeof address.PostCode === "string" ? postcodeKeys(address.PostCode)?.unit : undefined;
  return {
    ...(located ? { latitude, longitude } : {}),
    ...(typeof address.Country === "string" ? { country: normaliseCountry(address.Country) } : {}),
    ...(town ? { town } : {}),
    ...(postcode ? { postcode } : {}),
    sortcodes: strings(r.SortCode)
      .map((code) => code.replace(/\D/g, ""))
      .filter((code) => code.length === 6),
    segments: typeof r.Segment === "string" ? [r.Segment] : strings(r.Segment),
  };
}
