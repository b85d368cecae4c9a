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

/**
 * A finding that many records can share one cause of (Country "UK" in every record of a feed):
 * the findings of one file with the same key are told once, at the first, naming the others.
 */
export interface Observation {
  /** Findings of one file with the same key are one finding. */
  readonly key: string;
  /** The finding as told when it is alone. */
  readonly alone: Diagnostic;
  /** The record, as listed in a group: its Identification, or its place. */
  readonly label: string;
  /** The message of a group of `count` records, listed in `records`. */
  readonly together: (count: number, records: string) => string;
}

/** At most this many records are named in a group's message; the rest are counted. */
const NAMED_IN_GROUP = 5;

/** Names the first few of `labels`, then how many more. */
export function someOf(labels: readonly string[], named = NAMED_IN_GROUP): string {
  const shown = labels.slice(0, named).join(", ");
  const more = labels.length - named;
  return more > 0 ? `${shown} and ${more.toLocaleString("en-GB")} more` : shown;
}

/** One finding per key: alone as it is, or a group's at its first place. */
export function collapse(observations: readonly Observation[]): Diagnostic[] {
  const groups = new Map<string, Observation[]>();
  for (const observation of observations) {
    const group = groups.get(observation.key);
    if (group) group.push(observation);
    else groups.set(observation.key, [observation]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0]!;
    if (group.length === 1) return first.alone;
    const count = group.length;
    return { ...first.alone, message: first.together(count, someOf(group.map((o) => o.label))) };
  });
}
