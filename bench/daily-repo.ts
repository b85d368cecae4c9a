/**
 * A publisher's repository, as a real one is made: one ATM feed imported with `npm run import --
 * --repair --force` on each day it changed, one commit a day, dated as that day. It starts from a
 * real published feed read where it lies (`../shared/feeds/` beside the project, never copied into
 * the project), or from a generated one when that is absent; then, day by day and seeded, a few
 * records are added, moved (coordinates and street changed), changed (services, accessibility, the
 * smallest amount, the 24-hour indicator) and removed, and the feed's meta.LastUpdated is that day.
 *
 * Each day's YAML is what the importer writes for that day's feed (test/bench/daily-repo.test.ts
 * imports days with the importer itself and compares bytes), but made without running it 200
 * times: the importer's own repair and YAML writer are applied per record, and a record's text is
 * kept while the record is unchanged. The commits go to git in one `git fast-import` stream.
 * The repository is kept under .out/bench-repos/, named by its parameters, and reused.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { createAjv, readSchemas, validatorFor } from "../build/check/schemas.js";
import type { DatasetDefinition } from "../build/core/datasets.js";
import { dateToRfc3339 } from "../build/core/dates.js";
import { plural } from "../build/core/format.js";
import { PROJECT_ROOT, SCHEMA_DIR } from "../build/core/paths.js";
import { datasetById, readFeed } from "../build/import/envelope.js";
import { repairBrand } from "../build/import/repair.js";
import { slugify } from "../build/import/slug.js";
import { renderYaml, schemaModeline } from "../build/import/yaml-out.js";
import { atm, random } from "./generate.js";
import { GIT_ENV } from "./git-env.js";

/** The real feed a repository starts from, relative to the project (issue 45, item 5). */
export const START_FEED = join("..", "shared", "feeds", "hsbc_atm_v2.2_2024-01-21.json");

/** Bumped when what the generator makes changes, so cached repositories are made again. */
const GENERATOR_VERSION = 1;

export interface DailyOptions {
  /** Commits, one a day; the first is the start feed as it is. */
  readonly days: number;
  readonly seed: number;
  /** The start feed's path; absent or missing: a generated feed of `generatedAtms` ATMs. */
  readonly feed?: string | undefined;
  readonly generatedAtms?: number;
}

export type Envelope = { meta: Record<string, unknown>; data: { Brand: Brand[] }[] };
type Brand = Record<string, unknown>;
type Rec = Record<string, unknown>;

const DAY_MS = 86_400_000;

/** A generated ATM feed, for when the real one is not there: one brand, meta as publishers serve it. */
export function generatedFeed(atms: number, seed = 1): Envelope {
  const rnd = random(seed);
  const records = Array.from({ length: atms }, (_, n) => atm(n, rnd));
  return {
    meta: { LastUpdated: "2024-01-21T06:23:28.376Z", TotalResults: atms },
    data: [{ Brand: [{ BrandName: "Synthetic Bank", ATM: records }] }],
  };
}

/** The start feed: the real one when `path` names a file that is there, else a generated one. */
function startFeed(options: DailyOptions): {
  feed: Envelope;
  source: string;
  real: boolean;
} {
  if (options.feed && existsSync(options.feed)) {
    return {
      feed: JSON.parse(readFileSync(options.feed, "utf8")) as Envelope,
      source: options.feed,
      real: true,
    };
  }
  return {
    feed: generatedFeed(options.generatedAtms ?? 1234),
    source: "synthetic_atm_2024-01-21.json",
    real: false,
  };
}

/** What changed on one day, by kind (record identifications). */
interface DayChanges {
  readonly added: string[];
  readonly moved: string[];
  readonly changed: string[];
  readonly removed: string[];
}

export interface Day {
  readonly index: number;
  readonly date: Date;
  /** The day's feed, as the publisher served it. */
  readonly feed: Envelope;
  /** The feed's file name that day, as it is given to the importer. */
  readonly source: string;
  readonly changes: DayChanges;
}

export function brandOf(feed: Envelope): Brand {
  const brands = feed.data.flatMap((item) => item.Brand);
  if (brands.length !== 1) throw new Error(`the start feed has ${brands.length} brands, not one`);
  return brands[0]!;
}

/** `source` with its date (YYYY-MM-DD) replaced by `day`'s, or the day's date added. */
function sourceOn(source: string, day: Date): string {
  const date = day.toISOString().slice(0, 10);
  return /\d{4}-\d{2}-\d{2}/.test(source)
    ? source.replace(/\d{4}-\d{2}-\d{2}/, date)
    : source.replace(/(\.json)?$/, `_${date}$1`);
}

function shifted(value: unknown, by: number): unknown {
  const n = Number(value);
  return Number.isFinite(n) ? (n + by).toFixed(6) : value;
}

