import { describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import { diffDataset } from "../../../build/diff/compare.js";
import { changeText } from "../../../build/diff/markdown.js";
import type { Envelope } from "../../../build/assemble/envelope.js";

const branches = DATASETS.find((d) => d.id === "branches")!;
const atms = DATASETS.find((d) => d.id === "atms")!;
const metrics = DATASETS.find((d) => d.id === "service-metrics-pca")!;

function body(brands: Record<string, unknown>[]): Envelope {
  return { meta: { TotalResults: brands.length }, data: brands.length ? [{ Brand: brands }] : [] };
}

describe("naming what changed inside a record", () => {
  it("names list items by a natural key, else by position", () => {
    const before = body([
      {
        BrandName: "Acme",
        ATM: [
          {
            Identification: "A1",
            SupportedCurrencies: ["GBP"],
            Note: ["Inside the foyer"],
            OtherATMServices: [{ Name: "Stamps", Description: "Books of stamps" }],
            Location: { PostalAddress: { AddressLine: ["1 High St", "Town"] } },
          },
        ],
      },
    ]);
    const after = body([
      {
        BrandName: "Acme",
        ATM: [
          {
            Identification: "A1",
            SupportedCurrencies: ["GBP", "EUR"],
            Note: ["Inside the foyer"],
            OtherATMServices: [{ Name: "Stamps", Description: "First class stamps" }],
            Location: { PostalAddress: { AddressLine: ["2 High St", "Town"] } },
          },
        ],
      },
    ]);
    const [changed] = diffDataset(atms, before, after).changed;
    expect(changed!.record.label).toBe("ATM A1 (Acme)");
    expect(changed!.changes.map((c) => changeText(c))).toEqual([
      "SupportedCurrencies: added `EUR`",
      "OtherATMServices/Stamps/Description `Books of stamps` → `First class stamps`",
      "Location/PostalAddress/AddressLine: added `2 High St`; removed `1 High St`",
    ]);
  });

  it("numbers opening periods when a day has several", () => {
    const day = (closing: string) => ({
      Identification: "B1",
      SequenceNumber: "2",
      Availability: {
        StandardAvailability: {
          Day: [
            {
              Name: "Monday",
              OpeningHours: [
                { OpeningTime: "09:00", ClosingTime: "12:00" },
                { OpeningTime: "13:00", ClosingTime: closing },
              ],
            },
          ],
        },
      },
    });
    const diff = diffDataset(
      branches,
      body([{ BrandName: "Acme", Branch: [day("17:00")] }]),
      body([{ BrandName: "Acme", Branch: [day("17:30")] }]),
    );
    expect(diff.changed[0]!.record.label).toBe("Branch B1, sequence 2 (Acme)");
    expect(changeText(diff.changed[0]!.changes[0]!)).toBe(
      "Availability/StandardAvailability/Day/Monday period 2 closing `17:00` → `17:30`",
    );
  });

  it("compares service metrics per brand and shows added days with their hours", () => {
    const brand = (days: unknown[]) => ({
      BrandName: "Acme",
      ServicesMatterAvailability: {
        ServicesMatterAvailabilityDetails: [
          {
            MatterType: "HelpOpeningAccount",
            ServiceMatterAvailabilityMethod: [{ MatterMethodType: "Telephone", Day: days }],
          },
        ],
      },
    });
    const monday = {
      Name: "Monday",
      AvailableHours: [{ OpeningTime: "08:00", ClosingTime: "20:00" }],
    };
    const sunday = {
      Name: "Sunday",
      AvailableHours: [{ OpeningTime: "10:00", ClosingTime: "16:00" }],
    };
    const diff = diffDataset(metrics, body([brand([monday])]), body([brand([monday, sunday])]));
    expect(diff.changed.map((c) => c.record.label)).toEqual(["Acme"]);
    expect(changeText(diff.changed[0]!.changes[0]!)).toBe(
      "ServicesMatterAvailability/ServicesMatterAvailabilityDetails/HelpOpeningAccount/ServiceMatterAvailabilityMethod/Telephone/Day/Sunday added: `Name Sunday, AvailableHours 10:00–16:00`",
    );
  });

  it("reports no change when only the order of a record's fields differs", () => {
    const before = body([
      {
        BrandName: "Acme",
        ATM: [
          {
            Identification: "A1",
            OtherATMServices: [{ Name: "Stamps", Description: "Books of stamps" }],
            Location: { PostalAddress: { TownName: "Town", PostCode: "ZZ1 1ZZ" } },
          },
        ],
      },
    ]);
    const after = body([
      {
        BrandName: "Acme",
        ATM: [
          {
            Location: { PostalAddress: { PostCode: "ZZ1 1ZZ", TownName: "Town" } },
            OtherATMServices: [{ Description: "Books of stamps", Name: "Stamps" }],
            Identification: "A1",
          },
        ],
      },
    ]);
    expect(diffDataset(atms, before, after).changed).toEqual([]);
  });

  it("shows opening hours as ranges when a day gains a period", () => {
    type Period = { OpeningTime: string; ClosingTime: string };
    const monday = (...hours: Period[]) => {
      const day = { Name: "Monday", OpeningHours: hours };
      const record = {
        Identification: "B1",
        SequenceNumber: "0",
        Availability: { StandardAvailability: { Day: [day] } },
      };
      return body([{ BrandName: "Acme", Branch: [record] }]);
    };
    const allDay = { OpeningTime: "09:00", ClosingTime: "17:00" };
    const morning = { OpeningTime: "09:00", ClosingTime: "12:00" };
    const afternoon = { OpeningTime: "13:00", ClosingTime: "17:00" };
    const diff = diffDataset(branches, monday(allDay), monday(morning, afternoon));
    expect(changeText(diff.changed[0]!.changes[0]!)).toBe(
      "Availability/StandardAvailability/Day/Monday hours `09:00–17:00` → `09:00–12:00, 13:00–17:00`",
    );
  });
});
