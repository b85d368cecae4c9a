/**
 * The API reference's examples (docs/decisions.md, "The API reference is generated, not rendered
 * by a package"): for each path of /openapi.json a request that works against this build, with
 * every path parameter filled from the data it publishes, and the answer that request gets, cut
 * from the bytes this build serves: the data set's body, a near-me answer's records, a stored
 * change answer, a document. Nothing is written by hand; a path this module cannot give an
 * example of fails the build, so a new kind of path cannot go undocumented.
 */
import type { ChangesEntry, ManifestEntry } from "../../../contract/manifest.js";
import {
  NEAR_OPEN_BANKING_PREFIX,
  NEAR_PREFIX,
  NEAR_STANDARD_PREFIX,
  POSTCODE_RADIUS_MILES,
  RADIUS_MILES,
  type NearIndex,
} from "../../../contract/near.js";
import { distanceMiles, normaliseName, postcodeKeys } from "../../../contract/place.js";
import { ERRORS, ERROR_MEDIA_TYPE } from "../../../contract/errors.js";
import { LAST_UPDATED_TOKEN, SINCE_PARAMETER } from "../../../contract/changes.js";
import type { DatasetDefinition } from "../../core/datasets.js";
import { toRfc3339 } from "../../core/dates.js";
import { withinSync } from "../../core/internal-error.js";
import { servedPaths } from "../served-paths.js";

/** What a published path answers, as the reference shows it. */
interface ExampleAnswer {
  readonly status: number;
  readonly mediaType: string;
  /** The body as shown: JSON with long lists and texts cut (abbreviate), or the first lines of text. */
  readonly shown: string;
}

/** One concrete request of a path of /openapi.json, and what it answers. */
export interface Example {
  /** The path with its parameters filled in, and its query string: what the samples ask for. */
  readonly url: string;
  /** What each filled parameter was set to, by name, for the page to say. */
  readonly values: Readonly<Record<string, string>>;
  readonly answer: ExampleAnswer;
}

export interface ExampleInput {
  readonly datasets: readonly {
    readonly dataset: DatasetDefinition;
    readonly entry: ManifestEntry;
    /** The identity body as published. */
    readonly body: Buffer;
  }[];
  /** Each near-me index as written, and the segment codes its data set's schema allows, by data set id. */
  readonly near: ReadonlyMap<string, NearData>;
  readonly changes: readonly ChangesEntry[];
  /** The identity bytes of each stored change answer, by its identity asset. */
  readonly answers: ReadonlyMap<string, Buffer>;
  /** The documents' bytes, by path, with their media types. */
  readonly documents: ReadonlyMap<string, { readonly mediaType: string; readonly bytes: Buffer }>;
}

/** A data set's near-me index, and the segment codes its schema allows (contract/near.ts). */
interface NearData {
  readonly index: NearIndex;
  readonly segments: readonly string[];
}

/** Cut from a list: every item after the first stands as this one mark. */
const MORE = "…";
// A text longer than this is cut, with MORE after what is kept.
const LONGEST_TEXT = 80;
// Lines of a text body shown, and the longest line.
const TEXT_LINES = 10;

/**
 * A JSON value as the reference shows it: each list's first item, then MORE if it has others;
 * each text over LONGEST_TEXT characters cut, ending with MORE. Everything else as it is, so what
 * is shown can be checked against a real answer field by field.
 */
export function abbreviate(value: unknown): unknown {
  if (typeof value === "string") {
    return value.length > LONGEST_TEXT ? value.slice(0, LONGEST_TEXT - 1) + MORE : value;
  }
  if (Array.isArray(value)) {
    return value.length === 0 ? [] : [abbreviate(value[0]), ...(value.length > 1 ? [MORE] : [])];
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, abbreviate(v)]));
  }
  return value;
}

// A list or object that fits in this many characters is written on one line.
const ONE_LINE = 64;

/**
 * JSON on one line, a space after each comma and colon, if it takes at most `budget` characters;
 * undefined as soon as it would take more, so a large value costs no more than its first part.
 */
function oneLine(value: unknown, budget: number): string | undefined {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    return text.length <= budget ? text : undefined;
  }
  const entries: [string | undefined, unknown][] = Array.isArray(value)
    ? value.map((v) => [undefined, v])
    : Object.entries(value);
  const parts: string[] = [];
  let used = 2;
  for (const [key, item] of entries) {
    const name = key === undefined ? "" : `${JSON.stringify(key)}: `;
    const text = oneLine(item, budget - used - name.length);
    if (text === undefined) return undefined;
    parts.push(name + text);
    used += name.length + text.length + 2;
  }
  if (used - (parts.length > 0 ? 2 : 0) > budget) return undefined;
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return open + parts.join(", ") + close;
}

