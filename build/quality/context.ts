/** The helpers every rule's check shares: where a finding is, how records are named in a message. */
import { sourcePlace, type Diagnostic } from "../core/diagnostics.js";
import type { Spot } from "./facts.js";
import { isObservation, type Finding, type Observation } from "./rule.js";

/** A finding at `spot` of `file`. */
export function finding(file: string, spot: Spot, message: string): Finding {
  return { file, line: spot.line, column: spot.column, pointer: spot.pointer, message };
}

/** A rule's finding as a warning, the rule's id its rule. */
export function warningOf(rule: string, found: Finding): Diagnostic {
  const { file, line, column, pointer, message } = found;
  return { file, line, column, pointer, rule, message, severity: "warning" };
}

/** `file:line:column`, to name another place in a message. */
export function placeOf(file: string, spot: Spot): string {
  return sourcePlace({ file, ...spot });
}

/** At most this many records are named in a group's message; the rest are counted. */
const NAMED_IN_GROUP = 5;

/** Names the first few of `labels`, then how many more. */
export function someOf(labels: readonly string[], named = NAMED_IN_GROUP): string {
  const shown = labels.slice(0, named).join(", ");
  const more = labels.length - named;
  return more > 0 ? `${shown} and ${more.toLocaleString("en-GB")} more` : shown;
}

/**
 * The warnings of one file's record rules: a finding as it is; observations of one rule with the
 * same key as one, alone as it is or a group's at its first place.
 */
export function collapse(
  results: readonly { readonly rule: string; readonly result: Finding | Observation }[],
): Diagnostic[] {
  const told: (Diagnostic | Observation[])[] = [];
  const groups = new Map<string, Observation[]>();
  const ruleOf = new Map<Observation[], string>();
  for (const { rule, result } of results) {
    if (!isObservation(result)) {
      told.push(warningOf(rule, result));
      continue;
    }
    const key = `${rule}\0${result.key}`;
    const group = groups.get(key);
    if (group) group.push(result);
    else {
      const created = [result];
      groups.set(key, created);
      ruleOf.set(created, rule);
      told.push(created);
    }
  }
  return told.map((entry) => {
    if (!Array.isArray(entry)) return entry;
    const first = entry[0]!;
    const rule = ruleOf.get(entry)!;
    if (entry.length === 1) return warningOf(rule, first.alone);
    const message = first.together(entry.length, someOf(entry.map((o) => o.label)));
    return warningOf(rule, { ...first.alone, message });
  });
}
