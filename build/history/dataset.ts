/**
 * One data set's changes endpoint: an answer since the current version (nothing listed) and one
 * since each past version kept, newest first, within the bound (the setting's count, and the
 * answers' bytes at most twice the full list's); the `since` tokens that name each; and the
 * publications the feed tells. Taken whole from the cache when neither the data set nor its
 * history moved (docs/decisions.md#how-much-history-is-kept).
 */
import { framed, unframed, type BuildCache } from "../core/cache.js";
import type { DatasetBody } from "../encode/dataset-body.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { toRfc3339 } from "../core/dates.js";
import {
  entityTag,
  PUBLISHED_COMPRESSION,
  variantTags,
  type Compression,
  type EncodedBody,
} from "../encode/variants.js";
import { planForPath } from "../../contract/rate-limits.js";
import { changesPathOf } from "../../contract/changes.js";
import type { ChangeAnswer, ChangesEntry, ManifestEntry } from "../../contract/manifest.js";
import {
  answerBytes,
  bodyRecords,
  slicedRecords,
  changeCount,
  changesFrom,
  indexVersion,
  type VersionRecords,
} from "./records.js";
import {
  brandsKey,
  versionKey,
  VersionReader,
  type VersionCommit,
  type VersionRef,
} from "./version.js";
import type { HistoryStore } from "./store.js";
import { pastForm } from "./facts.js";
import { mapLimit } from "../core/map-limit.js";
import {
  answerVariants,
  bare,
  encodeAnswer,
  qualityOf,
  tokensOf,
  unquoted,
  type BodyTags,
  type Draft,
} from "./answers.js";
import { publication, type Publication } from "./publications.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";

export type { Publication } from "./publications.js";

// How many past versions' files are read together (from memory, the cache or git).
const READ_AHEAD = 16;

/** The kept answers of a data set total at most this many times its full identity body. */
const ANSWER_BYTES_FACTOR = 2;

/** The version being published: the data set as this build made it. */
interface CurrentVersion {
  readonly entry: ManifestEntry;
  /** Its body (step 5): its value and byte ranges, parsed at most once for every step. */
  readonly body: DatasetBody;
}

export interface DatasetHistoryInput {
  readonly dataset: DatasetDefinition;
  readonly current: CurrentVersion;
  /** Past versions, newest first, the current one left out; at most `keep` of them. */
  readonly past: readonly VersionCommit[];
  /** `past` goes back to the data set's first version: git has nothing older. */
  readonly complete: boolean;
  /**
   * The version just older than the oldest kept, when git has one beyond the count kept: the
   * oldest kept version's publication is told against it.
   */
  readonly beyond?: VersionCommit | undefined;
  /** The commit whose content is the current version's, when the work tree is clean. */
  readonly seed: VersionCommit | undefined;
  /** The hashes of versions' content (one batch of git lookups), wanted only on a cache miss. */
  readonly resolve: (versions: readonly VersionCommit[]) => Promise<VersionRef[]>;
  readonly maxFileBytes: number;
  readonly cache: BuildCache | undefined;
  /** How the answers and the past bodies are compressed: as the data set's body is. */
  readonly compression?: Compression | undefined;
  /** Past versions' content; undefined without git. */
  readonly store: HistoryStore | undefined;
  /** Only these brands' records (a site's); undefined: every brand. */
  readonly brands?: ReadonlySet<string> | undefined;
}

/** A stored answer: what the manifest lists and the bytes of each coding. */
export interface StoredAnswer {
  readonly entry: ChangeAnswer;
  readonly encoded: EncodedBody;
  /** Each file is named by its own bytes' hash, so the write step may link an unchanged one. */
  readonly reuse: true;
}

export interface DatasetHistory {
  /** True when its answers were made by this build, not taken whole from the cache. */
  readonly computed: boolean;
  readonly entry: ChangesEntry;
  readonly answers: readonly StoredAnswer[];
  /** Newest first: the current version's first, when there is one before it. */
  readonly publications: readonly Publication[];
}

const ANSWERS_KIND = CACHE_KINDS.historyAnswers;
const VERSION_KIND = CACHE_KINDS.historyVersion;

