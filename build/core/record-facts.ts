/**
 * What the build reads of one record, read once and one way for the data-quality rules (on the
 * check threads, from the YAML) and the near-me index (from the published body): its
 * identifier, its place (build/core/place.ts, contract/place.ts), a branch's sort codes and a
 * product's segments (open-data-api-v2.2.md and open-data-api-v2.2-products.md name the fields).
 */
import { countryCode } from "../../contract/place.js";
import { fieldOf, textOf } from "./json-value.js";
import { addressOf, coordinatesOf, readPostcode, type Point, type Postcode } from "./place.js";

/** The facts of one record; absent where the record does not say. */
export interface RecordFacts {
  /** Identification. */
  readonly id: string | undefined;
  /** Country as written. */
  readonly country: string | undefined;
  /** The ISO 3166-1 code Country means: itself, or what an alias stands for ("UK" is GB). */
  readonly countryCode: string | undefined;
  /** TownName as written. */
  readonly town: string | undefined;
  /** PostCode as written. */
  readonly postcode: string | undefined;
  /** PostCode read, when it is a full UK postcode (readPostcode). */
  readonly postcodeRead: Postcode | undefined;
  /** Latitude and longitude when both are numbers, whatever their range (see isOnEarth). */
  readonly coordinates: Point | undefined;
  /** A branch's sort codes, digits only, the six-digit ones. */
  readonly sortcodes: readonly string[];
  /** A product's segment codes. */
  readonly segments: readonly string[];
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** The facts of one record of the data set whose records are listed under `recordsKey`. */
export function recordFacts(record: unknown, recordsKey: string): RecordFacts {
  const address = addressOf(record, recordsKey);
  const country = textOf(address?.Country);
  const postcode = textOf(address?.PostCode);
  const segment = fieldOf(record, "Segment");
  return {
    id: textOf(fieldOf(record, "Identification")),
    country,
    countryCode: country === undefined ? undefined : countryCode(country),
    town: textOf(address?.TownName),
    postcode,
    postcodeRead: postcode === undefined ? undefined : readPostcode(postcode),
    coordinates: coordinatesOf(address),
    sortcodes: strings(fieldOf(record, "SortCode"))
      .map((code) => code.replace(/\D/g, ""))
      .filter((code) => code.length === 6),
    segments: typeof segment === "string" ? [segment] : strings(segment),
  };
}
