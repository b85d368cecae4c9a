/**
 * The data-quality work done while a file is checked (on the check threads): each record read
 * once (build/core/record-facts.ts), the rules about one record alone and about the records of
 * one file (rules.ts, by scope) run on it, and what the rules across files need kept; both
 * cached with the file's check result. Lines and columns are looked up only for what is kept or
 * reported. Records that share one cause (Country "UK" throughout) make one finding, at the
 * first of them.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { pointerJoin } from "../core/json-pointer.js";
import { listAt } from "../core/json-value.js";
import { recordFacts } from "../core/record-facts.js";
import { locator, type YamlSource } from "../read/yaml-source.js";
import { collapse, warningOf } from "./context.js";
import { keptRecord, type FileFacts, type Spot } from "./facts.js";
import { areaCentres, areaOf } from "./places.js";
import { FILE_RULES, RECORD_RULES } from "./rules.js";
import type { Finding, Observation, RecordInFile } from "./rule.js";

/**
 * The facts of a valid brand file, with the findings of the rules about one record alone and
 * about the file's records together; or undefined for a file that holds no records.
 */
export function extractFacts(
  source: YamlSource,
  value: unknown,
  recordsKey: string | null,
): FileFacts | undefined {
  if (recordsKey === null) return undefined;
  const at = locator(source);
  const spot = (pointer: string): Spot => ({ pointer, ...at(pointer) });
  const list = listAt(value, recordsKey);
  const read = list.map((record, index) => {
    const facts = recordFacts(record, recordsKey);
    return {
      record,
      facts,
      area: areaOf(facts),
      pointer: pointerJoin(pointerJoin("", recordsKey), index),
    };
  });
  // The file's postcode areas are placed by its records first, for the rules that compare.
  const centres = areaCentres(read);
  const records: RecordInFile[] = read.map(({ record, facts, area, pointer }) => ({
    file: source.file,
    record,
    facts,
    area,
    pointer,
    recordsKey,
    // How a record is named among others that share a finding: its Identification, or its line.
    label: facts.id ?? `line ${at(pointer).line}`,
    spot,
    centres,
    worked: new Map(),
  }));
  const results: { rule: string; result: Finding | Observation }[] = [];
  for (const record of records) {
    for (const rule of RECORD_RULES) {
      for (const result of rule.check(record)) results.push({ rule: rule.id, result });
    }
  }
  const warnings: Diagnostic[] = collapse(results);
  for (const rule of FILE_RULES) {
    const file = { file: source.file, records, centres };
    warnings.push(...rule.check(file).map((found) => warningOf(rule.id, found)));
  }
  warnings.sort((a, b) => a.line - b.line || a.column - b.column);
  return {
    records: records.map((r) => keptRecord(r.record, r.facts, r.pointer, recordsKey, at)),
    warnings,
  };
}