/** Moves a record: new coordinates a few hundred metres away and a new street. */
function move(record: Rec, rnd: () => number, day: number): Rec {
  const moved = structuredClone(record);
  const location = (moved.Location ?? {}) as Rec;
  const address = (location.PostalAddress ?? {}) as Rec;
  const geo = (address.GeoLocation as Rec | undefined)?.GeographicCoordinates as Rec | undefined;
  if (geo) {
    geo.Latitude = shifted(geo.Latitude, (rnd() - 0.5) * 0.01);
    geo.Longitude = shifted(geo.Longitude, (rnd() - 0.5) * 0.01);
  }
  address.StreetName = `${1 + Math.floor(rnd() * 200)} New Street (moved day ${day})`;
  location.PostalAddress = address;
  moved.Location = location;
  return moved;
}

const SERVICES = ["Balance", "MiniStatement", "PINChange", "MobilePhoneTopUp"] as const;

/** Changes one thing about a record that is not where it is. */
function change(record: Rec, rnd: () => number): Rec {
  const changed = structuredClone(record);
  const what = Math.floor(rnd() * 4);
  if (what === 0) {
    const list = new Set((changed.Accessibility as string[] | undefined) ?? []);
    if (list.has("WheelchairAccess")) list.delete("WheelchairAccess");
    else list.add("WheelchairAccess");
    if (list.size > 0) changed.Accessibility = [...list];
    else delete changed.Accessibility;
  } else if (what === 1) {
    const services = (changed.ATMServices as string[] | undefined) ?? ["CashWithdrawal"];
    const service = SERVICES[Math.floor(rnd() * SERVICES.length)]!;
    changed.ATMServices = services.includes(service)
      ? services.filter((s) => s !== service)
      : [...services, service];
    if ((changed.ATMServices as string[]).length === 0) changed.ATMServices = ["CashWithdrawal"];
  } else if (what === 2) {
    changed.MinimumPossibleAmount = changed.MinimumPossibleAmount === "20" ? "10" : "20";
  } else {
    changed.Access24HoursIndicator = changed.Access24HoursIndicator !== true;
  }
  return changed;
}

/**
 * The days of the repository: day 0 the start feed as it is, then each day a few records added,
 * moved, changed and removed (between 1 and 4 of each kind in all, at least one change), chosen by
 * `seed`, and meta.LastUpdated that day.
 */
export function* dailyFeeds(options: DailyOptions): Generator<Day, void> {
  const start = startFeed(options);
  const brand = brandOf(start.feed);
  const records = [...(brand.ATM as Rec[])];
  const first = new Date(String(start.feed.meta.LastUpdated));
  if (Number.isNaN(first.getTime())) throw new Error("the start feed has no meta.LastUpdated");
  const rnd = random(options.seed);
  let added = 0;
  for (let index = 0; index < options.days; index++) {
    const date = new Date(first.getTime() + index * DAY_MS);
    const changes: DayChanges = { added: [], moved: [], changed: [], removed: [] };
    if (index > 0) {
      const count = 1 + Math.floor(rnd() * 4);
      // Each change of the day on a record of its own, so a day changes `count` records.
      const touched = new Set<unknown>();
      for (let k = 0; k < count; k++) {
        const kind = Math.floor(rnd() * 4);
        let at = Math.floor(rnd() * records.length);
        for (let tries = 0; touched.has(records[at]!.Identification) && tries < 100; tries++) {
          at = Math.floor(rnd() * records.length);
        }
        if (touched.has(records[at]!.Identification)) continue;
        touched.add(records[at]!.Identification);
        const record = records[at]!;
        const id = String(record.Identification);
        if (kind === 0 || records.length < 2) {
          const copy = move(record, rnd, index);
          const newId = `NEW${String(++added).padStart(5, "0")}`;
          copy.Identification = newId;
          touched.add(newId);
          records.splice(at + 1, 0, copy);
          changes.added.push(newId);
        } else if (kind === 1) {
          records[at] = move(record, rnd, index);
          changes.moved.push(id);
        } else if (kind === 2) {
          records[at] = change(record, rnd);
          changes.changed.push(id);
        } else {
          records.splice(at, 1);
          changes.removed.push(id);
        }
      }
    }
    const feed: Envelope = {
      ...start.feed,
      meta: { ...start.feed.meta, LastUpdated: date.toISOString(), TotalResults: records.length },
      data: [{ Brand: [{ ...brand, ATM: [...records] }] }],
    };
    yield {
      index,
      date,
      feed,
      source: index === 0 ? start.source : sourceOn(start.source, date),
      changes,
    };
  }
}

