/**
 * The place model the build and the Worker share: the country codes a record's Country is written
 * in and the two aliases feeds write, a name as compared, the keys of a UK postcode, and the
 * distance between two points. The data-quality rules, the near-me index and the Worker's
 * extension paths all read places through this one definition; the build side (reading a record's
 * address and coordinates, postcodes through the `postcode` package) is build/core/place.ts.
 * No runtime imports: safe for the Worker's bundle.
 */

/** The 249 officially assigned codes of ISO 3166-1 alpha-2 (the Open Data API's CountryCode). */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR " +
    "BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ " +
    "EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW " +
    "GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY " +
    "KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV " +
    "MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY " +
    "QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG " +
    "TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

/**
 * Codes that are not ISO 3166-1 codes but whose meaning is plain: ISO 3166-1 reserves UK and EL
 * exceptionally, for the United Kingdom and Greece (EL is the European Union's code for Greece);
 * UK is every record's Country in Barclays' and NatWest's feeds
 * (docs/decisions.md#country-aliases-are-read-the-same-everywhere).
 */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = { UK: "GB", EL: "GR" };

/** A country code as compared: upper case, an alias read as the code it stands for ("uk" is GB). */
export function normaliseCountry(code: string): string {
  const upper = code.toUpperCase();
  return COUNTRY_ALIASES[upper] ?? upper;
}

/** The ISO 3166-1 code `code` means (any case, aliases read), or undefined when it means none. */
export function countryCode(code: string): string | undefined {
  const normalised = normaliseCountry(code);
  return COUNTRY_CODES.has(normalised) ? normalised : undefined;
}

/**
 * A name as compared (a town, a street, a county): trimmed, inner white space as one space, lower
 * case. Capitals and runs of spaces do not make another name; most names have neither to fold.
 */
export function normaliseName(name: string): string {
  const lower = name.toLowerCase();
  return /\s\s|^\s|\s$|[^\S ]/.test(lower) ? lower.replace(/\s+/g, " ").trim() : lower;
}

/** Where a UK postcode is looked up: its unit, its sector and its district, without spaces. */
export interface PostcodeKeys {
  /** The whole postcode: "WX14AB". */
  readonly unit: string;
  /** The outward code and the inward code's digit: "WX14". */
  readonly sector: string;
  /** The outward code: "WX1". */
  readonly district: string;
}

// A full UK postcode in the Royal Mail format (BS 7666) without its spaces: the outward code
// (area, district) then the inward code (sector digit, unit letters): the pattern of the
// `postcode` package the build reads postcodes with (build/core/place.ts), plus Girobank's
// GIR 0AA, the one postcode outside it. test/contract/place.test.ts holds the two readings to
// the same answers.
const POSTCODE = /^(?:([A-Z]{1,2}[0-9][A-Z0-9]?)([0-9][A-Z]{2})|(GIR)(0AA))$/;

/** A postcode as compared: without white space, wherever it is, in capitals ("wx1 4ab" is WX14AB). */
export const compactPostcode = (postcode: string): string =>
  postcode.replace(/\s+/g, "").toUpperCase();

/** The keys of a postcode in the Royal Mail format, from its outward and inward codes. */
export function keysOf(outward: string, inward: string): PostcodeKeys {
  return { unit: outward + inward, sector: outward + inward[0], district: outward };
}

/**
 * The keys of a full UK postcode, any case, with or without spaces ("wx1 4ab" gives WX14AB,
 * WX14, WX1); undefined when it is not one. The Worker reads a query's postcode with this; the
 * build writes the index's keys with the `postcode` package's reading, which accepts the same.
 */
export function postcodeKeys(postcode: string): PostcodeKeys | undefined {
  const match = POSTCODE.exec(compactPostcode(postcode));
  if (!match) return undefined;
  return keysOf(match[1] ?? match[3]!, match[2] ?? match[4]!);
}

/** Mean Earth radius (IUGG): 6371.0088 km. */
const EARTH_RADIUS_KM = 6371.0088;
/** The same in statute miles (1 mile = 1.609344 km). */
export const EARTH_RADIUS_MILES = EARTH_RADIUS_KM / 1.609344;

/** The angle in radians between two points given in degrees (haversine formula). */
function centralAngle(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Great-circle distance in miles between two points given in degrees. */
export function distanceMiles(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return EARTH_RADIUS_MILES * centralAngle(lat1, lon1, lat2, lon2);
}

/** Great-circle distance in kilometres between two points given in degrees. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return EARTH_RADIUS_KM * centralAngle(lat1, lon1, lat2, lon2);
}
