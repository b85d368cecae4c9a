/**
 * One name, several spellings: a town, street, county or brand written with different capitals
 * or spacing in different records ("Hereford" and "HEREFORD"). Consumers grouping by town see two
 * towns. Each less common spelling is reported, naming the common one and where it is used.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import type { Spot } from "./facts.js";
import { placeOf, warning } from "./context.js";

/** One use of a name. */
export interface NameUse {
  readonly field: string;
  readonly value: string;
  readonly file: string;
  /** Its place, worked out only when it is reported or named. */
  readonly spot: () => Spot;
}

// Capitals and runs of spaces do not make another name; most values have neither to fold.
const normalise = (value: string) => {
  const lower = value.toLowerCase();
  return /\s\s|^\s|\s$|[^\S ]/.test(lower) ? lower.replace(/\s+/g, " ").trim() : lower;
};

/** A warning at every use of a name whose spelling differs from the most common one. */
export function checkSpellings(uses: readonly NameUse[]): Diagnostic[] {
  const groups = new Map<string, NameUse[]>();
  for (const use of uses) {
    const key = `${use.field}\0${normalise(use.value)}`;
    const group = groups.get(key);
    if (group) group.push(use);
    else groups.set(key, [use]);
  }
  const found: Diagnostic[] = [];
  for (const group of groups.values()) {
    const counts = new Map<string, NameUse[]>();
    for (const use of group) {
      const same = counts.get(use.value);
      if (same) same.push(use);
      else counts.set(use.value, [use]);
    }
    if (counts.size < 2) continue;
    // The most used spelling is the reference; on a tie, the one met first.
    const [common, commonUses] = [...counts].reduce((best, next) =>
      next[1].length > best[1].length ? next : best,
    );
    for (const [spelling, spellingUses] of counts) {
      if (spelling === common) continue;
      for (const use of spellingUses) {
        const others =
          commonUses.length === 1 ? "1 other place" : `${commonUses.length} other places`;
        found.push(
          warning(
            use.file,
            use.spot(),
            "name-spelling",
            `${use.field} ${JSON.stringify(spelling)} is written ${JSON.stringify(common)} in ${others} (such as ${placeOf(commonUses[0]!.file, commonUses[0]!.spot())}); use one spelling`,
          ),
        );
      }
    }
  }
  return found;
}