/** The cached result of one data set, apart from the answers' bytes (kept in the pack). */
interface Summary {
  readonly answers: readonly ChangeAnswer[];
  readonly publications: readonly Publication[];
  /** Cache entries (key and kind, joined by a NUL) a later build will want. */
  readonly keep: readonly string[];
}

export async function datasetHistory(input: DatasetHistoryInput): Promise<DatasetHistory> {
  const { dataset, current, cache } = input;
  // Commits name their content for good: a build whose history has not moved needs no other
  // git lookup to find its answers in the cache.
  const key = cache?.key(
    ANSWERS_KIND,
    compressionOf(input).name,
    dataset.id,
    current.entry.variants.identity.etag,
    String(input.maxFileBytes),
    String(input.complete),
    input.beyond ? `beyond ${input.beyond.commit}:${input.beyond.seconds}` : "",
    ...input.past.map((v) => `${v.commit}:${v.seconds}`),
    ...brandsKey(input.brands),
  );
  const cached = key ? await readSummary(cache!, key) : undefined;
  if (cached) {
    for (const entry of cached.summary.keep) {
      const [k, kind] = entry.split("\0");
      cache!.keep(k!, kind!);
    }
    return { ...assemble(input, cached.summary, cached.pack), computed: false };
  }
  const [past, seed] = await Promise.all([
    input.resolve(input.past),
    input.seed ? input.resolve([input.seed]).then(([ref]) => ref) : undefined,
  ]);
  if (seed && seed.seconds === current.entry.lastModifiedMs / 1000 && cache) {
    // Its identity is this build's body: when it is a past version, no one rebuilds it.
    const kept: KeptVersion = {
      identity: bare(current.entry.variants.identity.etag),
      length: current.entry.variants.identity.length,
    };
    await cache.set(versionEntry(cache, input, seed)[0], VERSION_KIND, JSON.stringify(kept));
  }
  const computed = await compute(input, past, seed);
  if (key) {
    const pack = Buffer.concat(computed.encoded.flatMap(packed));
    await cache!.set(key, ANSWERS_KIND, framed(JSON.stringify(computed.summary), pack));
  }
  return { ...result(input, computed.summary, computed.encoded), computed: true };
}

const packed = (encoded: EncodedBody): Buffer[] => [
  encoded.identity.bytes,
  encoded.br.bytes,
  encoded.gzip.bytes,
];

async function readSummary(
  cache: BuildCache,
  key: string,
): Promise<{ summary: Summary; pack: Buffer } | undefined> {
  const entry = await cache.get(key, ANSWERS_KIND);
  const [summary, pack] = (entry && unframed(entry, 2)) ?? [];
  if (!summary || !pack) return undefined;
  return { summary: JSON.parse(summary.toString("utf8")) as Summary, pack };
}

// The answers' bytes back from the pack, in order, each coding as long as the summary says.
function assemble(
  input: DatasetHistoryInput,
  summary: Summary,
  pack: Buffer,
): Omit<DatasetHistory, "computed"> {
  let at = 0;
  const take = (variant: { etag: string; length: number }) => {
    const bytes = pack.subarray(at, at + variant.length);
    at += variant.length;
    return { bytes, etag: variant.etag };
  };
  const encoded = summary.answers.map(({ variants }) => ({
    identity: take(variants.identity),
    br: take(variants.br!),
    gzip: take(variants.gzip!),
  }));
  return result(input, summary, encoded);
}

function result(
  input: DatasetHistoryInput,
  summary: Summary,
  encoded: readonly EncodedBody[],
): Omit<DatasetHistory, "computed"> {
  const { dataset, current } = input;
  const entry = current.entry;
  const name = changesPathOf(entry.path)!;
  const aliases = entry.aliases.flatMap((alias) => {
    const path = changesPathOf(alias.path);
    return path ? [{ path, mediaType: alias.mediaType }] : [];
  });
  return {
    entry: {
      dataset: dataset.id,
      path: name,
      mediaType: entry.mediaType,
      aliases,
      plan: planForPath(entry.path)!,
      lastModified: entry.lastModified,
      lastModifiedMs: entry.lastModifiedMs,
      answers: summary.answers,
    },
    answers: summary.answers.map((answer, i) => ({
      entry: answer,
      encoded: encoded[i]!,
      reuse: true as const,
    })),
    publications: summary.publications,
  };
}

