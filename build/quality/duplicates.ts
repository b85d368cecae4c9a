/**
 * Records one brand publishes twice under different identifiers: two branches at the same address
 * and coordinates, two products the same in all but their Identification. Each set of duplicates
 * is one finding, at its second record, naming them all. Several ATMs at one site are how every
 * bank publishes its machines, and a mobile branch stops where others do: neither is compared.
 * Two products with one Name are often variants (other rates, other fees), so only products
 * that are the same throughout count.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { placeOf, someOf, warning, type RecordInContext } from "./context.js";

/** Duplicate branches and products within each brand of each data set. */
export function checkDuplicates(records: readonly RecordInContext[]): Diagnostic[] {
  const groups = new Map<string, RecordInContext[]>();
  const add = (key: string, entry: RecordInContext) => {
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  };
  for (const entry of records) {
    const { record, dataset, brand } = entry;
    if (record.site !== undefined) add(`L\0${dataset.id}\0${brand}\0${record.site}`, entry);
    if (record.product) add(`P\0${dataset.id}\0${brand}\0${record.product.body}`, entry);
  }
  const found: Diagnostic[] = [];
  for (const [key, group] of groups) {
    if (group.length < 2) continue;
    const second = group[1]!;
    const named = someOf(
      group.map((e) => `${e.record.id ?? "a record"} at ${placeOf(e.file, e.record)}`),
    );
    found.push(
      key.startsWith("L")
        ? warning(
            second.file,
            second.record,
            "duplicate-location",
            `${group.length} branches of ${second.brand} have the same address and coordinates: ${named}; publish each branch once`,
          )
        : warning(
            second.file,
            second.record,
            "duplicate-product",
            `${group.length} products of ${second.brand} named ${JSON.stringify(second.record.product!.name)} are the same in all but Identification: ${named}; publish it once`,
          ),
    );
  }
  return found;
}