/**
 * The importer's YAML for one day's feed, made per record: `npm run import -- --repair` would
 * write the same bytes (test/bench/daily-repo.test.ts). Keeps each record's repaired text by the
 * record's JSON, so a day costs the records that changed.
 */
export class DailyWriter {
  private readonly texts = new Map<string, { text: string; repairs: number }>();
  private readonly validate;
  readonly dataset: DatasetDefinition;

  /** For the data set `datasetId` (ATMs unless given: the daily feeds are ATM feeds). */
  constructor(datasetId = "atms") {
    this.dataset = datasetById(datasetId);
    this.validate = validatorFor(createAjv(readSchemas(SCHEMA_DIR)), this.dataset.brandSchema);
  }

  /** The path of the brand's file under the content folder. */
  path(feed: Envelope): string {
    return `${this.dataset.contentDir}/${slugify(String(brandOf(feed).BrandName))}.yaml`;
  }

  /** The file's text, as the importer writes it into `contentDir` (for its modeline). */
  render(feed: Envelope, source: string, importedAt: Date, contentDir: string): string {
    const brand = readFeed(feed, source, this.dataset).brands;
    if (brand.length !== 1) throw new Error(`${source}: ${brand.length} brands, not one`);
    const value = brand[0]!.value;
    const key = this.dataset.recordsKey!;
    const records = value[key] as Rec[];
    // The fields beside the records, repaired as the importer repairs them (inside the brand, with
    // one record); their repairs are counted once, each record's with the record.
    const marker = "records-of-the-day";
    const withOne = repairBrand(
      records.length > 0 ? { ...value, [key]: [records[0]] } : value,
      this.validate,
      key,
    );
    const head: Brand = {};
    for (const [k, v] of Object.entries(withOne.value)) head[k] = k === key ? marker : v;
    let repairs = withOne.repairs.filter((r) => !r.pointer.startsWith(`/${key}/`)).length;
    const parts: string[] = [];
    for (const record of records) {
      const part = this.record(value, key, record);
      repairs += part.repairs;
      parts.push(part.text);
    }
    const modeline = schemaModeline(
      relative(
        join(contentDir, this.dataset.contentDir),
        join(dirname(contentDir), basename(SCHEMA_DIR), this.dataset.brandSchema),
      )
        .split(sep)
        .join("/"),
    );
    const comments = [
      `Imported by npm run import from ${source} at ${dateToRfc3339(importedAt)}${repairs > 0 ? `, with ${plural(repairs, "repair")} (--repair)` : ""}.`,
    ];
    if (records.length === 0) return renderYaml(withOne.value, modeline, comments);
    const text = renderYaml(head, modeline, comments);
    const line = `${key}: "${marker}"\n`;
    if (!text.includes(line)) throw new Error(`the records' place not found in ${source}`);
    return text.replace(line, `${key}:\n${parts.join("")}`);
  }

  private record(brand: Brand, key: string, record: Rec): { text: string; repairs: number } {
    const id = JSON.stringify(record);
    let found = this.texts.get(id);
    if (!found) {
      // Repaired alone in its brand, as the importer repairs each record (import/repair.ts).
      const alone = { ...brand, [key]: [record] };
      const repaired = repairBrand(alone, this.validate, key);
      const one = (repaired.value[key] as Rec[])[0];
      const yaml = renderYaml([one], "", []).slice(1);
      found = {
        text: yaml
          .split("\n")
          .map((l) => (l === "" ? l : `  ${l}`))
          .join("\n"),
        repairs: repaired.repairs.filter((r) => r.pointer.startsWith(`/${key}/`)).length,
      };
      this.texts.set(id, found);
    }
    return found;
  }
}

const SITE_FILE = "site.yaml";

/** The publisher's settings (content/site.yaml), from the feed's meta and its brand's name. */
function siteYaml(feed: Envelope): string {
  const text = (value: unknown) => JSON.stringify(String(value));
  return [
    "# yaml-language-server: $schema=../schemas/site.schema.json",
    `License: ${text(feed.meta.License ?? "https://www.openbanking.org.uk/open-licence")}`,
    `TermsOfUse: ${text(feed.meta.TermsOfUse ?? "https://www.openbanking.org.uk/terms")}`,
    `PublisherName: ${text(brandOf(feed).BrandName)}`,
    "",
  ].join("\n");
}

export function git(cwd: string, args: string[], input?: Buffer): string {
  const result = spawnSync("git", args, { cwd, env: GIT_ENV, input, maxBuffer: 1 << 30 });
  if (result.status !== 0) {
    throw new Error(`git ${args[0]} in ${cwd}: ${result.stderr?.toString() ?? result.error}`);
  }
  return result.stdout.toString();
}

/**
 * Writes the days as commits of `repo` (a new repository) with one fast-import stream, each
 * day's files at their paths under content/.
 */