/**
 * A data set's answers and publications made anew: each kept version's changes against the
 * current one (drafts), encoded; each answer's tokens; and the cache entries a later build wants.
 */
async function compute(
  input: DatasetHistoryInput,
  past: readonly VersionRef[],
  seed: VersionRef | undefined,
): Promise<{ summary: Summary; encoded: EncodedBody[] }> {
  const reader = input.store && new VersionReader(input.store, input.dataset, input.brands);
  const { drafts, publications } = await draftAnswers(input, reader, past);
  const compression = compressionOf(input);
  // The answers compressed on libuv's threads, two at a time, while the versions' ETags are read:
  // most from the cache (eight in flight); a past body made again is made on this thread.
  const [encoded, tags] = await Promise.all([
    mapLimit(drafts, 2, (d, i) =>
      encodeAnswer(d.bytes, qualityOf(drafts, i, compression), compression),
    ),
    mapLimit(drafts, 8, (d) =>
      d.ref
        ? versionTags(input, reader!, d.ref)
        : Promise.resolve(unquoted(input.current.entry.variants)),
    ),
  ]);
  const tokens = tokensOf(drafts, tags, encoded);
  const answers: ChangeAnswer[] = drafts.map((d, i) => ({
    since: d.since,
    totalResults: d.totalResults,
    variants: answerVariants(input.dataset, encoded[i]!),
    tokens: tokens[i]!,
  }));
  return { summary: { answers, publications, keep: keptEntries(input, past, seed) }, encoded };
}

/** The current version's records, from its body's value and byte ranges (read once per body). */
function currentRecords(dataset: DatasetDefinition, body: DatasetBody): VersionRecords {
  const slices = body.slices();
  return slices
    ? slicedRecords(dataset, body.value(), body.bytes, slices, body.recordHashes())
    : bodyRecords(dataset, body.bytes);
}

/**
 * The answer since the current version (nothing listed), then one since each past version, newest
 * first, while their bytes stay within the bound; and the publications between the versions read.
 */
async function draftAnswers(
  input: DatasetHistoryInput,
  reader: VersionReader | undefined,
  past: readonly VersionRef[],
): Promise<{ drafts: Draft[]; publications: Publication[] }> {
  const { dataset, current } = input;
  const { meta: bodyMeta } = current.body.value();
  const records = currentRecords(dataset, current.body);
  const indexed = indexVersion(records);
  const meta = (since: string) => ({
    lastUpdated: current.entry.lastUpdated,
    since,
    agreement: bodyMeta.Agreement,
    license: bodyMeta.License,
    termsOfUse: bodyMeta.TermsOfUse,
  });
  const drafts: Draft[] = [
    {
      since: current.entry.lastUpdated,
      totalResults: 0,
      bytes: answerBytes(dataset, meta(current.entry.lastUpdated), []),
      ref: undefined,
    },
  ];
  const publications: Publication[] = [];
  const limit = ANSWER_BYTES_FACTOR * current.body.bytes.length;
  let total = 0;
  // The version after the one being read (the current one first).
  let newer: { lastUpdated: string; records: VersionRecords } = {
    lastUpdated: current.entry.lastUpdated,
    records,
  };
  // A publication between two past versions depends on them alone: each brand's part is kept
  // (store.ts, brandPublications).
  const told = (older: VersionRef, records: VersionRecords): Promise<Publication> =>
    publication(
      dataset,
      newer,
      { lastUpdated: toRfc3339(older.seconds), records },
      input.store?.brandPublications,
    );
  let reachedFirst = input.complete;
  let within = true;
  for (const [i, ref] of (reader ? past : []).entries()) {
    // The kept versions' files a batch at a time, together: the bound on the answers' bytes
    // often stops the loop long before the count of versions does.
    if (i % READ_AHEAD === 0) await reader!.readAhead(past.slice(i, i + READ_AHEAD));
    const older = await reader!.records(ref);
    // Content that could not be built was never published: no one holds it.
    if (!older) continue;
    const since = toRfc3339(ref.seconds);
    const changes = changesFrom(older, indexed, input.store?.brandChanges);
    const bytes = answerBytes(dataset, meta(since), changes);
    if (total + bytes.length > limit || bytes.length > input.maxFileBytes) {
      // The answer is not kept, but the publication of the version after it is told still.
      publications.push(await told(ref, older));
      reachedFirst = false;
      within = false;
      break;
    }
    total += bytes.length;
    drafts.push({ since, totalResults: changeCount(changes), bytes, ref });
    publications.push(await told(ref, older));
    newer = { lastUpdated: since, records: older };
  }
  if (reader)
    publications.push(...(await oldestPublications(input, reader, newer, reachedFirst, within)));
  return { drafts, publications };
}

