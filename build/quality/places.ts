/**
 * Where a record says it is: a Country that is no ISO 3166-1 code; coordinates that are zero,
 * swapped, sign-flipped or outside the record's Country (in a Crown dependency, said by name); one
 * position given to records in postcode areas far apart; and UK postcodes not in the Royal Mail
 * format. A record's postcode area is placed where the file's other records in that area are,
 * so a corrected coordinate is offered only when it lands among them. Places are read through
 * the one place model (build/core/place.ts, contract/place.ts).
 */
import { COUNTRY_CODES, distanceKm } from "../../contract/place.js";
import { pointerJoin } from "../core/json-pointer.js";
import {
  addressPointer,
  coordinatesPointer,
  isRoyalMailForm,
  postcodeArea,
  postcodeFix,
  type Point,
} from "../core/place.js";
import type { RecordFacts } from "../core/record-facts.js";
import { finding, someOf } from "./context.js";
import type { Spot } from "./facts.js";
import type { FileRule, Finding, Observation, RecordInFile, RecordRule } from "./rule.js";

/** [south, north, west, east] in decimal degrees. */
type Box = readonly [number, number, number, number];

/**
 * Bounding boxes of the countries a UK publisher's records are found in (ISO 3166-1 alpha-2, as
 * Country is written), each taking in the country's islands: the UK (Scilly to Shetland, Northern
 * Ireland), the Crown dependencies, and the neighbours. Public geographic facts, rounded outwards.
 */
