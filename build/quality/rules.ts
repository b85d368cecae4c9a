/**
 * The data-quality rules: the one list. Each rule is one object (rule.ts): its stable id (what
 * site.yaml's QualityErrors names, what warnings carry as their rule, what the summary and the
 * --quality report count by), its scope, its check, and the text docs/editing.md's table shows
 * (test/build/quality/rules.test.ts holds the table, and site.schema.json's list of ids, to this
 * list). per-file.ts and pass.ts run every rule listed here by its scope, in this order.
 */
import { duplicateLocation, duplicateProduct } from "./duplicates.js";
import {
  atm24HoursNote,
  availabilityEnded,
  hoursClosingNotAfterOpening,
  hoursDayTwice,
  hoursOverlap,
} from "./hours.js";
import { identifierPlaceholder } from "./identifiers.js";
import { atmUnknownBranch, branchAtmNotLinked } from "./links.js";
import { brandSpelling, nameSpelling } from "./names.js";
import {
  coordinatesOutsideCountry,
  coordinatesShared,
  coordinatesSignFlipped,
  coordinatesSwapped,
  coordinatesZero,
  countryCodeRule,
  postcodeFormat,
} from "./places.js";
import type { ContentRule, FileRule, QualityRule, RecordRule } from "./rule.js";

export const QUALITY_RULES: readonly QualityRule[] = [
  nameSpelling,
  brandSpelling,
  countryCodeRule,
  coordinatesZero,
  coordinatesSwapped,
  coordinatesSignFlipped,
  coordinatesOutsideCountry,
  coordinatesShared,
  postcodeFormat,
  identifierPlaceholder,
  atmUnknownBranch,
  branchAtmNotLinked,
  hoursClosingNotAfterOpening,
  hoursOverlap,
  hoursDayTwice,
  atm24HoursNote,
  duplicateLocation,
  duplicateProduct,
  availabilityEnded,
];

export const QUALITY_RULE_IDS: readonly string[] = QUALITY_RULES.map((rule) => rule.id);

/** The rule with this id, if there is one. */
export function qualityRule(id: string): QualityRule | undefined {
  return QUALITY_RULES.find((rule) => rule.id === id);
}

/** The rules about one record alone, in list order. */
export const RECORD_RULES = QUALITY_RULES.filter((r): r is RecordRule => r.scope === "record");
/** The rules about the records of one file together. */
export const FILE_RULES = QUALITY_RULES.filter((r): r is FileRule => r.scope === "file");
/** The rules across files and data sets. */
export const CONTENT_RULES = QUALITY_RULES.filter((r): r is ContentRule => r.scope === "content");
