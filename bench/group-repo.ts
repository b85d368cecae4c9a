/**
 * A banking group's repository, made at run time from the real feeds in `../shared/feeds/`
 * (never copied into the project): three brands, each its own site, and the group's site with
 * every brand (site.yaml's Sites, as docs/editing.md sets them up), in one repository of daily
 * commits. NatWest brings its ATMs and branches; Santander and Bank of Scotland their ATMs. Day 0 is each feed as published; from then on each day every brand's ATMs
 * change a little as in bench/daily-repo.ts (a few records added, moved, changed and removed),
 * one commit a day. Kept under .out/bench-repos/, named by its parameters, and reused.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../build/core/paths.js";
import {
  brandOf,
  dailyFeeds,
  DailyWriter,
  fastImport,
  git,
  type Day,
  type Envelope,
} from "./daily-repo.js";

const FEEDS = join(PROJECT_ROOT, "..", "shared", "feeds");

/** Bumped when what is made changes, so cached repositories are made again. */
const GENERATOR_VERSION = 1;

/** A brand of the group: its site, and its feeds (the ATM feed first, the one that changes). */
interface GroupBrand {
  readonly site: string;
  readonly host: string;
  readonly atms: string;
  readonly others: readonly { readonly file: string; readonly dataset: string }[];
}

const BRANDS: readonly GroupBrand[] = [
  {
    site: "natwest",
    host: "api.natwest.example",
    atms: "natwest_atm_v2.x_2020-02-29.json",
    others: [
      // Not its personal current accounts: the published feed has 92 problems the build reports
      // (90 products of Type "Other" with no OtherType), so that content would never build.
      { file: "natwest_branch_v2.x_2020-02-29.json", dataset: "branches" },
    ],
  },
  {
    site: "santander",
    host: "api.santander.example",
    atms: "santander_atm_v2.2_2020-02-11.json",
    others: [],
  },
  // Not Barclays: its ATM feed has two Identifications used twice, which the build rejects.
  {
    site: "bankofscotland",
    host: "api.bankofscotland.example",
    atms: "bankofscotland_atm_v2.2_2020-02-21.json",
    others: [],
  },
];

/** The group's own site, with every brand. */
export const GROUP_SITE = { name: "group", host: "opendata.group.example" } as const;

export interface GroupRepository {
  readonly repo: string;
  readonly contentDir: string;
  /** Each brand's site, its host and its ATM file's path under content/. */
  readonly brands: readonly { site: string; host: string; atmFile: string }[];
  readonly days: number;
  /** Records on the last day, every data set and brand. */
  readonly records: number;
  /** How long making it took, or 0 when it was reused from .out/. */
  readonly generatedMs: number;
}

/** The feeds the group is made from that are not there (none: it can be made). */
export function missingGroupFeeds(): string[] {
  return BRANDS.flatMap((b) => [b.atms, ...b.others.map((o) => o.file)]).filter(
    (file) => !existsSync(join(FEEDS, file)),
  );
}

function siteYaml(brands: readonly { site: string; host: string; name: string }[]): string {
  return [
    "# yaml-language-server: $schema=../schemas/site.schema.json",
    'License: "https://www.openbanking.org.uk/open-licence"',
    'TermsOfUse: "https://www.openbanking.org.uk/terms"',
    'PublisherName: "A banking group (bench)"',
    "Sites:",
    ...brands.flatMap(({ site, host, name }) => [
      `  - Name: ${site}`,
      `    Host: ${host}`,
      `    Brands: [${JSON.stringify(name)}]`,
    ]),
    `  - Name: ${GROUP_SITE.name}`,
    `    Host: ${GROUP_SITE.host}`,
    "",
  ].join("\n");
}

const records = (feed: Envelope, key: string) =>
  feed.data.flatMap((d) => d.Brand).reduce((n, b) => n + ((b[key] as unknown[]) ?? []).length, 0);

