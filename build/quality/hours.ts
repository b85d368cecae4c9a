/**
 * Opening hours that cannot be right: a period that closes before it opens, two periods of a day
 * that overlap, a day listed twice; and a 24-hour ATM whose notes speak of opening hours.
 */
import type { Diagnostic } from "../core/diagnostics.js";
import { pointerJoin } from "../core/json-pointer.js";
import { fieldOf, listAt, objectAt } from "../core/json-value.js";
import { placeOf, warning, type RecordInContext, type RecordInFile } from "./context.js";
import { endDatePointer } from "./facts.js";

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
export function checkHours({ file, record, pointer, spot }: RecordInFile): Diagnostic[] {
  const found: Diagnostic[] = [];
  const availability = objectAt(record, "Availability");
  for (const key of ["StandardAvailability", "NonStandardAvailability"]) {
    const days = listAt(objectAt(availability, key), "Day");
    const daysAt = () => pointerJoin(pointerJoin(pointerJoin(pointer, "Availability"), key), "Day");
    const dayAt = (d: number) => pointerJoin(daysAt(), d);
    const periodAt = (d: number, h: number) =>
      spot(pointerJoin(pointerJoin(dayAt(d), "OpeningHours"), h));
    const seen = new Map<string, number>();
    days.forEach((day, d) => {
      const name = String(fieldOf(day, "Name") ?? "");
      const first = seen.get(name);
      if (first === undefined) seen.set(name, d);
      else {
        found.push(
          warning(
            file,
            spot(dayAt(d)),
            "hours-day-twice",
            `${name} is listed twice in these opening hours; the other is at ${placeOf(file, spot(dayAt(first)))}`,
          ),
        );
      }
      const periods = listAt(day, "OpeningHours").flatMap((hours, h) => {
        const opening = String(fieldOf(hours, "OpeningTime") ?? "");
        const closing = String(fieldOf(hours, "ClosingTime") ?? "");
        const open = minutes(opening, false);
        const close = minutes(closing, true);
        return open === undefined || close === undefined
          ? []
          : [{ h, opening, closing, open, close }];
      });
      for (const p of periods) {
        if (p.close <= p.open) {
          found.push(
            warning(
              file,
              periodAt(d, p.h),
              "hours-closing-not-after-opening",
              `${name} closes at ${p.closing}, not after it opens at ${p.opening}; write a period that ends at midnight as 00:00`,
            ),
          );
        }
      }
      const ordered = periods.filter((p) => p.close > p.open).sort((a, b) => a.open - b.open);
      for (let i = 1; i < ordered.length; i++) {
        const before = ordered[i - 1]!;
        const now = ordered[i]!;
        if (now.open < before.close) {
          found.push(
            warning(
              file,
              periodAt(d, now.h),
              "hours-overlap",
              `${name} ${now.opening}-${now.closing} overlaps ${before.opening}-${before.closing} at ${placeOf(file, periodAt(d, before.h))}`,
            ),
          );
        }
      }
    });
  }
  if (fieldOf(record, "Access24HoursIndicator") === true) {
    const notes = listAt(record, "Note");
    const n = notes.findIndex((note) => typeof note === "string" && HOURS_IN_NOTE.test(note));
    if (n >= 0) {
      found.push(
        warning(
          file,
          spot(pointerJoin(pointerJoin(pointer, "Note"), n)),
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
      { ...end, pointer: endDatePointer(record.pointer) },
      "availability-ended",
      `this non-standard availability ended on ${end.value}; remove it or give its new dates`,
    ),
  ];
}
