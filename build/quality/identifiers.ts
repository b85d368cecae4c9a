/**
 * Identifiers that are not: a record's Identification, or an ATM's Branch.Identification, that
 * reads "true", "false", "null", "N/A" or nothing but dashes and spaces. Real feeds carry them
 * where the publisher's export wrote a flag or a blank instead of the branch's identifier.
 */
import { pointerJoin } from "../core/json-pointer.js";
import { objectAt, textOf } from "../core/json-value.js";
import { finding } from "./context.js";
import { branchRefPointer } from "./facts.js";
import type { Observation, RecordRule } from "./rule.js";

// Words and marks an export writes where it has no identifier; compared without case.
const NOT_AN_IDENTIFIER =
  /^(?:true|false|null|undefined|none|nil|n\/?a|tbc|tba|unknown|[\s\-_.?]*)$/i;

/** Whether `value` only stands in for an identifier. */
export const isPlaceholderIdentifier = (value: string): boolean => NOT_AN_IDENTIFIER.test(value);

export const identifierPlaceholder: RecordRule = {
  id: "identifier-placeholder",
  scope: "record",
  text: "an `Identification` or an ATM's `Branch.Identification` that is no identifier: `true`, `false`, `null`, `N/A`, blank or dashes",
  check({ file, record, facts, pointer, recordsKey, spot, label }) {
    const found: Observation[] = [];
    const own = facts.id;
    if (own !== undefined && isPlaceholderIdentifier(own)) {
      const instead = "give each record its own identifier";
      found.push({
        key: `identifier\0${own}`,
        alone: finding(
          file,
          spot(pointerJoin(pointer, "Identification")),
          `Identification ${JSON.stringify(own)} is not an identifier; ${instead}`,
        ),
        label,
        together: (count, records) =>
          `Identification ${JSON.stringify(own)} is not an identifier, in ${count} records (${records}); ${instead}`,
      });
    }
    const branch =
      recordsKey === "ATM" ? textOf(objectAt(record, "Branch")?.Identification) : undefined;
    if (branch !== undefined && isPlaceholderIdentifier(branch)) {
      const instead =
        "give the Identification of the branch the ATM belongs to, or leave Branch out";
      found.push({
        key: `branch\0${branch}`,
        alone: finding(
          file,
          spot(branchRefPointer(pointer)),
          `Branch.Identification ${JSON.stringify(branch)} is not an identifier; ${instead}`,
        ),
        label,
        together: (count, records) =>
          `Branch.Identification ${JSON.stringify(branch)} is not an identifier, in ${count.toLocaleString("en-GB")} ATMs (${records}); ${instead}`,
      });
    }
    return found;
  },
};
