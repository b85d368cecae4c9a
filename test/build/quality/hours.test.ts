/**
 * The opening-hours rules (build/quality/hours.ts) on crafted branches and ATMs beside the sample
 * content: each warns at the line and column of the value it is about; the near miss beside it
 * does not. "Has passed" is by the day the tests give (QUALITY_TODAY, 2026-11-24).
 */
import { describe, expect, it } from "vitest";
import {
  ATMS_SHOWN,
  BRANCHES_SHOWN,
  QUALITY_ATMS,
  QUALITY_BRANCHES,
  at,
  atm,
  branch,
  brandFile,
  hours,
  onlyWarning,
  warningAt,
  warningsOf,
} from "../../helpers/quality.js";

describe("opening hours", () => {
  it("hours-closing-not-after-opening: warns at a period that closes before it opens, not at one that closes at midnight", async () => {
    const text = brandFile("Branch", [
      branch(
        "QB-1",
        hours([
          ["Monday", [["17:00", "09:00"]]],
          ["Tuesday", [["18:00", "00:00"]]],
        ]),
      ),
    ]);
    const { where, message } = await onlyWarning({ [QUALITY_BRANCHES]: text });
    expect(where).toEqual(
      warningAt(
        "hours-closing-not-after-opening",
        BRANCHES_SHOWN,
        at(text, 'OpeningTime: "17:00"'),
      ),
    );
    expect(message).toBe(
      "Monday closes at 09:00, not after it opens at 17:00; write a period that ends at midnight as 00:00",
    );
  });

  it("hours-overlap: warns at a period that overlaps the one before, not at one that starts as it ends", async () => {
    const text = brandFile("Branch", [
      branch(
        "QB-1",
        hours([
          [
            "Monday",
            [
              ["09:00", "13:00"],
              ["12:00", "17:00"],
            ],
          ],
          [
            "Tuesday",
            [
              ["09:00", "12:00"],
              ["12:00", "17:00"],
            ],
          ],
        ]),
      ),
    ]);
    const { where, message } = await onlyWarning({ [QUALITY_BRANCHES]: text });
    expect(where).toEqual(
      warningAt("hours-overlap", BRANCHES_SHOWN, at(text, 'OpeningTime: "12:00"')),
    );
    const first = at(text, 'OpeningTime: "09:00"');
    expect(message).toBe(
      `Monday 12:00-17:00 overlaps 09:00-13:00 at ${BRANCHES_SHOWN}:${first.line}:${first.column}`,
    );
  });

  it("hours-day-twice: warns at a day listed twice, not at the next day", async () => {
    const text = brandFile("Branch", [
      branch(
        "QB-1",
        hours([
          ["Monday", [["09:00", "12:00"]]],
          ["Tuesday", [["09:00", "12:00"]]],
          ["Monday", [["13:00", "17:00"]]],
        ]),
      ),
    ]);
    expect(await warningsOf({ [QUALITY_BRANCHES]: text })).toEqual([
      warningAt("hours-day-twice", BRANCHES_SHOWN, at(text, 'Name: "Monday"', 2)),
    ]);
  });

  it("hours: reads the non-standard hours too", async () => {
    const text = brandFile("Branch", [
      branch("QB-1", [
        ...hours([["Monday", [["09:00", "17:00"]]]]),
        "  NonStandardAvailability:",
        '    Name: "Christmas"',
        ...hours([["Saturday", [["12:00", "10:00"]]]]).slice(2),
      ]),
    ]);
    expect(await warningsOf({ [QUALITY_BRANCHES]: text })).toEqual([
      warningAt(
        "hours-closing-not-after-opening",
        BRANCHES_SHOWN,
        at(text, 'OpeningTime: "12:00"'),
      ),
    ]);
  });

  it("atm-24-hours-note: hints at a 24-hour ATM whose note speaks of hours, not at one that is not 24-hour", async () => {
    const note = (open: boolean) => [
      `Access24HoursIndicator: ${open}`,
      "Note:",
      '  - "Open 9am to 5pm"',
    ];
    const text = brandFile("ATM", [
      atm("QA-1", ['Country: "GB"'], note(true)),
      atm("QA-2", ['Country: "GB"'], note(false)),
    ]);
    expect(await warningsOf({ [QUALITY_ATMS]: text })).toEqual([
      warningAt("atm-24-hours-note", ATMS_SHOWN, at(text, '"Open 9am to 5pm"')),
    ]);
  });
});

describe("availability-ended", () => {
  const ended = (id: string, end: string) =>
    branch(id, [
      "Availability:",
      "  StandardAvailability:",
      "    Day:",
      '      - Name: "Monday"',
      '        OpeningHours: [{ OpeningTime: "09:00", ClosingTime: "17:00" }]',
      "  NonStandardAvailability:",
      '    Name: "Works"',
      `    EndDate: "${end}"`,
    ]);

  it("warns at a non-standard availability that has ended, not at one still to come", async () => {
    const text = brandFile("Branch", [ended("QB-1", "2026-11-23"), ended("QB-2", "2026-11-24")]);
    const { where, message } = await onlyWarning({ [QUALITY_BRANCHES]: text });
    expect(where).toEqual(
      warningAt("availability-ended", BRANCHES_SHOWN, at(text, '"2026-11-23"')),
    );
    expect(message).toBe(
      "this non-standard availability ended on 2026-11-23; remove it or give its new dates",
    );
  });

  it("dates by the day of the run, not the content's: a day later, the second has ended too", async () => {
    const text = brandFile("Branch", [ended("QB-1", "2026-11-23"), ended("QB-2", "2026-11-24")]);
    expect(await warningsOf({ [QUALITY_BRANCHES]: text }, { today: "2026-11-25" })).toEqual([
      warningAt("availability-ended", BRANCHES_SHOWN, at(text, '"2026-11-23"')),
      warningAt("availability-ended", BRANCHES_SHOWN, at(text, '"2026-11-24"')),
    ]);
  });
});
