/**
 * End to end with site.yaml's Sites (issue 46): three brands (the sample's two and a third with
 * ATMs only), a site per brand and a group site, built into a scratch copy of the Worker and
 * served by the real Worker over loopback, each site asked for by its Host. Each host answers
 * only its brands; an edit to one brand's ATMs changes that brand's host's ETag and the group's
 * and no other; a host no site names gets the spec's 404; each site counts its own clients.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBuild } from "../../build/pipeline.js";
import { FIXTURE_EPOCH, sampleFixture, testProfile, type Fixture } from "../helpers/fixtures.js";
import { specErrorBody } from "../helpers/spec-values.js";
import { copyWorkerSources, startWorkerAt, withinOneWindow } from "../helpers/worker.js";
import { parseJson, arrayAt, stringAt } from "../helpers/json.js";
import { newClients, request, type RawResponse } from "./http.js";

const SITE_YAML = [
  'License: "https://www.openbanking.org.uk/open-licence"',
  'TermsOfUse: "https://www.openbanking.org.uk/terms"',
  "Sites:",
  "  - Name: thistlecombe",
  "    Host: api.thistlecombe.example",
  "    Brands: [Thistlecombe Bank]",
  "    PublisherName: Thistlecombe Bank",
  "  - Name: pennyfold",
  "    Host: api.pennyfold.example",
  "    Brands: [Pennyfold Building Society]",
  "  - Name: quillby",
  "    Host: api.quillby.example",
  "    Brands: [Quillby Bank]",
  "  - Name: group",
  "    Host: opendata.thistlecombe-group.example",
  "",
].join("\n");

function quillbyAtms(ids: readonly string[]): string {
  return [
    'BrandName: "Quillby Bank"',
    "ATM:",
    ...ids.flatMap((id, i) => [
      `  - Identification: "${id}"`,
      "    SupportedCurrencies: [GBP]",
      "    Location:",
      "      PostalAddress:",
      `        TownName: "Quillby ${i + 1}"`,
      '        Country: "GB"',
    ]),
    "",
  ].join("\n");
}

const HOSTS = {
  thistlecombe: "api.thistlecombe.example",
  pennyfold: "api.pennyfold.example",
  quillby: "api.quillby.example",
  group: "opendata.thistlecombe-group.example",
} as const;
type SiteName = keyof typeof HOSTS;

/** The open data quota, lowered from 145, so a few requests reach it. */
const LIMIT = 3;

interface Served {
  readonly base: URL;
  dispose(): Promise<void>;
}

let fixture: Fixture;
let root: string;
let first: Served;
let second: Served;

/** Builds the fixture's content into a scratch Worker's dist/ and starts that Worker. */
async function buildAndServe(name: string): Promise<Served> {
  const out = join(root, name, "dist");
  const result = await runBuild({
    contentDir: fixture.content,
    outDir: out,
    cwd: fixture.root,
    env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
    cacheDir: false,
    profile: testProfile(),
  });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  await copyWorkerSources(join(root, name));
  return startWorkerAt(
    join(root, name, "wrangler.toml"),
    { OPEN_DATA_LIMIT_PER_MINUTE: String(LIMIT) },
    true,
  );
}

beforeAll(async () => {
  fixture = await sampleFixture({
    "site.yaml": SITE_YAML,
    "atms/quillby-bank.yaml": quillbyAtms(["QB-ATM-1"]),
  });
  root = await mkdtemp(join(tmpdir(), "opendata-edge-sites-"));
  first = await buildAndServe("first");
  // One edit: a second ATM of Pennyfold Building Society's.
  const pennyfold = join(fixture.content, "atms", "pennyfold-building-society.yaml");
  const text = await readFile(pennyfold, "utf8");
  await writeFile(
    pennyfold,
    text.replace(/Identification: "PBS-ATM-0101"/, 'Identification: "PBS-ATM-0199"'),
  );
  second = await buildAndServe("second");
}, 120_000);

afterAll(async () => {
  await first?.dispose();
  await second?.dispose();
  await fixture?.cleanup();
  if (root) await rm(root, { recursive: true, force: true });
});

const fresh = newClients("198.51");

const get = (worker: Served, host: string, path: string, extra: Record<string, string> = {}) =>
  request(new URL(path, worker.base), { headers: { Host: host, ...fresh(), ...extra } });

// The brands of a body, in its order: none when its data is empty (a site without that data set).
const brandsOf = (response: RawResponse): string[] => {
  const data = arrayAt(parseJson(response.body), "/data");
  return data.length === 0 ? [] : arrayAt(data[0], "/Brand").map((b) => stringAt(b, "/BrandName"));
};

