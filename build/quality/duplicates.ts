/**
 * Records one brand publishes twice under different identifiers: two branches at the same address
 * and coordinates, two products the same in all but their Identification. Each set of duplicates
 * is one finding, at its second record, naming them all. Several ATMs at one site are how every
 * bank publishes its machines, and a mobile branch stops where others do: neither is compared.
 * Two products with one Name are often variants (other rates, other fees), so only products
 * that are the same throughout count.
 */
import { finding, placeOf, someOf } from "./context.js";
import type { ContentRule, Finding, RecordInContext } from "./rule.js";

/** The records of one brand of one data set that share `key`, in groups of two or more. */
function groups(
  records: readonly RecordInContext[],
  key: (record: RecordInContext) => string | undefined,
): RecordInContext[][] {
  const found = new Map<string, RecordInContext[]>();
  for (const entry of records) {
    const k = key(entry);
    if (k === undefined) continue;
    const at = `${entry.dataset.id}\0${entry.brand}\0${k}`;
    const group = found.get(at);
    if (group) group.push(entry);
    else found.set(at, [entry]);
  }
  return [...found.values()].filter((group) => group.length > 1);
}

/** The records of a group, named with their places. */
const named = (group: readonly RecordInContext[]) =>
  someOf(group.map((e) => `${e.record.id ?? "a record"} at ${placeOf(e.file, e.record)}`));

export const duplicateLocation: ContentRule = {
  id: "duplicate-location",
  scope: "content",
  text: "two branches of one brand with the same address and the same coordinates (ATMs at one site, and mobile branches, are not compared)",
  check({ records }): Finding[] {
    return groups(records, (e) => e.record.site).map((group) => {
      const second = group[1]!;
      return finding(
        second.file,
        second.record,
        `${group.length} branches of ${second.brand} have the same address and coordinates: ${named(group)}; publish each branch once`,
      );
    });
  },
};

export const duplicateProduct: ContentRule = {
  id: "duplicate-product",
  scope: "content",
  text: "two products of one brand the same in everything but `Identification`",
  check({ records }): Finding[] {
    return groups(records, (e) => e.record.product?.body).map((group) => {
      const second = group[1]!;
      return finding(
        second.file,
        second.record,
        `${group.length} products of ${second.brand} named ${JSON.stringify(second.record.product!.name)} are the same in all but Identification: ${named(group)}; publish it once`,
      );
    });
  },
};