const COUNTRY_BOXES: Readonly<Record<string, Box>> = {
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

/**
 * Places a UK bank serves that are not the UK, each with its own ISO 3166-1 code: the Crown
 * dependencies, and Gibraltar (a British overseas territory).
 */
const NOT_THE_UK: Readonly<Record<string, string>> = {
  JE: "Jersey",
  GG: "Guernsey",
  IM: "the Isle of Man",
  GI: "Gibraltar",
};

/** Countries whose postcodes follow the Royal Mail format (the UK and the Crown dependencies). */
const ROYAL_MAIL_COUNTRIES = new Set(["GB", "GG", "JE", "IM"]);

const inside = ([south, north, west, east]: Box, latitude: number, longitude: number) =>
  latitude >= south && latitude <= north && longitude >= west && longitude <= east;

const kilometres = (a: Point, b: Point) =>
  distanceKm(a.latitude, a.longitude, b.latitude, b.longitude);

/** A corrected position counts as in a postcode area when it is this close to the area's centre. */
const NEAR_AREA_KM = 50;
/** Two postcode areas whose centres are further apart than this cannot share one address. */
const FAR_APART_KM = 80;

/**
 * The postcode area of a record whose Country's postcodes are Royal Mail's ("CH" of "CH7 1AR"),
 * of its postcode as read or, when that reads as none, once fixed.
 */
export function areaOf(facts: RecordFacts): string | undefined {
  const { countryCode } = facts;
  if (!countryCode || !ROYAL_MAIL_COUNTRIES.has(countryCode)) return undefined;
  return facts.postcodeRead?.area ?? postcodeArea(facts.postcode);
}

/**
 * Where each postcode area of a file is: the median position of its records that lie in their
 * Country. A feed's own records place its areas, with no table of areas to keep.
 */
export function areaCentres(
  records: readonly { readonly facts: RecordFacts; readonly area: string | undefined }[],
): ReadonlyMap<string, Point> {
  const byArea = new Map<string, Point[]>();
  for (const { area, facts } of records) {
    const { coordinates, countryCode } = facts;
    if (!area || !coordinates || !countryCode) continue;
    const box = COUNTRY_BOXES[countryCode];
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

/** The place of a record's coordinates in its file. */
const coordinatesAt = (r: RecordInFile): Spot =>
  r.spot(coordinatesPointer(addressPointer(r.recordsKey, r.pointer)));

/** What is wrong with a record's coordinates, if anything: one fault, the likeliest. */
type CoordinatesFault =
  | { readonly kind: "zero" }
  | { readonly kind: "swapped"; readonly among: string }
  | {
      readonly kind: "sign-flipped";
      readonly among: string;
      readonly which: "Latitude" | "Longitude";
      readonly fixed: string;
    }
  | { readonly kind: "territory"; readonly code: string }
  | { readonly kind: "outside" };

// Four rules read each record's fault: worked out once per record and held by it, as hours.ts
// holds its days (RecordInFile.worked).
function coordinatesFault(r: RecordInFile): CoordinatesFault | undefined {
  if (!r.worked.has("fault")) r.worked.set("fault", faultOf(r));
  return r.worked.get("fault") as CoordinatesFault | undefined;
}

/**
 * The fault of a record's coordinates against its Country's box: zeros; else, outside the box,
 * a swap or a sign that puts them right, a Crown dependency or Gibraltar, or just outside.
 */
function faultOf({ facts, area, centres }: RecordInFile): CoordinatesFault | undefined {
  const { coordinates, countryCode: country } = facts;
  if (!coordinates) return undefined;
  const { latitude, longitude } = coordinates;
  if (latitude === 0 && longitude === 0) return { kind: "zero" };
  const box = country === undefined ? undefined : COUNTRY_BOXES[country];
  if (!box || inside(box, latitude, longitude)) return undefined;
  const centre = area === undefined ? undefined : centres.get(area);
  // A corrected position is offered as the fix when it lands in the Country and, where the
  // record's postcode area is placed by other records, near them.
  const lands = (p: Point) =>
    inside(box, p.latitude, p.longitude) &&
    (centre === undefined || kilometres(p, centre) <= NEAR_AREA_KM);
  const among = centre ? ` with the other records in postcode area ${area}` : ` in ${country}`;
  if (lands({ latitude: longitude, longitude: latitude })) return { kind: "swapped", among };
  if (centre) {
    if (lands({ latitude, longitude: -longitude }))
      return {
        kind: "sign-flipped",
        among,
        which: "Longitude",
        fixed: `Longitude "${-longitude}"`,
      };
    if (lands({ latitude: -latitude, longitude }))
      return { kind: "sign-flipped", among, which: "Latitude", fixed: `Latitude "${-latitude}"` };
  }
  // The Crown dependencies and Gibraltar are not part of the UK: each has its own code.
  const territory = Object.keys(NOT_THE_UK).find(
    (code) => code !== country && inside(COUNTRY_BOXES[code]!, latitude, longitude),
  );
  if (territory && ROYAL_MAIL_COUNTRIES.has(country!))
    return { kind: "territory", code: territory };
  return { kind: "outside" };
}

/** Country: ISO 3166-1 alpha-2 (the spec's CountryCode); "UK" is the one real feeds write. */
export const countryCodeRule: RecordRule = {
  id: "country-code",
  scope: "record",
  text: "a `Country` that is not an ISO 3166-1 alpha-2 code; `UK` is `GB`, `EL` is `GR`",
  check(r) {
    const written = r.facts.country;
    if (written === undefined || COUNTRY_CODES.has(written)) return [];
    const meant = r.facts.countryCode;
    const instead = meant ? `write "${meant}"` : 'write its ISO 3166-1 code, like "GB"';
    const at = r.spot(pointerJoin(addressPointer(r.recordsKey, r.pointer), "Country"));
    return [
      {
        key: written,
        alone: finding(
          r.file,
          at,
          `Country "${written}" is not an ISO 3166-1 alpha-2 code; ${instead}`,
        ),
        label: r.label,
        together: (count, records) =>
          `Country "${written}" is not an ISO 3166-1 alpha-2 code, in ${count.toLocaleString("en-GB")} records (${records}); ${instead}`,
      },
    ];
  },
};

export const coordinatesZero: RecordRule = {
  id: "coordinates-zero",
  scope: "record",
  text: "Latitude and Longitude both 0: a missing position written as zeros",
  check(r) {
    if (coordinatesFault(r)?.kind !== "zero") return [];
    return [
      finding(
        r.file,
        coordinatesAt(r),
        "the coordinates are 0, 0, in the sea off West Africa; give the real position or leave GeoLocation out",
      ),
    ];
  },
};

export const coordinatesSwapped: RecordRule = {
  id: "coordinates-swapped",
  scope: "record",
  text: "coordinates outside the record's `Country` that fall inside it the other way round; gives the corrected pair",
  check(r) {
    const fault = coordinatesFault(r);
    if (fault?.kind !== "swapped") return [];
    const { latitude, longitude } = r.facts.coordinates!;
    return [
      finding(
        r.file,
        coordinatesAt(r),
        `Latitude ${latitude} and Longitude ${longitude} look swapped: the other way round they fall${fault.among}; write Latitude "${longitude}", Longitude "${latitude}"`,
      ),
    ];
  },
};

export const coordinatesSignFlipped: RecordRule = {
  id: "coordinates-sign-flipped",
  scope: "record",
  text: "a Longitude (or Latitude) whose other sign puts the record among the file's other records in its postcode area; gives the corrected value",
  check(r) {
    const fault = coordinatesFault(r);
    if (fault?.kind !== "sign-flipped") return [];
    const { latitude, longitude } = r.facts.coordinates!;
    const value = fault.which === "Longitude" ? longitude : latitude;
    return [
      finding(
        r.file,
        coordinatesAt(r),
        `${fault.which} ${value} looks sign-flipped: the other sign puts it${fault.among}; write ${fault.fixed}`,
      ),
    ];
  },
};

export const coordinatesOutsideCountry: RecordRule = {
  id: "coordinates-outside-country",
  scope: "record",
  text: "coordinates outside the record's `Country` (the UK, the Crown dependencies and the neighbours; others unchecked); in Jersey, Guernsey, the Isle of Man or Gibraltar it says so and gives the code",
  check(r) {
    const fault = coordinatesFault(r);
    if (fault?.kind !== "territory" && fault?.kind !== "outside") return [];
    const { latitude, longitude } = r.facts.coordinates!;
    const country = r.facts.countryCode!;
    if (fault.kind === "territory") {
      const name = NOT_THE_UK[fault.code]!;
      return [
        {
          key: `territory\0${fault.code}`,
          alone: finding(
            r.file,
            coordinatesAt(r),
            `Latitude ${latitude}, Longitude ${longitude} is in ${name}, not ${country}: Country should be ${fault.code}`,
          ),
          label: r.label,
          together: (count, records) =>
            `${count} records with Country ${country} are in ${name} (${records}): Country should be ${fault.code}`,
        },
      ];
    }
    const message = `Latitude ${latitude}, Longitude ${longitude} is outside ${country}, the record's Country`;
    return [
      {
        key: `outside\0${latitude},${longitude}`,
        alone: finding(r.file, coordinatesAt(r), `${message}; give its real position`),
        label: r.label,
        together: (count, records) =>
          `${message}, and ${count} records have it (${records}): a placeholder; give each its real position`,
      },
    ];
  },
};

/** What is wrong with a postcode that `fixed` puts right, when it is only its layout. */
function postcodeFault(postcode: string, fixed: string): string | undefined {
  if (postcode.replace(/\s+/g, " ").trim() === fixed) return "have more spaces than one";
  if (!/\s/.test(postcode) && postcode.toUpperCase() === fixed.replace(" ", ""))
    return "have no space before the last three characters";
  if (postcode.toUpperCase() === fixed) return "are in lower case";
  return undefined;
}

export const postcodeFormat: RecordRule = {
  id: "postcode-format",
  scope: "record",
  text: "a `PostCode` for Country GB, GG, JE or IM not in the Royal Mail format (`SW1A 1AA`, `GIR 0AA`); gives the corrected postcode where it can",
  check(r) {
    const { postcode, countryCode } = r.facts;
    if (postcode === undefined || countryCode === undefined) return [];
    if (!ROYAL_MAIL_COUNTRIES.has(countryCode) || isRoyalMailForm(postcode)) return [];
    const tidy = postcodeFix(postcode);
    const at = r.spot(pointerJoin(addressPointer(r.recordsKey, r.pointer), "PostCode"));
    const message = `PostCode "${postcode}" is not in the Royal Mail format (like "SW1A 1AA")${tidy ? `; write it "${tidy}"` : ""}`;
    const fault = tidy === undefined ? undefined : postcodeFault(postcode, tidy);
    const alone = finding(r.file, at, message);
    if (fault === undefined) return [alone];
    // A fault of the publisher's export (padding to a fixed width, say) is one finding.
    const found: Observation = {
      key: fault,
      alone,
      label: r.label,
      together: (count, records) =>
        `${count} PostCodes ${fault} (${records}), such as "${postcode}": write each as Royal Mail does, "${tidy}" for this one`,
    };
    return [found];
  },
};

/**
 * One position given to records whose postcode areas lie far apart (by the file's own area
 * centres): a placeholder, or a position or postcode that is wrong. Several records at one site
 * in one area, or in neighbouring areas, are how banks publish and pass.
 */
export const coordinatesShared: FileRule = {
  id: "coordinates-shared",
  scope: "file",
  text: "one position given to records whose postcode areas lie far apart (over 80 km): a placeholder, or a wrong position or postcode",
  check({ file, records, centres }) {
    const byPosition = new Map<string, RecordInFile[]>();
    for (const record of records) {
      const { coordinates } = record.facts;
      if (!coordinates || !record.area) continue;
      const key = `${coordinates.latitude},${coordinates.longitude}`;
      const list = byPosition.get(key);
      if (list) list.push(record);
      else byPosition.set(key, [record]);
    }
    const found: Finding[] = [];
    for (const group of byPosition.values()) {
      const areas = [...new Set(group.map((r) => r.area!))].filter((a) => centres.has(a));
      let widest: [string, string, number] | undefined;
      for (let i = 0; i < areas.length; i++) {
        for (let j = i + 1; j < areas.length; j++) {
          const km = kilometres(centres.get(areas[i]!)!, centres.get(areas[j]!)!);
          if (km > FAR_APART_KM && (!widest || km > widest[2])) widest = [areas[i]!, areas[j]!, km];
        }
      }
      if (!widest) continue;
      const [a, b, km] = widest;
      const { latitude, longitude } = group[0]!.facts.coordinates!;
      const inArea = (area: string) =>
        someOf(
          group.filter((r) => r.area === area).map((r) => r.label),
          3,
        );
      found.push(
        finding(
          file,
          coordinatesAt(group[0]!),
          `Latitude ${latitude}, Longitude ${longitude} is the position of ${group.length} records in postcode areas about ${Math.round(km)} km apart: ${a} (${inArea(a)}) and ${b} (${inArea(b)}); a placeholder or a mistake: give each record its own position`,
        ),
      );
    }
    return found;
  },
};
