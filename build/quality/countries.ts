/**
 * Country codes: the ISO 3166-1 alpha-2 codes that Country is written in (the Open Data API's
 * CountryCode), the codes publishers write instead, and the places near the UK that are not it.
 */

// The 249 officially assigned codes of ISO 3166-1 alpha-2.
const ASSIGNED = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS
BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE
EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM
HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC
LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW
SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO
TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`;

const ISO_3166_ALPHA_2 = new Set(ASSIGNED.trim().split(/\s+/));

/**
 * Codes that are not ISO 3166-1 codes but whose meaning is plain: ISO reserves UK and EL for the
 * United Kingdom and Greece at their request, and both are written in real feeds.
 */
const MEANT: Readonly<Record<string, string>> = { UK: "GB", EL: "GR" };

/** Whether `code` is an ISO 3166-1 alpha-2 code. */
export const isCountryCode = (code: string): boolean => ISO_3166_ALPHA_2.has(code);

/** The ISO 3166-1 code a non-ISO `code` stands for, when that is plain ("UK" is "GB"). */
export const countryMeant = (code: string): string | undefined => MEANT[code];

/**
 * Places a UK bank serves that are not the UK, each with its own ISO 3166-1 code: the Crown
 * dependencies, and Gibraltar (a British overseas territory).
 */
export const NOT_THE_UK: Readonly<Record<string, string>> = {
  JE: "Jersey",
  GG: "Guernsey",
  IM: "the Isle of Man",
  GI: "Gibraltar",
};
