/**
 * How the importer tells its repairs: one line per kind of repair with its count and what it did,
 * then the first few places in the written files, so 8,000 repaired codes read as two lines. The
 * same lines say "would repair" when the repairs were only found (no `--repair`).
 */
import { formatDiagnostic, type Diagnostic, sourcePlace } from "../core/diagnostics.js";
import { thousands } from "../core/format.js";
import type { Position } from "../read/yaml-source.js";
import { REPAIR_KINDS, type Repair, type RepairKind } from "./repair.js";

/** A repair in a written file. */
export interface FileRepair extends Repair {
  /** The file as printed (relative to the working folder). */
  readonly file: string;
}

/** Places of each kind printed after its line. */
const REPAIR_PLACES_SHOWN = 3;
/** Distinct examples (fields, codes) named in a kind's line. */
const EXAMPLES_SHOWN = 5;

/** `eng → en`, `"£10" → "10"`: what one repair changed, in the words of its kind's line. */
function change(repair: Repair): string {
  return repair.kind === "language"
    ? `${String(repair.from)} → ${String(repair.to)}`
    : `${JSON.stringify(repair.from)} → ${JSON.stringify(repair.to)}`;
}

/** The distinct examples of a kind: the changes for codes and amounts, the fields otherwise. */
function examples(kind: RepairKind, repairs: readonly Repair[]): string {
  const seen = new Set<string>();
  for (const r of repairs) {
    seen.add(kind === "language" || kind === "currency" ? change(r) : r.field);
    if (seen.size > EXAMPLES_SHOWN) break;
  }
  const shown = [...seen].slice(0, EXAMPLES_SHOWN);
  return `${shown.join(", ")}${seen.size > EXAMPLES_SHOWN ? ", …" : ""}`;
}

/** What a kind of repair does, after "repaired"/"would repair" and its count. */
function what(kind: RepairKind, n: number): string {
  const s = n === 1 ? "" : "s";
  switch (kind) {
    case "language":
      return `language code${s} to ISO 639-1`;
    case "wrap":
      return `single value${s} into a list, where the schema wants a list`;
    case "unwrap":
      return `one-item list${s} into its one value, where the schema wants one value`;
    case "currency":
      return `amount${s} by removing the record's own currency`;
    case "scalar":
      return `value${s} into the type the schema wants: text, a boolean or a number`;
    case "whitespace":
      return `value${s} by removing the spaces around ${n === 1 ? "it" : "them"}`;
    case "empty":
      return `empty optional value${s} by dropping ${n === 1 ? "it" : "them"}`;
  }
}

/**
 * The lines about `repairs`: per kind, `repaired 8,104 language codes to ISO 639-1 (eng → en, …)`
 * (or `would repair …` when not `applied`) and its first places, found with `locate`.
 */
export function repairLines(
  repairs: readonly FileRepair[],
  applied: boolean,
  locate: (file: string, pointer: string) => Position,
): string[] {
  const lines: string[] = [];
  for (const kind of REPAIR_KINDS) {
    const ofKind = repairs.filter((r) => r.kind === kind);
    if (ofKind.length === 0) continue;
    const verb = applied ? "repaired" : "would repair";
    lines.push(
      `${verb} ${thousands(ofKind.length)} ${what(kind, ofKind.length)} (${examples(kind, ofKind)})`,
    );
    const places = ofKind.slice(0, REPAIR_PLACES_SHOWN).map((r) => {
      return `${sourcePlace({ file: r.file, ...locate(r.file, r.pointer) })} ${r.pointer}`;
    });
    const more = ofKind.length > places.length ? ", …" : "";
    lines.push(`  ${ofKind.length === 1 ? "at" : "first at"} ${places.join(", ")}${more}`);
  }
  return lines;
}

/** Every repair as a line of the report file, at its place: `file:line:column: pointer: repaired …`. */
export function repairDiagnostic(
  repair: FileRepair,
  applied: boolean,
  position: Position,
): Diagnostic {
  const done = repair.to === undefined ? `dropped ${JSON.stringify(repair.from)}` : change(repair);
  return {
    file: repair.file,
    line: position.line,
    column: position.column,
    pointer: repair.pointer,
    rule: `repair-${repair.kind}`,
    message: `${applied ? "repaired" : "would repair"}: ${done}`,
  };
}

/** The report file's text: every repair, then every problem, one a line. */
export function importReportText(
  repairs: readonly Diagnostic[],
  problems: readonly Diagnostic[],
): string {
  return [...repairs, ...problems].map((d) => formatDiagnostic(d)).join("\n") + "\n";
}
