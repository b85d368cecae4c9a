/**
 * Opening hours that cannot be right: a period that closes before it opens, two periods of a day
 * that overlap, a day listed twice; and a 24-hour ATM whose notes speak of opening hours.
 */
import { pointerJoin } from "../core/json-pointer.js";
import { fieldOf, listAt, objectAt, textOf } from "../core/json-value.js";
import { finding, placeOf } from "./context.js";
import { endDatePointer, type Spot } from "./facts.js";
import type { ContentRule, Finding, RecordInFile, RecordRule } from "./rule.js";

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

/** One opening period of a day, with its times in minutes. */
interface Period {
  readonly h: number;
  readonly opening: string;
  readonly closing: string;
  readonly open: number;
  readonly close: number;
}

/** One day of a record's standard or non-standard opening hours. */
interface Day {
  readonly name: string;
  /** StandardAvailability or NonStandardAvailability. */
  readonly key: string;
  /** Its index in the list, and its first listing's when it is listed twice. */
  readonly d: number;
  readonly first: number | undefined;
  readonly periods: readonly Period[];
}

/**
 * The days of a record's opening hours, standard then non-standard, as listed: three rules read
 * them, so they are read once per record and held by it (RecordInFile.worked).
 */
function openingDays(r: RecordInFile): readonly Day[] {
  let days = r.worked.get("days") as readonly Day[] | undefined;
  if (!days) r.worked.set("days", (days = readDays(r.record)));
  return days;
}

function readDays(record: unknown): Day[] {
  const availability = objectAt(record, "Availability");
  if (!availability) return [];
  const found: Day[] = [];
  for (const key of ["StandardAvailability", "NonStandardAvailability"]) {
    const seen = new Map<string, number>();
    listAt(objectAt(availability, key), "Day").forEach((day, d) => {
      const name = textOf(fieldOf(day, "Name")) ?? "";
      const first = seen.get(name);
      if (first === undefined) seen.set(name, d);
      const periods = listAt(day, "OpeningHours").flatMap((hours, h) => {
        const opening = textOf(fieldOf(hours, "OpeningTime")) ?? "";
        const closing = textOf(fieldOf(hours, "ClosingTime")) ?? "";
        const open = minutes(opening, false);
        const close = minutes(closing, true);
        return open === undefined || close === undefined
          ? []
          : [{ h, opening, closing, open, close }];
      });
      found.push({ name, key, d, first, periods });
    });
  }
  return found;
}

/** The pointer of the `d`th day of a record's `key` hours (worked out only for a finding). */
const dayPointer = (pointer: string, key: string, d: number) =>
  pointerJoin(pointerJoin(pointerJoin(pointerJoin(pointer, "Availability"), key), "Day"), d);

const dayAt = (r: RecordInFile, key: string, d: number): Spot =>
  r.spot(dayPointer(r.pointer, key, d));

/** The place of a day's `h`th opening period. */
const periodAt = (r: RecordInFile, day: Day, h: number): Spot =>
  r.spot(pointerJoin(pointerJoin(dayPointer(r.pointer, day.key, day.d), "OpeningHours"), h));

export const hoursClosingNotAfterOpening: RecordRule = {
  id: "hours-closing-not-after-opening",
  scope: "record",
  text: "a period that closes before or as it opens (a period ending at midnight is written `00:00`)",
  check(r) {
    return openingDays(r).flatMap((day) =>
      day.periods
        .filter((p) => p.close <= p.open)
        .map((p) =>
          finding(
            r.file,
            periodAt(r, day, p.h),
            `${day.name} closes at ${p.closing}, not after it opens at ${p.opening}; write a period that ends at midnight as 00:00`,
          ),
        ),
    );
  },
};

export const hoursOverlap: RecordRule = {
  id: "hours-overlap",
  scope: "record",
  text: "two periods of one day that overlap (one ending as the next starts is fine)",
  check(r) {
    const found: Finding[] = [];
    for (const day of openingDays(r)) {
      const ordered = day.periods.filter((p) => p.close > p.open).sort((a, b) => a.open - b.open);
      for (let i = 1; i < ordered.length; i++) {
        const before = ordered[i - 1]!;
        const now = ordered[i]!;
        if (now.open < before.close) {
          found.push(
            finding(
              r.file,
              periodAt(r, day, now.h),
              `${day.name} ${now.opening}-${now.closing} overlaps ${before.opening}-${before.closing} at ${placeOf(r.file, periodAt(r, day, before.h))}`,
            ),
          );
        }
      }
    }
    return found;
  },
};

export const hoursDayTwice: RecordRule = {
  id: "hours-day-twice",
  scope: "record",
  text: "one day listed twice in the same opening hours",
  check(r) {
    return openingDays(r).flatMap((day) =>
      day.first === undefined
        ? []
        : [
            finding(
              r.file,
              dayAt(r, day.key, day.d),
              `${day.name} is listed twice in these opening hours; the other is at ${placeOf(r.file, dayAt(r, day.key, day.first))}`,
            ),
          ],
    );
  },
};

export const atm24HoursNote: RecordRule = {
  id: "atm-24-hours-note",
  scope: "record",
  text: 'a hint: an ATM with `Access24HoursIndicator: true` whose note speaks of hours ("9am", "closed")',
  check({ file, record, pointer, spot }) {
    if (fieldOf(record, "Access24HoursIndicator") !== true) return [];
    const notes = listAt(record, "Note");
    const n = notes.findIndex((note) => typeof note === "string" && HOURS_IN_NOTE.test(note));
    if (n < 0) return [];
    return [
      finding(
        file,
        spot(pointerJoin(pointerJoin(pointer, "Note"), n)),
        "this ATM says Access24HoursIndicator: true, but its note speaks of hours; check which is right",
      ),
    ];
  },
};

/** Ended is by the build's clock, so this rule runs on every build, never cached. */
export const availabilityEnded: ContentRule = {
  id: "availability-ended",
  scope: "content",
  text: "a `NonStandardAvailability` whose `EndDate` has passed",
  check({ records, today }) {
    return records.flatMap(({ file, record }) => {
      const end = record.endDate;
      if (!end || !(end.value < today)) return [];
      return [
        finding(
          file,
          { ...end, pointer: endDatePointer(record.pointer) },
          `this non-standard availability ended on ${end.value}; remove it or give its new dates`,
        ),
      ];
    });
  },
};
