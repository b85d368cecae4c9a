import { afterEach, describe, expect, it } from "vitest";
import { DATASETS } from "../../../build/core/datasets.js";
import { diffDataset } from "../../../build/diff/compare.js";
import {
  changeText,
  DEFAULT_LIMITS,
  escapeMarkdown,
  SUMMARY_MARKER,
} from "../../../build/diff/markdown.js";
import type { Envelope } from "../../../build/assemble/envelope.js";
import { changeSummary } from "../../../build/diff/change-summary.js";
import { FIXTURE_EPOCH, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { commitAll, git } from "../../helpers/cli.js";

const branches = DATASETS.find((d) => d.id === "branches")!;
const atms = DATASETS.find((d) => d.id === "atms")!;
const metrics = DATASETS.find((d) => d.id === "service-metrics-pca")!;

interface BranchOptions {
  id: string;
  name: string;
  saturdayClosing?: string;
  services?: string[];
  sequence?: string;
}

/** One Acme Bank branch as YAML list item text. */
function branch({
  id,
  name,
  saturdayClosing = "12:30",
  services = ["WiFi", "Parking"],
  sequence = "0",
}: BranchOptions): string {
  return [
    `  - Identification: "${id}"`,
    `    SequenceNumber: "${sequence}"`,
    `    Name: "${name}"`,
    "    Type: Physical",
    "    CustomerSegment: [Personal]",
    `    ServiceAndFacility: [${services.join(", ")}]`,
    "    Availability:",
    "      StandardAvailability:",
    "        Day:",
    "          - Name: Friday",
    "            OpeningHours:",
    '              - { OpeningTime: "09:00", ClosingTime: "17:00" }',
    "          - Name: Saturday",
    "            OpeningHours:",
    `              - { OpeningTime: "09:00", ClosingTime: "${saturdayClosing}" }`,
    "    PostalAddress:",
    "      PostCode: ZZ1 1ZZ",
  ].join("\n");
}

function acme(...items: string[]): string {
  return ["BrandName: Acme Bank", "Branch:", ...items, ""].join("\n");
}

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());

/**
 * Two commits of fixture content: the samples plus Acme Bank's branches 1041, 1042 and 1043, then
 * 1042's Saturday closing moved, 1043's services changed, 1041 removed and 1044 added.
 */
async function twoCommits(): Promise<{ base: string; head: string }> {
  fixture = await sampleFixture({
    "branches/acme-bank.yaml": acme(
      branch({ id: "1041", name: "Old Town" }),
      branch({ id: "1042", name: "Harbour Street" }),
      branch({ id: "1043", name: "Market Square" }),
    ),
  });
  const base = await commitAll(fixture.root, "Acme Bank branches", FIXTURE_EPOCH);
  await fixture.put({
    "branches/acme-bank.yaml": acme(
      branch({ id: "1042", name: "Harbour Street", saturdayClosing: "13:00" }),
      branch({ id: "1043", name: "Market Square", services: ["WiFi", "NightSafe"] }),
      branch({ id: "1044", name: "Riverside" }),
    ),
  });
  const head = await commitAll(fixture.root, "Acme Bank: Saturday hours, Riverside", "1790086400");
  return { base, head };
}