export async function fastImport(
  repo: string,
  commits: Iterable<[Day, [string, string][]]>,
): Promise<void> {
  git(repo, ["init", "-q", "-b", "main"]);
  const child = spawn("git", ["fast-import", "--quiet", "--done"], {
    cwd: repo,
    env: GIT_ENV,
    stdio: ["pipe", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const write = (data: string | Buffer) =>
    new Promise<void>((resolve, reject) =>
      child.stdin.write(data, (error) => (error ? reject(error) : resolve())),
    );
  let n = 0;
  for (const [day, files] of commits) {
    const seconds = Math.floor(day.date.getTime() / 1000);
    const message = Buffer.from(
      `Import of ${day.date.toISOString().slice(0, 10)}: ${day.changes.added.length} added, ${day.changes.moved.length} moved, ${day.changes.changed.length} changed, ${day.changes.removed.length} removed\n`,
    );
    const marks: [string, number][] = [];
    for (const [path, text] of files) {
      const bytes = Buffer.from(text, "utf8");
      await write(`blob\nmark :${++n}\ndata ${bytes.length}\n`);
      await write(bytes);
      await write("\n");
      marks.push([path, n]);
    }
    await write(
      `commit refs/heads/main\nauthor Bench <bench@example.invalid> ${seconds} +0000\ncommitter Bench <bench@example.invalid> ${seconds} +0000\ndata ${message.length}\n`,
    );
    await write(message);
    await write(marks.map(([path, mark]) => `M 100644 :${mark} content/${path}\n`).join("") + "\n");
  }
  await write("done\n");
  child.stdin.end();
  if ((await exited) !== 0) throw new Error(`git fast-import failed: ${stderr}`);
  git(repo, ["reset", "-q", "--hard", "main"]);
}

export interface DailyRepository {
  readonly repo: string;
  readonly contentDir: string;
  /** The brand file's path under content/. */
  readonly file: string;
  readonly real: boolean;
  readonly source: string;
  readonly days: number;
  readonly records: number;
  readonly changes: { added: number; moved: number; changed: number; removed: number };
  /** How long making it took, or 0 when it was reused from .out/. */
  readonly generatedMs: number;
}

/** Makes the repository in `repo` (which must not exist yet). */
export async function makeDailyRepository(
  repo: string,
  options: DailyOptions,
): Promise<Omit<DailyRepository, "generatedMs">> {
  mkdirSync(repo, { recursive: true });
  const writer = new DailyWriter();
  const contentDir = join(repo, "content");
  const totals = { added: 0, moved: 0, changed: 0, removed: 0 };
  let file = "";
  let records = 0;
  let first: Day | undefined;
  function* commits(): Generator<[Day, [string, string][]]> {
    for (const day of dailyFeeds(options)) {
      first ??= day;
      file = writer.path(day.feed);
      records = (brandOf(day.feed).ATM as unknown[]).length;
      totals.added += day.changes.added.length;
      totals.moved += day.changes.moved.length;
      totals.changed += day.changes.changed.length;
      totals.removed += day.changes.removed.length;
      const text = writer.render(day.feed, day.source, day.date, contentDir);
      yield [
        day,
        day.index === 0
          ? [
              [SITE_FILE, siteYaml(day.feed)],
              [file, text],
            ]
          : [[file, text]],
      ];
    }
  }
  await fastImport(repo, commits());
  const start = startFeed(options);
  return {
    repo,
    contentDir,
    file,
    real: start.real,
    source: start.source,
    days: options.days,
    records,
    changes: totals,
  };
}

/**
 * The repository for `options`, under .out/bench-repos/ named by its parameters (and the start
 * feed's bytes), made once and reused; its work tree is reset to its last commit each time.
 */
export async function dailyRepository(options: DailyOptions): Promise<DailyRepository> {
  const start = startFeed(options);
  const key = createHash("sha256")
    .update(JSON.stringify([GENERATOR_VERSION, options.days, options.seed, start.source]))
    .update(JSON.stringify(start.feed))
    .digest("hex")
    .slice(0, 12);
  const repo = join(PROJECT_ROOT, ".out", "bench-repos", `daily-${options.days}d-${key}`);
  const ready = join(repo, ".git", "bench-ready.json");
  if (existsSync(ready)) {
    git(repo, ["reset", "-q", "--hard", "main"]);
    git(repo, ["clean", "-q", "-fdx"]);
    return { ...(JSON.parse(readFileSync(ready, "utf8")) as DailyRepository), generatedMs: 0 };
  }
  rmSync(repo, { recursive: true, force: true });
  const began = performance.now();
  const made = await makeDailyRepository(repo, options);
  const result = { ...made, generatedMs: performance.now() - began };
  writeFileSync(ready, JSON.stringify(made));
  return result;
}
