/**
 * Numbers and values in words, as every message of the build, the guard and the importer writes
 * them, so "1 problem", "94.8% fewer" and a quoted value read the same wherever they appear.
 */

/** A count and its noun, the noun with an "s" unless the count is exactly 1: "1 file", "3 files". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A count with commas between thousands, as the reports write large counts: 8234 → "8,234". */
export function thousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A share from 0 to 1 as a percentage with at most one decimal: 0.2 → "20%", 0.9483 → "94.8%". */
export function percent(share: number): string {
  return `${Number((share * 100).toFixed(1))}%`;
}

// Characters a terminal or a log does not show as themselves: C0 and C1 controls, DEL, and the
// line and paragraph separators. From content (a key made of a vertical tab, an escape sequence in
// a name) they would make a problem line unreadable, or act on the reader's terminal.
// oxlint-disable-next-line no-control-regex -- the control characters are what is matched
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * `text` with every character that would not show as itself written as JSON writes it, `\u000b`,
 * so a problem line is one line, whole, whatever the content holds.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Quotes a value for a message, shortened so one bad paragraph does not flood the output. */
export function showValue(value: unknown, max = 60): string {
  const text = typeof value === "string" ? JSON.stringify(value) : safeJson(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function safeJson(value: unknown): string {
  if (value === undefined) return "nothing";
  // JSON has no text for these: JSON.stringify gives undefined (a function, a symbol) or throws.
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") {
    return String(value);
  }
  try {
    return JSON.stringify(value);
  } catch {
    return "a value that contains itself";
  }
}