describe("the change summary of two commits", () => {
  it("lists per data set the records added, removed and changed, with old and new values", async () => {
    const { base, head } = await twoCommits();
    const { markdown } = await changeSummary({
      contentDir: fixture.content,
      base,
      head,
      cwd: fixture.root,
    });
    expect(markdown.startsWith(`${SUMMARY_MARKER}\n`)).toBe(true);
    expect(markdown).toContain(
      `Comparing \`${base.slice(0, 7)}\` (before) with \`${head.slice(0, 7)}\` (after).`,
    );
    expect(markdown).toContain("#### Branches: 1 added, 1 removed, 2 changed");
    expect(markdown).toContain("**Added**\n\n- Branch 1044 (Acme Bank): `Riverside`\n");
    expect(markdown).toContain("**Removed**\n\n- Branch 1041 (Acme Bank): `Old Town`\n");
    expect(markdown).toContain(
      "- Branch 1042 (Acme Bank): Availability/StandardAvailability/Day/Saturday closing `12:30` → `13:00`\n",
    );
    expect(markdown).toContain(
      "- Branch 1043 (Acme Bank): ServiceAndFacility: added `NightSafe`; removed `Parking`",
    );
    // Only what changed: the other data sets of the samples are untouched.
    expect(markdown).not.toContain("#### ATMs");
    expect(markdown).toMatch(/\| Branches \| (\d+) \| \1 \| 1 \| 1 \| 2 \|/);
  });

  it("compares the work tree, uncommitted edits included, when no head is given", async () => {
    const { head } = await twoCommits();
    await fixture.put({
      "branches/acme-bank.yaml": acme(
        branch({ id: "1042", name: "Harbour Street", saturdayClosing: "13:00" }),
        branch({ id: "1043", name: "Market Square", services: ["WiFi", "NightSafe"] }),
        branch({ id: "1044", name: "Riverside", saturdayClosing: "16:00" }),
      ),
    });
    const { markdown } = await changeSummary({
      contentDir: fixture.content,
      base: head,
      cwd: fixture.root,
    });
    expect(markdown).toContain("(before) with `work tree` (after).");
    expect(markdown).toContain(
      "- Branch 1044 (Acme Bank): Availability/StandardAvailability/Day/Saturday closing `12:30` → `16:00`",
    );
  });

  it("says so when nothing published changes", async () => {
    const { head } = await twoCommits();
    const { markdown } = await changeSummary({
      contentDir: fixture.content,
      base: head,
      head,
      cwd: fixture.root,
    });
    expect(markdown).toContain("No published data changes.");
  });

  it("reports a revision whose content does not build instead of comparing it", async () => {
    const { head } = await twoCommits();
    await fixture.put({ "atms/zz.yaml": "BrandName: Zed\nATM:\n  - Identification: A1\n" });
    const { markdown } = await changeSummary({
      contentDir: fixture.content,
      base: head,
      cwd: fixture.root,
    });
    expect(markdown).toContain("> The content of `work tree` does not build: 2 problems");
    expect(markdown).toContain(
      '> - `content/atms/zz.yaml:3:5` required field "Location" is missing',
    );
    expect(markdown).not.toContain("| Data set |");
  });

  it("warns when the change would be refused by the publication guard", async () => {
    const { head } = await twoCommits();
    await fixture.put({ "branches/acme-bank.yaml": null });
    const { markdown, shrinks } = await changeSummary({
      contentDir: fixture.content,
      base: head,
      cwd: fixture.root,
      maxShrink: 0.1,
    });
    expect(shrinks.map((s) => s.dataset)).toEqual(["branches"]);
    expect(markdown).toContain("> [!WARNING]\n> Branches would shrink from");
    expect(markdown).toContain("OPENDATA_ALLOW_SHRINK=1");
  });

  it("keeps long lists bounded: the first items, then how many more", async () => {
    const { base, head } = await twoCommits();
    const { markdown } = await changeSummary({
      contentDir: fixture.content,
      base,
      head,
      cwd: fixture.root,
      limits: { ...DEFAULT_LIMITS, records: 1 },
    });
    expect(markdown).toContain(
      "**Changed**\n\n- Branch 1042 (Acme Bank): Availability/StandardAvailability/Day/Saturday closing `12:30` → `13:00`\n- … and 1 more records\n",
    );
  });

  it("cuts a summary longer than a comment can hold at a line, and says so", async () => {
    const { base, head } = await twoCommits();
    const { markdown } = await changeSummary({
      contentDir: fixture.content,
      base,
      head,
      cwd: fixture.root,
      limits: { ...DEFAULT_LIMITS, characters: 600 },
    });
    expect(markdown.length).toBeLessThanOrEqual(600);
    expect(markdown).toMatch(/\n\n_The summary stops here: .*`npm run diff`.*_\n$/);
  });

  it("treats a revision without a content folder as publishing nothing", async () => {
    fixture = await sampleFixture({ "../README.md": "before any content\n" });
    await git(fixture.root, ["init", "-q", "-b", "main"]);
    await git(fixture.root, ["add", "README.md"]);
    await git(fixture.root, ["commit", "-q", "-m", "no content yet"]);
    const empty = (await git(fixture.root, ["rev-parse", "HEAD"])).trim();
    const { markdown } = await changeSummary({
      contentDir: fixture.content,
      base: empty,
      cwd: fixture.root,
    });
    expect(markdown).toMatch(/\| Branches \| – \| \d+ \| \d+ \| 0 \| 0 \|/);
  });
});

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

  it("keeps content from turning into Markdown: links, mentions, HTML and code fences", () => {
    expect(escapeMarkdown("[x](http://e.org) @team <b>*hi*</b>")).toBe(
      "\\[x\\](http://e.org) &#64;team \\<b\\>\\*hi\\*\\</b\\>",
    );
    const change = {
      kind: "changed" as const,
      path: [{ kind: "field" as const, text: "Note" }],
      before: "a`b",
      after: "x\ny",
    };
    expect(changeText(change, DEFAULT_LIMITS)).toBe("Note ``a`b`` → `x ⏎ y`");
  });
});
