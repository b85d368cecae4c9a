/** What every rule is given: each record's facts with the file, brand and data set it is in. */
import type { DatasetDefinition } from "../core/datasets.js";
import { sourcePlace, type Diagnostic } from "../core/diagnostics.js";
import type { RecordFacts, Spot } from "./facts.js";
import type { QualityRuleId } from "./rules.js";

export interface RecordInContext {
  readonly file: string;
  readonly dataset: DatasetDefinition;
  /** The BrandName of the record's file. */
  readonly brand: string;
  readonly record: RecordFacts;
}

/** A warning at `spot` of `file`. */
export function warning(
  file: string,
  spot: Spot,
  rule: QualityRuleId,
  message: string,
): Diagnostic {
  return {
    file,
    line: spot.line,
    column: spot.column,
    pointer: spot.pointer,
    rule,
    message,
    severity: "warning",
  };
}

/** `file:line:column`, to name another place in a message. */
export function placeOf(file: string, spot: Spot): string {
  return sourcePlace({ file, ...spot });
}

/** One record as the rules about a record alone read it, while its file is being checked. */
export interface RecordInFile {
  readonly file: string;
  /** The record's parsed value (valid against its schema). */
  readonly record: unknown;
  readonly pointer: string;
  readonly recordsKey: string;
  /** The place of a pointer in the file. */
  readonly spot: (pointer: string) => Spot;
}