/** JSON, two spaces an indent, each list or object short enough on one line of its own. */
export function compactJson(value: unknown, indent = ""): string {
  const flat = oneLine(value, ONE_LINE);
  if (flat !== undefined) return flat;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  const items = Array.isArray(value)
    ? value.map((v) => inner + compactJson(v, inner))
    : Object.entries(value).map(
        ([k, v]) => `${inner}${JSON.stringify(k)}: ${compactJson(v, inner)}`,
      );
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${items.join(",\n")}\n${indent}${close}`;
}

const shownJson = (value: unknown) => compactJson(abbreviate(value));

// The first lines of a text body, each cut to LONGEST_TEXT, then MORE if there are others.
function shownText(text: string): string {
  const lines = text.split("\n");
  const kept = lines
    .slice(0, TEXT_LINES)
    .map((l) => (l.length > LONGEST_TEXT ? l.slice(0, LONGEST_TEXT - 1) + MORE : l));
  return [...kept, ...(lines.length > TEXT_LINES ? [MORE] : [])].join("\n");
}

/** An answer's envelope as an example shows it: its lists cut short, marked MORE. */
type ExampleEnvelope = { meta: unknown; data: unknown[] };

/**
 * The records `numbers` of a data set with a near-me index, as the envelope the Worker answers
 * with would hold them, cut to the first record of the first brand: parsed from the body's stored
 * byte ranges alone (contract/near.ts), never the whole body.
 */
function nearEnvelope(
  index: NearIndex,
  body: Buffer,
  recordsKey: string,
  numbers: readonly number[],
): ExampleEnvelope {
  const slice = (start: number, end: number) => body.subarray(start, end).toString("utf8");
  const { meta } = JSON.parse(
    `${slice(...index.head)}${numbers.length}${slice(...index.metaTail)}[]}`,
  ) as ExampleEnvelope;
  if (numbers.length === 0) return { meta, data: [] };
  const first = numbers[0]!;
  const brand = index.records[first * 3]!;
  const b = index.brands.slice(brand * 4, brand * 4 + 4);
  const shell = JSON.parse(slice(b[0]!, b[1]!) + slice(b[2]!, b[3]!)) as Record<string, unknown>;
  const record = JSON.parse(
    slice(index.records[first * 3 + 1]!, index.records[first * 3 + 2]!),
  ) as unknown;
  const ofBrand = numbers.filter((n) => index.records[n * 3] === brand).length;
  const brands = new Set(numbers.map((n) => index.records[n * 3])).size;
  // Lists as long as the answer's are shown: abbreviate marks the others.
  const records = [record, ...(ofBrand > 1 ? [MORE] : [])];
  return {
    meta,
    data: [{ Brand: [{ ...shell, [recordsKey]: records }, ...(brands > 1 ? [MORE] : [])] }],
  };
}

/** The record numbers in `lists` whose first record comes first, and its key. */
function firstList(
  lists: Readonly<Record<string, readonly number[]>>,
): [key: string, records: readonly number[]] | undefined {
  let best: [string, readonly number[]] | undefined;
  for (const [key, records] of Object.entries(lists)) {
    if (records.length > 0 && (best === undefined || records[0]! < best[1][0]!))
      best = [key, records];
  }
  return best;
}

/** The records within `radius` miles, nearest first, equal distances in publication order. */
function within(index: NearIndex, latitude: number, longitude: number, radius: number): number[] {
  const found: { record: number; miles: number }[] = [];
  for (let i = 0; i < index.located.length; i += 3) {
    const miles = distanceMiles(latitude, longitude, index.located[i]!, index.located[i + 1]!);
    if (miles <= radius) found.push({ record: index.located[i + 2]!, miles });
  }
  return found.sort((a, b) => a.miles - b.miles || a.record - b.record).map((f) => f.record);
}

// A coordinate as a path segment the Worker reads: at most six decimals, no exponent.
const coordinate = (n: number) => String(Number(n.toFixed(6)));

interface NearExample {
  readonly tail: string;
  readonly values: Record<string, string>;
  /** The records answered, in answer order; "unplaced" for a postcode the index cannot place. */
  readonly records: readonly number[] | "unplaced";
}

/**
 * What a filter asks for when no record published has a value of it (an empty data set, records
 * without coordinates): a well-formed value, answered with no records (or, for a postcode, as one
 * that cannot be placed).
 */
const NO_VALUE = {
  country: "GB",
  town: "London",
  sortcode: "000000",
  latitude: "51.5074",
  longitude: "-0.1278",
  postcode: "SW1A1AA",
} as const;

/** The request of one filter's path (its tail after the data set's name), and the records it gets. */
function nearExample(template: string, { index, segments }: NearData): NearExample | undefined {
  switch (template) {
    case "/country/{country}": {
      const [country, records] = firstList(index.country) ?? [NO_VALUE.country, []];
      return { tail: `/country/${country}`, values: { country }, records };
    }
    case "/country/{country}/town/{town}": {
      const found = firstList(index.town);
      const [country, town] = found
        ? [found[0].slice(0, 2), found[0].slice(3)]
        : [NO_VALUE.country, NO_VALUE.town];
      return {
        tail: `/country/${country}/town/${encodeURIComponent(town)}`,
        values: { country, town },
        records: found?.[1] ?? index.town[`${country}/${normaliseName(town)}`] ?? [],
      };
    }
    case "/sortcode/{sortcode}": {
      const [sortcode, records] = firstList(index.sortcode) ?? [NO_VALUE.sortcode, []];
      return { tail: `/sortcode/${sortcode}`, values: { sortcode }, records };
    }
    case "/segment/{segment}": {
      const found = firstList(index.segment);
      const segment = found?.[0] ?? segments[0];
      if (segment === undefined) return undefined;
      return { tail: `/segment/${segment}`, values: { segment }, records: found?.[1] ?? [] };
    }
    case "/geo-location/lat/{latitude}/long/{longitude}": {
      // The first record with coordinates, in publication order: the point is where it is.
      let at = -1;
      for (let i = 0; i < index.located.length; i += 3) {
        if (at < 0 || index.located[i + 2]! < index.located[at + 2]!) at = i;
      }
      const [latitude, longitude] =
        at < 0
          ? [NO_VALUE.latitude, NO_VALUE.longitude]
          : [coordinate(index.located[at]!), coordinate(index.located[at + 1]!)];
      return {
        tail: `/geo-location/lat/${latitude}/long/${longitude}`,
        values: { latitude, longitude },
        records: within(index, Number(latitude), Number(longitude), RADIUS_MILES.default),
      };
    }
    case "/postcode/{postcode}": {
      // The first postcode the index places at its unit; the Worker reads it with postcodeKeys.
      const postcode = Object.keys(index.postcodes.unit)[0] ?? NO_VALUE.postcode;
      const keys = postcodeKeys(postcode);
      const at = keys && index.postcodes.unit[keys.unit];
      return {
        tail: `/postcode/${postcode}`,
        values: { postcode },
        records: at ? within(index, at[0], at[1], POSTCODE_RADIUS_MILES) : "unplaced",
      };
    }
    default:
      return undefined;
  }
}

/**
 * The example of each path of `paths` (the keys of /openapi.json's `paths`), in their order.
 * Throws on a path it has no example of: the reference would have nothing true to show.
 */
export function examplesFor(paths: readonly string[], input: ExampleInput): Map<string, Example> {
  const served = new Map<
    string,
    { mediaType: string; dataset: ExampleInput["datasets"][number] }
  >();
  for (const d of input.datasets) {
    for (const p of servedPaths(d.entry))
      served.set(p.path, { mediaType: p.mediaType, dataset: d });
  }
  const changes = new Map<string, { mediaType: string; entry: ChangesEntry }>();
  for (const entry of input.changes) {
    for (const p of [entry, ...entry.aliases])
      changes.set(p.path, { mediaType: p.mediaType, entry });
  }
  const examples = new Map<string, Example>();
  for (const path of paths) {
    const example = withinSync(`the example of ${path}`, () => {
      const made =
        datasetExample(path, served, input.near) ??
        changesExample(path, changes, input.answers) ??
        documentExample(path, input.documents) ??
        nearPathExample(path, served, input.near);
      // Only a kind of path this module does not know: a fault of the code, never the content's.
      if (!made) throw new Error(`the API reference has no example of ${path}`);
      return made;
    });
    examples.set(path, example);
  }
  return examples;
}

function datasetExample(
  path: string,
  served: ReadonlyMap<string, { mediaType: string; dataset: ExampleInput["datasets"][number] }>,
  near: ReadonlyMap<string, NearData>,
): Example | undefined {
  const found = served.get(path);
  if (!found) return undefined;
  const { dataset, entry, body } = found.dataset;
  const index = near.get(entry.dataset)?.index;
  // Where the data set has an index, only its first record's bytes are parsed (a body may be tens
  // of megabytes); the service metrics have none, and are a few records per brand. A body with no
  // record is parsed whole: it is small, and shows its brands as they are.
  const envelope =
    index && dataset.recordsKey && index.records.length > 0
      ? nearEnvelope(
          index,
          body,
          dataset.recordsKey,
          Array.from({ length: index.records.length / 3 }, (_, i) => i),
        )
      : (JSON.parse(body.toString("utf8")) as unknown);
  return {
    url: path,
    values: {},
    answer: { status: 200, mediaType: found.mediaType, shown: shownJson(envelope) },
  };
}

function changesExample(
  path: string,
  changes: ReadonlyMap<string, { mediaType: string; entry: ChangesEntry }>,
  bodies: ReadonlyMap<string, Buffer>,
): Example | undefined {
  const found = changes.get(path);
  if (!found) return undefined;
  const { answers } = found.entry;
  // The changes since the version before the current one, when there is one (an answer with
  // something in it), else since the current one (nothing listed). Named by its LastUpdated where
  // that names it alone, else by its ETag: two versions share a LastUpdated when an edit is saved
  // in the second of its commit, or after a commit dated ahead of the clock (an edit is never dated
  // before the version it edits), and such a LastUpdated names neither (answers.ts, tokensOf).
  for (const answer of [answers[1], answers[0]]) {
    const since = answer?.tokens.find((t) => LAST_UPDATED_TOKEN.test(t)) ?? answer?.tokens[0];
    const bytes = answer && bodies.get(answer.variants.identity.asset);
    if (!answer || since === undefined || !bytes) continue;
    return {
      url: `${path}?${SINCE_PARAMETER}=${since}`,
      values: { [SINCE_PARAMETER]: since },
      answer: {
        status: 200,
        mediaType: found.mediaType,
        shown: shownJson(JSON.parse(bytes.toString("utf8"))),
      },
    };
  }
  // No answer any token names (none is kept): asked since the data set's LastUpdated, the Worker
  // answers 410, which the reference then shows, rather than a build that stops for want of an
  // example (docs/decisions.md#what-the-references-examples-ask-for-and-show).
  const lastUpdated = toRfc3339(found.entry.lastModifiedMs / 1000);
  return {
    url: `${path}?${SINCE_PARAMETER}=${lastUpdated}`,
    values: { [SINCE_PARAMETER]: lastUpdated },
    answer: {
      status: 410,
      mediaType: ERROR_MEDIA_TYPE,
      shown: compactJson({ status: "410", ...ERRORS[410] }),
    },
  };
}

function documentExample(path: string, documents: ExampleInput["documents"]): Example | undefined {
  const found = documents.get(path);
  if (!found) return undefined;
  const text = found.bytes.toString("utf8");
  const json = /json/.test(found.mediaType);
  return {
    url: path,
    values: {},
    answer: {
      status: 200,
      mediaType: found.mediaType,
      shown: json ? shownJson(JSON.parse(text)) : shownText(text),
    },
  };
}

function nearPathExample(
  path: string,
  served: ReadonlyMap<string, { mediaType: string; dataset: ExampleInput["datasets"][number] }>,
  near: ReadonlyMap<string, NearData>,
): Example | undefined {
  for (const [prefix, standard] of [
    [NEAR_PREFIX, NEAR_STANDARD_PREFIX],
    [NEAR_OPEN_BANKING_PREFIX, "/open-banking/v2.2/"],
  ] as const) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const name = rest.split("/")[0]!;
    const found = served.get(standard + name);
    const data = found && near.get(found.dataset.entry.dataset);
    const key = found?.dataset.dataset.recordsKey;
    if (!found || !data || !key) return undefined;
    const example = nearExample(rest.slice(name.length), data);
    if (!example) return undefined;
    // A postcode no record places (no record has one) is a 404 with the specs' error body.
    const answer: ExampleAnswer =
      example.records === "unplaced"
        ? {
            status: 404,
            mediaType: ERROR_MEDIA_TYPE,
            shown: compactJson({ status: "404", ...ERRORS[404] }),
          }
        : {
            status: 200,
            mediaType: found.mediaType,
            shown: shownJson(nearEnvelope(data.index, found.dataset.body, key, example.records)),
          };
    return { url: prefix + name + example.tail, values: example.values, answer };
  }
  return undefined;
}
