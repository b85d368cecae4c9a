/**
 * The data-quality work done while a file is checked (on the check threads): each record's facts
 * for the rules that compare records, and the findings of the rules about one record alone
 * (places, postcodes, opening hours), both cached with the file's check result. Lines and columns
 * are looked up only for what is kept or reported.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { pointerJoin } from "../core/json-pointer.js";
import { listAt } from "../core/json-value.js";
import { locator, type YamlSource } from "../read/yaml-source.js";
import { recordFacts, type FileFacts, type RecordFacts, type Spot } from "./facts.js";
import { checkHours } from "./hours.js";
import { checkPlace } from "./places.js";

/**
 * The facts of a valid brand file, with the findings of the rules about one record alone; or
 * undefined for a file that holds no records.
 */
export function extractFacts(
  source: YamlSource,
  value: unknown,
  recordsKey: string | null,
): FileFacts | undefined {
  if (recordsKey === null) return undefined;
  const at = locator(source);
  const spot = (pointer: string): Spot => ({ pointer, ...at(pointer) });
  const records: RecordFacts[] = [];
  const warnings: Diagnostic[] = [];
  listAt(value, recordsKey).forEach((record, index) => {
    const here = pointerJoin(pointerJoin("", recordsKey), index);
    const one = { file: source.file, record, pointer: here, recordsKey, spot };
    warnings.push(...checkPlace(one), ...checkHours(one));
    records.push(recordFacts(record, here, recordsKey, at));
  });
  return { records, warnings };
}