// open-data-api-v2.2.md and its products companion, service-metrics-api-v1.0.md: "Path".
const EIGHT = [
  "/std/v2.2/branches",
  "/std/v2.2/atms",
  "/std/v2.2/personal-current-accounts",
  "/std/v2.2/business-current-accounts",
  "/std/v2.2/unsecured-sme-loans",
  "/std/v2.2/commercial-credit-cards",
  "/std/v1.0/reg-service-metrics/pca",
  "/std/v1.0/reg-service-metrics/bca",
];

const BOTH = ["Pennyfold Building Society", "Thistlecombe Bank"];
/** Each site's brands in each of the eight data sets, in EIGHT's order. */
const EXPECTED: Record<SiteName, string[][]> = {
  thistlecombe: EIGHT.map(() => ["Thistlecombe Bank"]),
  pennyfold: EIGHT.map(() => ["Pennyfold Building Society"]),
  quillby: EIGHT.map((path) => (path === "/std/v2.2/atms" ? ["Quillby Bank"] : [])),
  group: EIGHT.map((path) =>
    path === "/std/v2.2/atms"
      ? ["Pennyfold Building Society", "Quillby Bank", "Thistlecombe Bank"]
      : BOTH,
  ),
};
const SITE_NAMES = Object.keys(HOSTS) as SiteName[];

describe("a Worker with a site per brand and a group site", () => {
  it.each(SITE_NAMES)(
    "answers the eight data sets at %s's host with exactly its brands",
    async (site) => {
      const found: string[][] = [];
      for (const path of EIGHT) {
        const response = await get(first, HOSTS[site], path);
        expect(response.status).toBe(200);
        found.push(brandsOf(response));
      }
      expect(found).toEqual(EXPECTED[site]);
    },
  );

  it("answers the extension paths at a brand's host with its brand's records only", async () => {
    const path = "/x-std/v2.2/branches/country/GB";
    const thistlecombe = await get(first, HOSTS.thistlecombe, path);
    const pennyfold = await get(first, HOSTS.pennyfold, path);
    expect([thistlecombe.status, pennyfold.status]).toEqual([200, 200]);
    expect(brandsOf(thistlecombe)).toEqual(["Thistlecombe Bank"]);
    expect(brandsOf(pennyfold)).toEqual(["Pennyfold Building Society"]);
  });

  it("changes the ETag of the edited brand's host and the group's, and no other", async () => {
    const moved: Record<string, boolean> = {};
    for (const site of SITE_NAMES) {
      for (const path of EIGHT) {
        const before = await get(first, HOSTS[site], path);
        const after = await get(second, HOSTS[site], path);
        if (before.headers.etag !== after.headers.etag) moved[`${site} ${path}`] = true;
      }
    }
    expect(moved).toEqual({
      "pennyfold /std/v2.2/atms": true,
      "group /std/v2.2/atms": true,
    });
  });

  it("names each site's host in its /openapi.json and /participant_store.json", async () => {
    const named: Record<string, [string, string]> = {};
    for (const site of SITE_NAMES) {
      const openapi = parseJson((await get(first, HOSTS[site], "/openapi.json")).body);
      const store = parseJson((await get(first, HOSTS[site], "/participant_store.json")).body);
      named[site] = [stringAt(openapi, "/servers/0/url"), stringAt(store, "/data/0/baseUrl")];
    }
    expect(named).toEqual({
      thistlecombe: ["https://api.thistlecombe.example", "https://api.thistlecombe.example/std"],
      pennyfold: ["https://api.pennyfold.example", "https://api.pennyfold.example/std"],
      quillby: ["https://api.quillby.example", "https://api.quillby.example/std"],
      group: [
        "https://opendata.thistlecombe-group.example",
        "https://opendata.thistlecombe-group.example/std",
      ],
    });
  });

  it.each([
    ["a host no site names", "api.lloyds.example"],
    ["loopback", "127.0.0.1"],
  ])("answers %s with the spec's 404 on every path", async (_, host) => {
    for (const path of ["/", "/std/v2.2/atms", "/openapi.json"]) {
      const response = await get(first, host, path);
      expect(response.status).toBe(404);
      expect(parseJson(response.body)).toEqual(specErrorBody(404));
    }
  });

  it("finds a site's host in capitals, with a port and a trailing dot", async () => {
    const response = await get(first, "API.Pennyfold.Example.:443", "/std/v2.2/atms");
    expect(response.status).toBe(200);
    expect(brandsOf(response)).toEqual(["Pennyfold Building Society"]);
  });

  it("counts a client's requests per site: a spent quota at one host leaves another's", async () => {
    const statuses = await withinOneWindow(async () => {
      const client = fresh();
      const ask = async (host: string) =>
        (
          await request(new URL("/std/v2.2/atms", first.base), {
            headers: { ...client, Host: host },
          })
        ).status;
      const seen: number[] = [];
      for (let i = 0; i <= LIMIT; i++) seen.push(await ask(HOSTS.pennyfold));
      seen.push(await ask(HOSTS.thistlecombe));
      return seen;
    });
    expect(statuses).toEqual([200, 200, 200, 429, 200]);
  });
});
