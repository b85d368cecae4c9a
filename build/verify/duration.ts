/** Durations as the verify command's flags take them: `120`, `120s`, `2m`, `500ms`. */

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

/** Milliseconds, or undefined when `text` is not a duration; a bare number is seconds. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? "s") as keyof typeof UNIT_MS;
  return Number(match[1]) * UNIT_MS[unit];
}
