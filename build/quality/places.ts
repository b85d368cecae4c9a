/**
 * Where a record says it is: a Country that is no ISO 3166-1 code; coordinates that are zero,
 * swapped, sign-flipped or outside the record's Country (in a Crown dependency, said by name); one
 * position given to records in postcode areas far apart; and UK postcodes not in the Royal Mail
 * format. A record's postcode area is placed where the file's other records in that area are,
 * so a corrected coordinate is offered only when it lands among them.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { pointerJoin } from "../core/json-pointer.js";
import { textOf } from "../core/json-value.js";
import { someOf, warning, type Observation, type RecordInFile } from "./context.js";
import { NOT_THE_UK, countryMeant, isCountryCode } from "./countries.js";
import { addressOf, coordinatesOf, type Spot } from "./facts.js";
import { isRoyalMailForm, postcodeArea, postcodeFix } from "./postcodes.js";

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

const inside = ([south, north, west, east]: Box, latitude: number, longitude: number) =>
  latitude >= south && latitude <= north && longitude >= west && longitude <= east;

interface Point {
  readonly latitude: number;
  readonly longitude: number;
}

/** Kilometres between two points (equirectangular: close enough at these distances). */
function kilometres(a: Point, b: Point): number {
  const x = (b.longitude - a.longitude) * Math.cos(((a.latitude + b.latitude) / 360) * Math.PI);
  const y = b.latitude - a.latitude;
  return Math.sqrt(x * x + y * y) * 111.2;
}

/** A corrected position counts as in a postcode area when it is this close to the area's centre. */
const NEAR_AREA_KM = 50;
/** Two postcode areas whose centres are further apart than this cannot share one address. */
const FAR_APART_KM = 80;

/** What the place rules read of one record. */
export interface RecordPlace {
  /** Country as written. */
  readonly written: string | undefined;
  /** The ISO code it means: as written, or the code a plain non-ISO one stands for ("UK"). */
  readonly country: string | undefined;
  readonly area: string | undefined;
  readonly coordinates: Point | undefined;
}

/** The place of the record at `pointer`. */
export function recordPlace(record: unknown, recordsKey: string, pointer: string): RecordPlace {
  const { address } = addressOf(record, recordsKey, pointer);
  const written = textOf(address?.Country);
  const country =
    written === undefined ? undefined : isCountryCode(written) ? written : countryMeant(written);
  const postcode = textOf(address?.PostCode);
  const area = country && ROYAL_MAIL_COUNTRIES.has(country) ? postcodeArea(postcode) : undefined;
  return { written, country, area, coordinates: coordinatesOf(address) };
}

/**
 * Where each postcode area of a file is: the median position of its records that lie in their
 * Country. A feed's own records place its areas, with no table of areas to keep.
 */
