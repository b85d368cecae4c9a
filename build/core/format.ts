/**
 * Numbers in words, as every message of the build, the guard and the importer writes them, so
 * "1 problem" and "94.8% fewer" read the same wherever they appear.
 */

/** A count and its noun, the noun with an "s" unless the count is exactly 1: "1 file", "3 files". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A share from 0 to 1 as a percentage with at most one decimal: 0.2 → "20%", 0.9483 → "94.8%". */
export function percent(share: number): string {
  return `${Number((share * 100).toFixed(1))}%`;
}
