/**
 * Opening hours that cannot be right: a period that closes before it opens, two periods of a day
 * that overlap, a day listed twice; and a 24-hour ATM whose notes speak of opening hours.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { placeOf, warning, type RecordInContext } from "./context.js";

// TimeOfDay is HH:MM or HHMM (common.schema.json); a closing time of midnight ends the day.
function minutes(time: string, closing: boolean): number | undefined {
  const match = /^(\d{2}):?(\d{2})/.exec(time);
  if (!match) return undefined;
  const value = Number(match[1]) * 60 + Number(match[2]);
  return closing && value === 0 ? 24 * 60 : value;
}

// Words in a note that say the ATM keeps hours: "opening hours", "closed", "9am", "17:30".
const HOURS_IN_NOTE =
  /\b(opening hours|open from|closed|closes|\d{1,2}(:\d{2})?\s?(am|pm)|\d{1,2}:\d{2})\b/i;

/** The opening-hours warnings of one record. */
export function checkHours({ file, record }: RecordInContext): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const list of record.dayLists) {
    const seen = new Map<string, (typeof list.days)[number]>();
    for (const day of list.days) {
      const first = seen.get(day.name);
      if (first) {
        found.push(
          warning(
            file,
            day,
            "hours-day-twice",
            `${day.name} is listed twice in these opening hours; the other is at ${placeOf(file, first)}`,
          ),
        );
      } else seen.set(day.name, day);
      const periods = day.periods
        .map((p) => ({ p, open: minutes(p.opening, false), close: minutes(p.closing, true) }))
        .filter(
          (x): x is typeof x & { open: number; close: number } =>
            x.open !== undefined && x.close !== undefined,
        );
      for (const { p, open, close } of periods) {
        if (close <= open) {
          found.push(
            warning(
              file,
              p,
              "hours-closing-not-after-opening",
              `${day.name} closes at ${p.closing}, not after it opens at ${p.opening}; write a period that ends at midnight as 00:00`,
            ),
          );
        }
      }
      const ordered = periods.filter((x) => x.close > x.open).sort((a, b) => a.open - b.open);
      for (let i = 1; i < ordered.length; i++) {
        const before = ordered[i - 1]!;
        const now = ordered[i]!;
        if (now.open < before.close) {
          found.push(
            warning(
              file,
              now.p,
              "hours-overlap",
              `${day.name} ${now.p.opening}-${now.p.closing} overlaps ${before.p.opening}-${before.p.closing} at ${placeOf(file, before.p)}`,
            ),
          );
        }
      }
    }
  }
  if (record.open24Hours) {
    const note = record.notes.find((n) => HOURS_IN_NOTE.test(n.value));
    if (note) {
      found.push(
        warning(
          file,
          note,
          "atm-24-hours-note",
          "this ATM says Access24HoursIndicator: true, but its note speaks of hours; check which is right",
        ),
      );
    }
  }
  return found;
}

/** A non-standard availability that ended before `today` (YYYY-MM-DD). */
export function checkEnded({ file, record }: RecordInContext, today: string): Diagnostic[] {
  const end = record.endDate;
  if (!end || !(end.value < today)) return [];
  return [
    warning(
      file,
      end,
      "availability-ended",
      `this non-standard availability ended on ${end.value}; remove it or give its new dates`,
    ),
  ];
}
