/**
 * A change answer from its identity bytes to what the manifest lists: encoded in each coding (its
 * brotli quality bounded over all the answers), stored under a name made of its own hash, and
 * named by its tokens (the versions' LastUpdated and their bodies' ETags).
 */
import type { DatasetDefinition } from "../core/datasets.js";
import {
  BROTLI_MAX_QUALITY_BYTES,
  compressBrotli,
  compressGzip,
  entityTag,
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
 * The answers' brotli quality, newest first: what a small body gets (11 when published) while the
 * answers compressed at it stay within what one body gets at it, then what a large one gets (9;
 * build/encode/variants.ts), so a long history of large changes cannot cost minutes per build.
 */
export function qualityOf(
  drafts: readonly Draft[],
  index: number,
  compression: Compression,
): number {
  const upTo = drafts.slice(0, index + 1).reduce((n, d) => n + d.bytes.length, 0);
  return compression.brotliQuality(upTo <= BROTLI_MAX_QUALITY_BYTES ? 0 : Infinity);
}

export async function encodeAnswer(
  identity: Buffer,
  quality: number,
  compression: Compression,
): Promise<EncodedBody> {
  const [br, gzip] = await Promise.all([
    compressBrotli(identity, quality),
    compressGzip(identity, compression.gzipLevel),
  ]);
  return {
    identity: { bytes: identity, etag: entityTag(identity) },
    br: { bytes: br, etag: entityTag(br) },
    gzip: { bytes: gzip, etag: entityTag(gzip) },
  };
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
