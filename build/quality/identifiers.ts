/**
 * Identifiers that are not: a record's Identification, or an ATM's Branch.Identification, that
 * reads "true", "false", "null", "N/A" or nothing but dashes and spaces. Real feeds carry them
 * where the publisher's export wrote a flag or a blank instead of the branch's identifier.
 */
import { pointerJoin } from "../core/json-pointer.js";
import { fieldOf, objectAt, textOf } from "../core/json-value.js";
import { warning, type Observation, type RecordInFile } from "./context.js";
import { branchRefPointer } from "./facts.js";

// Words and marks an export writes where it has no identifier; compared without case.
const NOT_AN_IDENTIFIER =
  /^(?:true|false|null|undefined|none|nil|n\/?a|tbc|tba|unknown|[\s\-_.?]*)$/i;

/** Whether `value` only stands in for an identifier. */
export const isPlaceholderIdentifier = (value: string): boolean => NOT_AN_IDENTIFIER.test(value);

/** The identifier warnings of one record. */
export function checkIdentifiers(
  { file, record, pointer, recordsKey, spot }: RecordInFile,
  label: string,
): Observation[] {
  const found: Observation[] = [];
  const own = textOf(fieldOf(record, "Identification"));
  if (own !== undefined && isPlaceholderIdentifier(own)) {
    const instead = "give each record its own identifier";
    found.push({
      key: `identifier\0${own}`,
      alone: warning(
        file,
        spot(pointerJoin(pointer, "Identification")),
        "identifier-placeholder",
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
    const instead = "give the Identification of the branch the ATM belongs to, or leave Branch out";
    found.push({
      key: `branch\0${branch}`,
      alone: warning(
        file,
        spot(branchRefPointer(pointer)),
        "identifier-placeholder",
        `Branch.Identification ${JSON.stringify(branch)} is not an identifier; ${instead}`,
      ),
      label,
      together: (count, records) =>
        `Branch.Identification ${JSON.stringify(branch)} is not an identifier, in ${count.toLocaleString("en-GB")} ATMs (${records}); ${instead}`,
    });
  }
  return found;
}
