/**
 * Records one brand publishes twice under different identifiers: two branches or ATMs at the same
 * address and coordinates, two products with the same name and marketing dates. Reported at the
 * second, naming the first.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { placeOf, warning, type RecordInContext } from "./context.js";

/** Duplicate locations and products within each brand of each data set. */
export function checkDuplicates(records: readonly RecordInContext[]): Diagnostic[] {
  const found: Diagnostic[] = [];
  const firstAt = new Map<string, RecordInContext>();
  for (const entry of records) {
    const { record, dataset, brand, file } = entry;
    const location =
      record.addressKey !== undefined && record.coordinatesKey !== undefined
        ? `${record.addressKey}@${record.coordinatesKey}`
        : undefined;
    const keys: [string, "duplicate-location" | "duplicate-product"][] = [];
    if (location) keys.push([`L\0${dataset.id}\0${brand}\0${location}`, "duplicate-location"]);
    if (record.product) {
      keys.push([
        `P\0${dataset.id}\0${brand}\0${record.product.name}\0${record.product.dates}`,
        "duplicate-product",
      ]);
    }
    for (const [key, rule] of keys) {
      const first = firstAt.get(key);
      if (!first) {
        firstAt.set(key, entry);
        continue;
      }
      const what =
        rule === "duplicate-location"
          ? "has the same address and coordinates as"
          : `has the same Name ${JSON.stringify(record.product!.name)} and marketing dates as`;
      const other = first.record.id ? `${first.record.id} at ` : "";
      found.push(
        warning(
          file,
          record,
          rule,
          `${record.id ?? "this record"} ${what} ${other}${placeOf(first.file, first.record)}; publish it once`,
        ),
      );
    }
  }
  return found;
}
