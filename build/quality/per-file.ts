/**
 * The data-quality work done while a file is checked (on the check threads): each record's facts
 * for the rules that compare records, and the findings of the rules about one record alone
 * (places, postcodes, identifiers, opening hours), both cached with the file's check result. Lines
 * and columns are looked up only for what is kept or reported. Records that share one cause (Country
 * "UK" throughout) make one finding, at the first of them.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { pointerJoin } from "../core/json-pointer.js";
import { locator, type YamlSource } from "../read/yaml-source.js";
import { fieldOf, listAt, textOf } from "../core/json-value.js";
import { collapse, type Observation } from "./context.js";
import {
  addressPointer,
  recordFacts,
  type FileFacts,
  type RecordFacts,
  type Spot,
} from "./facts.js";
import { checkHours } from "./hours.js";
import { checkIdentifiers } from "./identifiers.js";
import {
  areaCentres,
  checkPlace,
  checkSharedPositions,
  recordPlace,
  type PlacedRecord,
} from "./places.js";

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
  const observations: Observation[] = [];
  const list = listAt(value, recordsKey);
  const pointers = list.map((_, index) => pointerJoin(pointerJoin("", recordsKey), index));
  // The file's postcode areas are placed by its records first, for the rules that compare.
  const places = list.map((record, index) => recordPlace(record, recordsKey, pointers[index]!));
  const centres = areaCentres(places);
  const placed: PlacedRecord[] = [];
  list.forEach((record, index) => {
    const here = pointers[index]!;
    const one = { file: source.file, record, pointer: here, recordsKey, spot };
    // How a record is named among others that share a finding: its Identification, or its line.
    const label = textOf(fieldOf(record, "Identification")) ?? `line ${at(here).line}`;
    observations.push(
      ...checkPlace(one, places[index]!, centres, label),
      ...checkIdentifiers(one, label),
    );
    warnings.push(...checkHours(one));
    const address = addressPointer(recordsKey, here);
    placed.push({
      place: places[index]!,
      label,
      at: () => spot(pointerJoin(pointerJoin(address, "GeoLocation"), "GeographicCoordinates")),
    });
    records.push(recordFacts(record, here, recordsKey, at));
  });
  warnings.push(...collapse(observations), ...checkSharedPositions(source.file, placed, centres));
  warnings.sort((a, b) => a.line - b.line || a.column - b.column);
  return { records, warnings };
}