async function makeGroupRepository(
  repo: string,
  days: number,
  seed: number,
): Promise<Omit<GroupRepository, "generatedMs">> {
  const contentDir = join(repo, "content");
  const read = (file: string) => JSON.parse(readFileSync(join(FEEDS, file), "utf8")) as Envelope;
  const brands = BRANDS.map((brand, i) => ({
    ...brand,
    writer: new DailyWriter(),
    days: dailyFeeds({ days, seed: seed + i, feed: join(FEEDS, brand.atms) }),
    name: String(brandOf(read(brand.atms)).BrandName),
  }));
  const atmFiles = brands.map((b) => b.writer.path(read(b.atms)));
  let total = 0;
  function* commits(): Generator<[Day, [string, string][]]> {
    for (let index = 0; index < days; index++) {
      const today = brands.map((b) => b.days.next().value as Day);
      // Dated as the first brand's day: one commit a day, in order.
      const first = today[0]!;
      const files: [string, string][] = today.map((day, i) => [
        atmFiles[i]!,
        brands[i]!.writer.render(day.feed, day.source, first.date, contentDir),
      ]);
      total = today.reduce((n, day) => n + records(day.feed, "ATM"), 0);
      if (index === 0) {
        files.unshift(["site.yaml", siteYaml(brands)]);
        for (const brand of brands) {
          for (const other of brand.others) {
            const writer = new DailyWriter(other.dataset);
            const feed = read(other.file);
            files.push([
              writer.path(feed),
              writer.render(feed, other.file, first.date, contentDir),
            ]);
          }
        }
      }
      const changes = { added: [], moved: [], changed: [], removed: [] } as Day["changes"];
      for (const day of today) {
        for (const kind of ["added", "moved", "changed", "removed"] as const) {
          changes[kind].push(...day.changes[kind]);
        }
      }
      yield [{ ...first, changes }, files];
    }
  }
  mkdirSync(repo, { recursive: true });
  await fastImport(repo, commits());
  const others = BRANDS.flatMap((b) => b.others).reduce((n, o) => {
    const feed = read(o.file);
    const key = new DailyWriter(o.dataset).dataset.recordsKey!;
    return n + records(feed, key);
  }, 0);
  return {
    repo,
    contentDir,
    brands: brands.map((b, i) => ({ site: b.site, host: b.host, atmFile: atmFiles[i]! })),
    days,
    records: total + others,
  };
}

/**
 * The group's repository of `days` daily commits, under .out/bench-repos/ named by its
 * parameters and the feeds' bytes, made once and reused; its work tree reset to its last commit
 * each time. Throws, naming them, when the feeds are not beside the project.
 */
export async function groupRepository(days = 200, seed = 51): Promise<GroupRepository> {
  const missing = missingGroupFeeds();
  if (missing.length > 0) {
    throw new Error(
      `the group repository is made from ${FEEDS}, which lacks ${missing.join(", ")}`,
    );
  }
  const hash = createHash("sha256").update(JSON.stringify([GENERATOR_VERSION, days, seed]));
  for (const b of BRANDS) {
    for (const file of [b.atms, ...b.others.map((o) => o.file)]) {
      hash.update(readFileSync(join(FEEDS, file)));
    }
  }
  const repo = join(
    PROJECT_ROOT,
    ".out",
    "bench-repos",
    `group-${days}d-${hash.digest("hex").slice(0, 12)}`,
  );
  const ready = join(repo, ".git", "bench-ready.json");
  if (existsSync(ready)) {
    git(repo, ["reset", "-q", "--hard", "main"]);
    git(repo, ["clean", "-q", "-fdx"]);
    return { ...(JSON.parse(readFileSync(ready, "utf8")) as GroupRepository), generatedMs: 0 };
  }
  rmSync(repo, { recursive: true, force: true });
  const began = performance.now();
  const made = await makeGroupRepository(repo, days, seed);
  writeFileSync(ready, JSON.stringify(made));
  return { ...made, generatedMs: performance.now() - began };
}
