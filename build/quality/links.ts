/**
 * Links between ATMs and branches of one brand: an ATM's Branch.Identification that names no
 * branch the brand publishes, and (a hint) a branch that lists an ATM among its services with no
 * ATM record pointing back to it. Only brands that publish both are compared.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { warning, type RecordInContext } from "./context.js";
import { branchRefPointer } from "./facts.js";
import { isPlaceholderIdentifier } from "./identifiers.js";

/** The link warnings of every brand. */
export function checkLinks(records: readonly RecordInContext[]): Diagnostic[] {
  const branchIds = new Map<string, Set<string>>();
  const linkedIds = new Map<string, Set<string>>();
  const hasAtms = new Set<string>();
  for (const { dataset, brand, record } of records) {
    if (dataset.recordsKey === "Branch" && record.id !== undefined) {
      branchIds.set(brand, (branchIds.get(brand) ?? new Set()).add(record.id));
    }
    if (dataset.recordsKey === "ATM") {
      hasAtms.add(brand);
      if (record.branchRef) {
        linkedIds.set(brand, (linkedIds.get(brand) ?? new Set()).add(record.branchRef.value));
      }
    }
  }
  const found: Diagnostic[] = [];
  for (const { file, dataset, brand, record } of records) {
    const branches = branchIds.get(brand);
    if (
      dataset.recordsKey === "ATM" &&
      record.branchRef &&
      // "true" and the like are identifier-placeholder's to tell, once, not this rule's per ATM.
      !isPlaceholderIdentifier(record.branchRef.value) &&
      branches &&
      !branches.has(record.branchRef.value)
    ) {
      found.push(
        warning(
          file,
          { ...record.branchRef, pointer: branchRefPointer(record.pointer) },
          "atm-unknown-branch",
          `Branch.Identification ${JSON.stringify(record.branchRef.value)} names no branch of ${brand}`,
        ),
      );
    }
    if (
      dataset.recordsKey === "Branch" &&
      record.hasAtm &&
      record.id !== undefined &&
      hasAtms.has(brand) &&
      !linkedIds.get(brand)?.has(record.id)
    ) {
      found.push(
        warning(
          file,
          record,
          "branch-atm-not-linked",
          `branch ${record.id} lists an ATM among its services, but no ATM of ${brand} names it in Branch.Identification`,
        ),
      );
    }
  }
  return found;
}
