/**
 * Where a record says it is: coordinates that are zero, swapped or outside the record's Country,
 * and UK postcodes that are not in the Royal Mail format.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { pointerJoin } from "../core/json-pointer.js";
import { textOf } from "../core/json-value.js";
import { warning, type RecordInFile } from "./context.js";
import { addressOf, coordinatesOf } from "./facts.js";

/** [south, north, west, east] in decimal degrees. */
type Box = readonly [number, number, number, number];

/**
 * Bounding boxes of the countries a UK publisher's records are found in (ISO 3166-1 alpha-2, as
 * Country is written), each taking in the country's islands: the UK (Scilly to Shetland, Northern
 * Ireland), the Crown dependencies, and the neighbours. Public geographic facts, rounded outwards.
 */
export const COUNTRY_BOXES: Readonly<Record<string, Box>> = {
  GB: [49.85, 60.95, -8.7, 1.8],
  GG: [49.4, 49.75, -2.7, -2.15],
  JE: [49.15, 49.28, -2.27, -1.98],
  IM: [54.03, 54.42, -4.83, -4.3],
  IE: [51.4, 55.4, -10.7, -5.9],
  FR: [41.3, 51.1, -5.2, 9.6],
  ES: [27.6, 43.8, -18.2, 4.4],
  PT: [32.6, 42.2, -31.3, -6.2],
  GI: [36.1, 36.16, -5.37, -5.33],
  DE: [47.2, 55.1, 5.8, 15.1],
  NL: [50.7, 53.6, 3.3, 7.3],
  BE: [49.5, 51.5, 2.5, 6.4],
  LU: [49.4, 50.2, 5.7, 6.6],
  IT: [35.4, 47.1, 6.6, 18.6],
  CH: [45.8, 47.9, 5.9, 10.5],
  AT: [46.3, 49.1, 9.5, 17.2],
  DK: [54.5, 57.8, 8.0, 15.2],
};

/** Countries whose postcodes follow the Royal Mail format (the UK and the Crown dependencies). */
const ROYAL_MAIL_COUNTRIES = new Set(["GB", "GG", "JE", "IM"]);

/**
 * The Royal Mail format (BS 7666): an outward code of an area (one or two letters), a district
 * (a digit, then a digit or letter), a space, and an inward code of a digit and two letters; or
 * the one exception, GIR 0AA.
 */
const ROYAL_MAIL_POSTCODE = /^(GIR 0AA|[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2})$/;

const inside = ([south, north, west, east]: Box, latitude: number, longitude: number) =>
  latitude >= south && latitude <= north && longitude >= west && longitude <= east;

/** The coordinate and postcode warnings of one record. */
export function checkPlace({
  file,
  record,
  pointer,
  recordsKey,
  spot,
}: RecordInFile): Diagnostic[] {
  const found: Diagnostic[] = [];
  const { address, pointer: addressAt } = addressOf(record, recordsKey, pointer);
  if (!address) return found;
  const country = textOf(address.Country);
  const coordinates = coordinatesOf(address);
  const coordinatesAt = () =>
    spot(pointerJoin(pointerJoin(addressAt, "GeoLocation"), "GeographicCoordinates"));
  if (coordinates) {
    const { latitude, longitude } = coordinates;
    const box = country === undefined ? undefined : COUNTRY_BOXES[country];
    if (latitude === 0 && longitude === 0) {
      found.push(
        warning(
          file,
          coordinatesAt(),
          "coordinates-zero",
          "the coordinates are 0, 0, in the sea off West Africa; give the real position or leave GeoLocation out",
        ),
      );
    } else if (box && !inside(box, latitude, longitude)) {
      if (inside(box, longitude, latitude)) {
        found.push(
          warning(
            file,
            coordinatesAt(),
            "coordinates-swapped",
            `Latitude ${latitude} and Longitude ${longitude} look swapped: the other way round they fall in ${country}`,
          ),
        );
      } else {
        found.push(
          warning(
            file,
            coordinatesAt(),
            "coordinates-outside-country",
            `Latitude ${latitude}, Longitude ${longitude} is outside ${country}, the record's Country`,
          ),
        );
      }
    }
  }
  const postcode = textOf(address.PostCode);
  if (postcode !== undefined && country !== undefined && ROYAL_MAIL_COUNTRIES.has(country)) {
    if (!ROYAL_MAIL_POSTCODE.test(postcode)) {
      const tidy = postcode
        .toUpperCase()
        .replace(/\s+/g, "")
        .replace(/^(.+)(\d[A-Z]{2})$/, "$1 $2");
      const hint = ROYAL_MAIL_POSTCODE.test(tidy) ? `; write it "${tidy}"` : "";
      found.push(
        warning(
          file,
          spot(pointerJoin(addressAt, "PostCode")),
          "postcode-format",
          `PostCode "${postcode}" is not in the Royal Mail format (like "SW1A 1AA")${hint}`,
        ),
      );
    }
  }
  return found;
}
