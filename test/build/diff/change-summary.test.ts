import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { DEFAULT_LIMITS, SUMMARY_MARKER } from "../../../build/diff/markdown.js";
import { changeSummary } from "../../../build/diff/change-summary.js";
import { FIXTURE_EPOCH, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { commitAll, git } from "../../helpers/cli.js";
import { warmCache } from "../../helpers/sample-build.js";

// The build cache every summary here checks both sides with: a copy of the run's, made once.
let copied: Promise<string> | undefined;
const cacheDir = () => (copied ??= warmCache());

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

/**
 * Two commits of fixture content: the samples plus Acme Bank's branches 1041, 1042 and 1043, then
 * 1042's Saturday closing moved, 1043's services changed, 1041 removed and 1044 added. Made once
 * for the tests below; a test that edits the work tree has it put back to the second commit after.
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
  let base: string;
  let head: string;
  beforeAll(async () => {
    ({ base, head } = await twoCommits());
  });
  afterAll(async () => fixture?.cleanup());
  afterEach(async () => {
    // The work tree as the second commit left it, for the next test.
    await git(fixture.root, ["checkout", "-q", "--", "."]);
    await git(fixture.root, ["clean", "-fdq"]);
  });

  it("lists per data set the records added, removed and changed, with old and new values", async () => {
    const { markdown } = await changeSummary({
      cacheDir: await cacheDir(),
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
    await fixture.put({
      "branches/acme-bank.yaml": acme(
        branch({ id: "1042", name: "Harbour Street", saturdayClosing: "13:00" }),
        branch({ id: "1043", name: "Market Square", services: ["WiFi", "NightSafe"] }),
        branch({ id: "1044", name: "Riverside", saturdayClosing: "16:00" }),
      ),
    });
    const { markdown } = await changeSummary({
      cacheDir: await cacheDir(),
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
    const { markdown } = await changeSummary({
      cacheDir: await cacheDir(),
      contentDir: fixture.content,
      base: head,
      head,
      cwd: fixture.root,
    });
    expect(markdown).toContain("No published data changes.");
  });

  it("reports a revision whose content does not build instead of comparing it", async () => {
    await fixture.put({ "atms/zz.yaml": "BrandName: Zed\nATM:\n  - Identification: A1\n" });
    const { markdown } = await changeSummary({
      cacheDir: await cacheDir(),
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
    await fixture.put({ "branches/acme-bank.yaml": null });
    const { markdown, shrinks } = await changeSummary({
      cacheDir: await cacheDir(),
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
    const { markdown } = await changeSummary({
      cacheDir: await cacheDir(),
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
    const { markdown } = await changeSummary({
      cacheDir: await cacheDir(),
      contentDir: fixture.content,
      base,
      head,
      cwd: fixture.root,
      limits: { ...DEFAULT_LIMITS, characters: 600 },
    });
    expect(markdown.length).toBeLessThanOrEqual(600);
    expect(markdown).toMatch(/\n\n_The summary stops here: .*`npm run diff`.*_\n$/);
  });
});

describe("a revision from before the content", () => {
  it("treats a revision without a content folder as publishing nothing", async () => {
    const fixture = await sampleFixture({ "../README.md": "before any content\n" });
    onTestFinished(() => fixture.cleanup());
    await git(fixture.root, ["init", "-q", "-b", "main"]);
    await git(fixture.root, ["add", "README.md"]);
    await git(fixture.root, ["commit", "-q", "-m", "no content yet"]);
    const empty = (await git(fixture.root, ["rev-parse", "HEAD"])).trim();
    const { markdown } = await changeSummary({
      cacheDir: await cacheDir(),
      contentDir: fixture.content,
      base: empty,
      cwd: fixture.root,
    });
    expect(markdown).toMatch(/\| Branches \| – \| \d+ \| \d+ \| 0 \| 0 \|/);
  });
});
