/**
 * build/check/sites.ts and build/read/site.ts's siteTable: site.yaml's Sites as the build reads
 * them, and every problem issue 46 names (a duplicate Name or Host, a Brands entry naming no brand,
 * a brand in no site) at its line and column in site.yaml, as `npm run validate` reports it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../build/core/diagnostics.js";
import { runValidate } from "../../../build/pipeline.js";
import { siteTable, type SiteSettings } from "../../../build/read/site.js";
import { FIXTURE_EPOCH, sampleFixture, type Fixture } from "../../helpers/fixtures.js";

let fixture: Fixture | undefined;
afterEach(async () => fixture?.cleanup());

const LICENCE = [
  'License: "https://www.openbanking.org.uk/open-licence"',
  'TermsOfUse: "https://www.openbanking.org.uk/terms"',
];

/** `npm run validate` of the sample content (Thistlecombe Bank, Pennyfold Building Society) with this site.yaml. */
async function validateWith(siteYaml: readonly string[]) {
  fixture = await sampleFixture({ "site.yaml": [...siteYaml, ""].join("\n") });
  const result = await runValidate({
    contentDir: fixture.content,
    cwd: fixture.root,
    cacheDir: false,
    env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
  });
  return { ok: result.ok, problems: result.diagnostics.map(formatDiagnostic) };
}

describe("the site table", () => {
  const shared: SiteSettings = {
    License: "https://www.openbanking.org.uk/open-licence",
    TermsOfUse: "https://www.openbanking.org.uk/terms",
    PublisherName: "Thistlecombe Group",
    CacheMaxAgeSeconds: 600,
  };

  it("is absent when site.yaml declares no Sites, so the build publishes as before", () => {
    expect(siteTable(shared)).toBeUndefined();
  });

  it("lists each site with its host, its brands (none listed: every brand) and its own settings", () => {
    const table = siteTable({
      ...shared,
      Sites: [
        {
          Name: "thistlecombe",
          Host: "api.thistlecombe.example",
          Brands: ["Thistlecombe Bank"],
          PublisherName: "Thistlecombe Bank",
        },
        { Name: "group", Host: "opendata.thistlecombe-group.example" },
      ],
    });
    expect(table).toEqual([
      {
        name: "thistlecombe",
        host: "api.thistlecombe.example",
        brands: new Set(["Thistlecombe Bank"]),
        settings: {
          License: "https://www.openbanking.org.uk/open-licence",
          TermsOfUse: "https://www.openbanking.org.uk/terms",
          PublisherName: "Thistlecombe Bank",
          CacheMaxAgeSeconds: 600,
          PublicOrigin: "https://api.thistlecombe.example",
        },
      },
      {
        name: "group",
        host: "opendata.thistlecombe-group.example",
        brands: undefined,
        settings: {
          License: "https://www.openbanking.org.uk/open-licence",
          TermsOfUse: "https://www.openbanking.org.uk/terms",
          PublisherName: "Thistlecombe Group",
          CacheMaxAgeSeconds: 600,
          PublicOrigin: "https://opendata.thistlecombe-group.example",
        },
      },
    ]);
  });
});

describe("checking site.yaml's Sites against the content", () => {
  it("accepts a brand in two sites and a group site that leaves Brands out", async () => {
    const result = await validateWith([
      ...LICENCE,
      "Sites:",
      "  - Name: thistlecombe",
      "    Host: api.thistlecombe.example",
      "    Brands: [Thistlecombe Bank]",
      "  - Name: pennyfold",
      "    Host: api.pennyfold.example",
      "    Brands: [Pennyfold Building Society, Thistlecombe Bank]",
      "  - Name: group",
      "    Host: opendata.thistlecombe-group.example",
    ]);
    expect(result).toEqual({ ok: true, problems: [] });
  });

  it("reports a duplicate Name and Host at both sites, and a Brands entry that names no brand at its place", async () => {
    const result = await validateWith([
      ...LICENCE,
      "Sites:",
      "  - Name: thistlecombe",
      "    Host: api.thistlecombe.example",
      "    Brands: [Thistlecombe Bank, Pennyfold Bulding Society]",
      "  - Name: thistlecombe",
      "    Host: api.thistlecombe.example",
    ]);
    expect(result).toEqual({
      ok: false,
      problems: [
        'content/site.yaml:4:11: /Sites/0/Name: Name "thistlecombe" is given to two sites; the other is at content/site.yaml:7:11',
        'content/site.yaml:5:11: /Sites/0/Host: Host "api.thistlecombe.example" is given to two sites; the other is at content/site.yaml:8:11',
        'content/site.yaml:6:33: /Sites/0/Brands/1: no brand of the content has the BrandName "Pennyfold Bulding Society"; did you mean "Pennyfold Building Society"?',
        'content/site.yaml:7:11: /Sites/1/Name: Name "thistlecombe" is given to two sites; the other is at content/site.yaml:4:11',
        'content/site.yaml:8:11: /Sites/1/Host: Host "api.thistlecombe.example" is given to two sites; the other is at content/site.yaml:5:11',
      ],
    });
  });

  it("reports a brand that no site publishes at the Sites key, naming where the brand is first named", async () => {
    const result = await validateWith([
      ...LICENCE,
      "Sites:",
      "  - Name: thistlecombe",
      "    Host: api.thistlecombe.example",
      "    Brands: [Thistlecombe Bank]",
    ]);
    expect(result).toEqual({
      ok: false,
      problems: [
        'content/site.yaml:3:1: /Sites: the brand "Pennyfold Building Society" (content/branches/pennyfold-building-society.yaml:3:12) is in no site: name it in a site\'s Brands, or leave Brands out of a site that publishes every brand',
      ],
    });
  });

  it("refuses a Host with a port or capitals and a Name that is no DNS label, at their lines", async () => {
    const result = await validateWith([
      ...LICENCE,
      "Sites:",
      "  - Name: Thistlecombe_Bank",
      "    Host: API.thistlecombe.example:8443",
    ]);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      'content/site.yaml:4:11: /Sites/0/Name: must be lower-case letters, digits and hyphens, 1 to 63, not starting or ending with a hyphen, like lloyds-bank (found "Thistlecombe_Bank")',
      'content/site.yaml:5:11: /Sites/0/Host: must be a host name only, in lower case, like api.example-bank.co.uk (no https://, no port, no path, no trailing dot) (found "API.thistlecombe.example:8443")',
    ]);
  });
});
