/**
 * The data-quality rules, by stable id: what each looks for, in an editor's words. The ids are
 * what site.yaml's QualityErrors names, what warnings carry as their rule, and what the summary
 * and the --quality report count by; docs/editing.md ("Data quality") explains each one.
 */
export const QUALITY_RULES = {
  "name-spelling": "the same town, street or county written with different capitals or spacing",
  "brand-spelling": "one brand's BrandName written differently in different data sets",
  "country-code": "a Country that is not an ISO 3166-1 alpha-2 code (UK for GB)",
  "coordinates-zero": "coordinates of 0, 0: a missing position written as zeros",
  "coordinates-swapped": "latitude and longitude the wrong way round",
  "coordinates-sign-flipped": "a longitude or latitude with the wrong sign",
  "coordinates-outside-country": "coordinates outside the record's Country",
  "coordinates-shared": "one position given to records in postcode areas far apart",
  "postcode-format": "a UK postcode not in the Royal Mail format",
  "identifier-placeholder": 'an Identification that is no identifier ("true", "N/A", blank)',
  "atm-unknown-branch": "an ATM's Branch.Identification naming no branch of its brand",
  "branch-atm-not-linked": "a branch with an ATM that no ATM record points back to (a hint)",
  "hours-closing-not-after-opening": "opening hours that close before (or as) they open",
  "hours-overlap": "two opening periods of one day that overlap",
  "hours-day-twice": "one day listed twice in the same opening hours",
  "atm-24-hours-note": "a 24-hour ATM whose notes speak of opening hours (a hint)",
  "duplicate-location": "two branches of one brand at the same address and coordinates",
  "duplicate-product": "two products of one brand the same in all but Identification",
  "availability-ended": "a non-standard availability whose EndDate has passed",
} as const;

export type QualityRuleId = keyof typeof QUALITY_RULES;

export const QUALITY_RULE_IDS = Object.keys(QUALITY_RULES) as QualityRuleId[];

/** Whether `rule` is a data-quality rule. */
export function isQualityRule(rule: string): rule is QualityRuleId {
  return Object.hasOwn(QUALITY_RULES, rule);
}