export function areaCentres(places: readonly RecordPlace[]): ReadonlyMap<string, Point> {
  const byArea = new Map<string, Point[]>();
  for (const { area, coordinates, country } of places) {
    if (!area || !coordinates || !country) continue;
    const box = COUNTRY_BOXES[country];
    if (!box || !inside(box, coordinates.latitude, coordinates.longitude)) continue;
    const list = byArea.get(area);
    if (list) list.push(coordinates);
    else byArea.set(area, [coordinates]);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
  const centres = new Map<string, Point>();
  for (const [area, points] of byArea) {
    centres.set(area, {
      latitude: median(points.map((p) => p.latitude)),
      longitude: median(points.map((p) => p.longitude)),
    });
  }
  return centres;
}

/** The place warnings of one record, given its place and the file's postcode area centres. */
export function checkPlace(
  { file, record, pointer, recordsKey, spot }: RecordInFile,
  place: RecordPlace,
  centres: ReadonlyMap<string, Point>,
  label: string,
): Observation[] {
  const found: Observation[] = [];
  const { address, pointer: addressAt } = addressOf(record, recordsKey, pointer);
  if (!address) return found;
  const { written, country, area, coordinates } = place;
  const one = (at: Spot, rule: Parameters<typeof warning>[2], message: string): Observation => ({
    key: `${rule}\0${pointer}`,
    alone: warning(file, at, rule, message),
    label,
    together: () => message,
  });
  // Country: ISO 3166-1 alpha-2 (the spec's CountryCode); "UK" is the one real feeds write.
  if (written !== undefined && !isCountryCode(written)) {
    const instead = country ? `write "${country}"` : 'write its ISO 3166-1 code, like "GB"';
    found.push({
      key: `country-code\0${written}`,
      alone: warning(
        file,
        spot(pointerJoin(addressAt, "Country")),
        "country-code",
        `Country "${written}" is not an ISO 3166-1 alpha-2 code; ${instead}`,
      ),
      label,
      together: (count, records) =>
        `Country "${written}" is not an ISO 3166-1 alpha-2 code, in ${count.toLocaleString("en-GB")} records (${records}); ${instead}`,
    });
  }
  const coordinatesAt = () =>
    spot(pointerJoin(pointerJoin(addressAt, "GeoLocation"), "GeographicCoordinates"));
  if (coordinates) {
    const { latitude, longitude } = coordinates;
    const box = country === undefined ? undefined : COUNTRY_BOXES[country];
    const centre = area === undefined ? undefined : centres.get(area);
    // A corrected position is offered as the fix when it lands in the Country and, where the
    // record's postcode area is placed by other records, near them.
    const lands = (p: Point) =>
      box !== undefined &&
      inside(box, p.latitude, p.longitude) &&
      (centre === undefined || kilometres(p, centre) <= NEAR_AREA_KM);
    const among = centre ? ` with the other records in postcode area ${area}` : ` in ${country}`;
    const flips: [string, Point, string][] = [
      ["Longitude", { latitude, longitude: -longitude }, `Longitude "${-longitude}"`],
      ["Latitude", { latitude: -latitude, longitude }, `Latitude "${-latitude}"`],
    ];
    const territory = Object.keys(NOT_THE_UK).find(
      (code) => code !== country && inside(COUNTRY_BOXES[code]!, latitude, longitude),
    );
    if (latitude === 0 && longitude === 0) {
      found.push(
        one(
          coordinatesAt(),
          "coordinates-zero",
          "the coordinates are 0, 0, in the sea off West Africa; give the real position or leave GeoLocation out",
        ),
      );
    } else if (box && !inside(box, latitude, longitude)) {
      const swapped = { latitude: longitude, longitude: latitude };
      const flipped = centre ? flips.find(([, p]) => lands(p)) : undefined;
      if (lands(swapped)) {
        found.push(
          one(
            coordinatesAt(),
            "coordinates-swapped",
            `Latitude ${latitude} and Longitude ${longitude} look swapped: the other way round they fall${among}; write Latitude "${longitude}", Longitude "${latitude}"`,
          ),
        );
      } else if (flipped) {
        const [which, , fixed] = flipped;
        found.push(
          one(
            coordinatesAt(),
            "coordinates-sign-flipped",
            `${which} ${which === "Longitude" ? longitude : latitude} looks sign-flipped: the other sign puts it${among}; write ${fixed}`,
          ),
        );
      } else if (territory && ROYAL_MAIL_COUNTRIES.has(country!)) {
        // The Crown dependencies and Gibraltar are not part of the UK: each has its own code.
        const name = NOT_THE_UK[territory]!;
        found.push({
          key: `territory\0${territory}`,
          alone: warning(
            file,
            coordinatesAt(),
            "coordinates-outside-country",
            `Latitude ${latitude}, Longitude ${longitude} is in ${name}, not ${country}: Country should be ${territory}`,
          ),
          label,
          together: (count, records) =>
            `${count} records with Country ${country} are in ${name} (${records}): Country should be ${territory}`,
        });
      } else {
        const message = `Latitude ${latitude}, Longitude ${longitude} is outside ${country}, the record's Country`;
        found.push({
          key: `outside\0${latitude},${longitude}`,
          alone: warning(
            file,
            coordinatesAt(),
            "coordinates-outside-country",
            `${message}; give its real position`,
          ),
          label,
          together: (count, records) =>
            `${message}, and ${count} records have it (${records}): a placeholder; give each its real position`,
        });
      }
    }
  }
  const postcode = textOf(address.PostCode);
  if (postcode !== undefined && country !== undefined && ROYAL_MAIL_COUNTRIES.has(country)) {
    if (!isRoyalMailForm(postcode)) {
      const tidy = postcodeFix(postcode);
      const at = spot(pointerJoin(addressAt, "PostCode"));
      const message = `PostCode "${postcode}" is not in the Royal Mail format (like "SW1A 1AA")${tidy ? `; write it "${tidy}"` : ""}`;
      const fault = tidy === undefined ? undefined : postcodeFault(postcode, tidy);
      found.push(
        fault === undefined
          ? one(at, "postcode-format", message)
          : {
              // A fault of the publisher's export (padding to a fixed width, say) is one finding.
              key: `postcode\0${fault}`,
              alone: warning(file, at, "postcode-format", message),
              label,
              together: (count, records) =>
                `${count} PostCodes ${fault} (${records}), such as "${postcode}": write each as Royal Mail does, "${tidy}" for this one`,
            },
      );
    }
  }
  return found;
}

/** What is wrong with a postcode that `fixed` puts right, when it is only its layout. */
function postcodeFault(postcode: string, fixed: string): string | undefined {
  if (postcode.replace(/\s+/g, " ").trim() === fixed) return "have more spaces than one";
  if (!/\s/.test(postcode) && postcode.toUpperCase() === fixed.replace(" ", ""))
    return "have no space before the last three characters";
  if (postcode.toUpperCase() === fixed) return "are in lower case";
  return undefined;
}

/** One record of a file, for the shared-position rule. */
export interface PlacedRecord {
  readonly place: RecordPlace;
  readonly label: string;
  /** The place of its coordinates. */
  readonly at: () => Spot;
}

/**
 * One position given to records whose postcode areas lie far apart (by the file's own area
 * centres): a placeholder, or a position or postcode that is wrong. Several records at one site
 * in one area, or in neighbouring areas, are how banks publish and pass.
 */
export function checkSharedPositions(
  file: string,
  records: readonly PlacedRecord[],
  centres: ReadonlyMap<string, Point>,
): Diagnostic[] {
  const byPosition = new Map<string, PlacedRecord[]>();
  for (const record of records) {
    const { coordinates, area } = record.place;
    if (!coordinates || !area) continue;
    const key = `${coordinates.latitude},${coordinates.longitude}`;
    const list = byPosition.get(key);
    if (list) list.push(record);
    else byPosition.set(key, [record]);
  }
  const found: Diagnostic[] = [];
  for (const group of byPosition.values()) {
    const areas = [...new Set(group.map((r) => r.place.area!))].filter((a) => centres.has(a));
    let widest: [string, string, number] | undefined;
    for (let i = 0; i < areas.length; i++) {
      for (let j = i + 1; j < areas.length; j++) {
        const km = kilometres(centres.get(areas[i]!)!, centres.get(areas[j]!)!);
        if (km > FAR_APART_KM && (!widest || km > widest[2])) widest = [areas[i]!, areas[j]!, km];
      }
    }
    if (!widest) continue;
    const [a, b, km] = widest;
    const { latitude, longitude } = group[0]!.place.coordinates!;
    const inArea = (area: string) =>
      someOf(
        group.filter((r) => r.place.area === area).map((r) => r.label),
        3,
      );
    found.push(
      warning(
        file,
        group[0]!.at(),
        "coordinates-shared",
        `Latitude ${latitude}, Longitude ${longitude} is the position of ${group.length} records in postcode areas about ${Math.round(km)} km apart: ${a} (${inArea(a)}) and ${b} (${inArea(b)}); a placeholder or a mistake: give each record its own position`,
      ),
    );
  }
  return found;
}
