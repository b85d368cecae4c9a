/**
 * A change answer from its identity bytes to what the manifest lists: encoded in each coding (its
 * brotli quality bounded over all the answers), stored under a name made of its own hash, and
 * named by its tokens (the versions' LastUpdated and their bodies' ETags).
 */
import type { DatasetDefinition } from "../core/datasets.js";
import {
  compressBrotli,
  compressGzip,
  brotliNow,
  gzipNow,
  quickToCompress,
  entityTag,
  withEntityTags,
  type Compression,
  type EncodedBody,
} from "../encode/variants.js";
import { CHANGES_ASSET_FOLDER } from "../../contract/changes.js";
import type { ChangeAnswer, ContentCoding, ManifestEntry } from "../../contract/manifest.js";
import type { VersionRef } from "./version.js";

/** One answer before encoding: what the manifest says of it, and its identity bytes. */
export interface Draft {
  readonly since: string;
  readonly totalResults: number;
  readonly bytes: Buffer;
  /** The past version it is since; undefined for the current one (answers[0]). */
  readonly ref: VersionRef | undefined;
}

/** The ETags (without quotes) of a version's body in each coding. */
export type BodyTags = { readonly identity: string; readonly br: string; readonly gzip: string };

export const bare = (etag: string) => etag.replaceAll('"', "");

export function unquoted(variants: ManifestEntry["variants"]): BodyTags {
  return {
    identity: bare(variants.identity.etag),
    br: bare(variants.br?.etag ?? variants.identity.etag),
    gzip: bare(variants.gzip?.etag ?? variants.identity.etag),
  };
}

/**
 * The newest answers get brotli's best quality (11 when published) while together they are at
 * most this many bytes: they are the ones consumers polling often ask for, and small.
 */
const ANSWER_BEST_QUALITY_BYTES = 16 * 1024;

/**
 * The older answers' brotli quality (at most; the preview's is lower). Every answer is made again
 * at every publication, since each lists the records changed since its version, so they are
 * compressed at what costs a build little: 6 took 25 ms for 0.8 MB of answers where 11 took
 * 2.6 s, for output 15% larger (bench/results/2026-11-29-history-from-facts.md).
 */
const ANSWER_BROTLI_QUALITY = 6;

/** The answers' brotli quality, newest first (ANSWER_BEST_QUALITY_BYTES, ANSWER_BROTLI_QUALITY). */
export function qualityOf(
  drafts: readonly Draft[],
  index: number,
  compression: Compression,
): number {
  const upTo = drafts.slice(0, index + 1).reduce((n, d) => n + d.bytes.length, 0);
  return upTo <= ANSWER_BEST_QUALITY_BYTES
    ? compression.brotliQuality(0)
    : Math.min(ANSWER_BROTLI_QUALITY, compression.brotliQuality(Number.POSITIVE_INFINITY));
}

/**
 * An answer in every coding. One quick to compress (encode/variants.ts, quickToCompress) is compressed on this thread (encode/variants.ts, brotliNow): the
 * history is on the build's critical path, and in the live preview its answers waited behind the
 * output folder's writes on libuv's threads for 100 to 200 ms a save where compressing them took
 * about 15.
 */
export async function encodeAnswer(
  identity: Buffer,
  quality: number,
  compression: Compression,
): Promise<EncodedBody> {
  const { br, gzip } = quickToCompress(identity.length, quality)
    ? { br: brotliNow(identity, quality), gzip: gzipNow(identity, compression.gzipLevel) }
    : await Promise.all([
        compressBrotli(identity, quality),
        compressGzip(identity, compression.gzipLevel),
      ]).then(([br, gzip]) => ({ br, gzip }));
  return withEntityTags(identity, entityTag(identity), br, gzip, {
    brotliQuality: quality,
    gzipLevel: compression.gzipLevel,
  });
}

// Where each coding of an answer is stored: under its data set, named by the start of its own
// hash, so a path always holds the same bytes and an unchanged answer's files can be linked from
// the generation before (build/write/atomic.ts) rather than written again.
export function answerVariants(
  dataset: DatasetDefinition,
  encoded: EncodedBody,
): ChangeAnswer["variants"] {
  const name = (coding: ContentCoding, suffix: string) => ({
    asset: `${CHANGES_ASSET_FOLDER}${dataset.id}/${bare(encoded[coding].etag).slice(0, 32)}${suffix}`,
    etag: encoded[coding].etag,
    length: encoded[coding].bytes.length,
  });
  return {
    identity: name("identity", ".json"),
    br: name("br", ".json.br"),
    gzip: name("gzip", ".json.gz"),
  };
}

/**
 * The tokens of each answer: its version's LastUpdated and its body's ETags, newest version
 * first. An ETag names one body; a LastUpdated shared by versions whose answers differ names
 * none of them (docs/decisions.md#the-since-token), so it is left out and gets 410.
 */
export function tokensOf(
  drafts: readonly Draft[],
  tags: readonly (BodyTags | undefined)[],
  encoded: readonly EncodedBody[],
): string[][] {
  const owner = new Map<string, number>();
  const byDate = new Map<string, number[]>();
  drafts.forEach((d, i) => byDate.set(d.since, [...(byDate.get(d.since) ?? []), i]));
  for (const [since, indexes] of byDate) {
    const answers = new Set(indexes.map((i) => encoded[i]!.identity.etag));
    if (answers.size === 1) owner.set(since, indexes[0]!);
  }
  tags.forEach((t, i) => {
    if (!t) return;
    for (const tag of [t.identity, t.br, t.gzip]) if (!owner.has(tag)) owner.set(tag, i);
  });
  const tokens = drafts.map((): string[] => []);
  for (const [token, i] of owner) tokens[i]!.push(token);
  return tokens;
}