/**
 * The publications at the far end of the kept versions: the first version ever, against nothing,
 * when it is within reach; else the oldest kept version against the one before it, which the
 * count leaves out, when every kept version's answer was within the bound.
 */
async function oldestPublications(
  input: DatasetHistoryInput,
  reader: VersionReader,
  newer: { lastUpdated: string; records: VersionRecords },
  reachedFirst: boolean,
  within: boolean,
): Promise<Publication[]> {
  const found: Publication[] = [];
  if (reachedFirst) found.push(await publication(input.dataset, newer, undefined));
  const [beyond] = within && input.beyond ? await input.resolve([input.beyond]) : [];
  const older = beyond && (await reader.records(beyond));
  if (beyond && older) {
    const since = { lastUpdated: toRfc3339(beyond.seconds), records: older };
    found.push(await publication(input.dataset, newer, since, input.store?.brandPublications));
  }
  return found;
}

/** The cache entries a later build with the same history wants kept: the store's, each version's. */
function keptEntries(
  input: DatasetHistoryInput,
  past: readonly VersionRef[],
  seed: VersionRef | undefined,
): string[] {
  return [
    ...(input.store?.list() ?? []),
    ...[...past, ...(seed ? [seed] : [])].flatMap((ref) =>
      input.cache ? [versionEntry(input.cache, input, ref).join("\0")] : [],
    ),
  ];
}

/** What is kept of a past version's body: its identity ETag (unquoted) and its length. */
interface KeptVersion {
  readonly identity: string;
  readonly length: number;
}

// A version's entry in the cache (key and kind): its body's identity ETag and length, by its
// content's hashes and date and the code that writes it (facts.ts, pastForm; not the whole build's:
// see BuildCache.objectKey).
function versionEntry(
  cache: BuildCache,
  input: Pick<DatasetHistoryInput, "dataset" | "brands">,
  ref: VersionRef,
): [key: string, kind: string] {
  const key = cache.objectKey(
    VERSION_KIND,
    pastForm(),
    input.dataset.id,
    versionKey(ref),
    ...brandsKey(input.brands),
  );
  return [key, VERSION_KIND];
}

/**
 * A past version's body ETags in each coding: its identity bytes rebuilt by today's code and
 * hashed once per version (kept in the cache), the codings' tags made from that as this build
 * makes them (encode/variants.ts, variantTags), without compressing it. Undefined when it cannot
 * be built.
 */
async function versionTags(
  input: DatasetHistoryInput,
  reader: VersionReader,
  ref: VersionRef,
): Promise<BodyTags | undefined> {
  const { cache } = input;
  const key = cache && versionEntry(cache, input, ref)[0];
  const hit = key ? await cache.get(key, VERSION_KIND) : undefined;
  let kept = hit ? (JSON.parse(hit.toString("utf8")) as KeptVersion) : undefined;
  if (!kept) {
    const body = await reader.body(ref);
    if (!body) return undefined;
    kept = { identity: bare(entityTag(body)), length: body.length };
    if (key) await cache.set(key, VERSION_KIND, JSON.stringify(kept));
  }
  const tags = variantTags(`"${kept.identity}"`, kept.length, compressionOf(input));
  return { identity: kept.identity, br: bare(tags.br), gzip: bare(tags.gzip) };
}

const compressionOf = (input: Pick<DatasetHistoryInput, "compression">) =>
  input.compression ?? PUBLISHED_COMPRESSION;
