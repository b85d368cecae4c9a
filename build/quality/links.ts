/**
 * Links between ATMs and branches of one brand: an ATM's Branch.Identification that names no
 * branch the brand publishes, and (a hint) a branch that lists an ATM among its services with no
 * ATM record pointing back to it. Only brands that publish both are compared.
 */
import { finding } from "./context.js";
import { branchRefPointer } from "./facts.js";
import { isPlaceholderIdentifier } from "./identifiers.js";
import type { ContentRule, Finding, RecordInContext } from "./rule.js";

/** Per brand, the identifiers of its branches, those its ATMs name, and whether it has ATMs. */
function linksOf(records: readonly RecordInContext[]) {
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
  return { branchIds, linkedIds, hasAtms };
}

export const atmUnknownBranch: ContentRule = {
  id: "atm-unknown-branch",
  scope: "content",
  text: "an ATM's `Branch.Identification` that names no branch of its brand (when the brand publishes branches)",
  check({ records }) {
    const { branchIds } = linksOf(records);
    const found: Finding[] = [];
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
          finding(
            file,
            { ...record.branchRef, pointer: branchRefPointer(record.pointer) },
            `Branch.Identification ${JSON.stringify(record.branchRef.value)} names no branch of ${brand}`,
          ),
        );
      }
    }
    return found;
  },
};

export const branchAtmNotLinked: ContentRule = {
  id: "branch-atm-not-linked",
  scope: "content",
  text: "a hint: a branch listing `ExternalATM` or `InternalATM` that no ATM of its brand names",
  check({ records }) {
    const { linkedIds, hasAtms } = linksOf(records);
    const found: Finding[] = [];
    for (const { file, dataset, brand, record } of records) {
      if (
        dataset.recordsKey === "Branch" &&
        record.hasAtm &&
        record.id !== undefined &&
        hasAtms.has(brand) &&
        !linkedIds.get(brand)?.has(record.id)
      ) {
        found.push(
          finding(
            file,
            record,
            `branch ${record.id} lists an ATM among its services, but no ATM of ${brand} names it in Branch.Identification`,
          ),
        );
      }
    }
    return found;
  },
};
