/**
 * Step 6, encode: the exact bytes to serve, their precompressed variants, and for each a strong
 * ETag, the SHA-256 of exactly those bytes. The edge does not compress `application/prs.*+json`
 * itself, and the Worker never compresses or hashes per request, so all of it happens here.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { ContentCoding } from "../../contract/manifest.js";
import type { Compression } from "../core/profile.js";

export type { Compression } from "../core/profile.js";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

// Brotli's best quality (11) is worth its time only on small bodies: it costs about fifty times
// quality 9's time for output 10-12% smaller (quality 10 is within 1% of 9's size and several times
// slower). Bodies up to this size get 11, larger ones 9, so a large publisher's build stays within
// its time budget (BENCHMARKS.md#build, row "brotli's size against quality 11's").
export const BROTLI_MAX_QUALITY_BYTES = 1 << 20;
export const BROTLI_LARGE_QUALITY = 9;
export const BROTLI_BEST_QUALITY = constants.BROTLI_MAX_QUALITY;

/** What a build publishes: brotli as above, gzip at 9 (about 10 ms per MB). */
export const PUBLISHED_COMPRESSION: Compression = {
  name: "published",
  brotliQuality: (size) =>
    size <= BROTLI_MAX_QUALITY_BYTES ? BROTLI_BEST_QUALITY : BROTLI_LARGE_QUALITY,
  gzipLevel: 9,
};

/**
 * The live preview's (docs/decisions.md#the-preview-compresses-fast): the same three codings,
 * so negotiation, ETags and 304s behave as deployed, at the fastest settings, since nobody
 * downloads over loopback; what that saves a save, and costs in bytes, is in
 * docs/records/2026-11-27-the-preview-compresses-fast.md.
 */
export const PREVIEW_COMPRESSION: Compression = {
  name: "preview",
  brotliQuality: () => 3,
  gzipLevel: 1,
};

export interface EncodedVariant {
  readonly bytes: Buffer;
  /** Quoted strong entity tag (RFC 9110 section 8.8.3). */
  readonly etag: string;
}

export type EncodedBody = Record<ContentCoding, EncodedVariant>;

export function entityTag(bytes: Uint8Array): string {
  return `"${createHash("sha256").update(bytes).digest("hex")}"`;
}

/** The exact bytes served for a body: compact JSON, UTF-8. */
export function serialize(body: unknown): Buffer {
  return Buffer.from(JSON.stringify(body), "utf8");
}

/** The settings compressed bytes depend on besides the bytes themselves, for cache keys. */
export function compressionSettings(
  identity: Buffer,
  compression: Compression = PUBLISHED_COMPRESSION,
): string[] {
  return [String(compression.brotliQuality(identity.length)), String(compression.gzipLevel)];
}

/** Brotli at the quality `compression` gives for the body's size, or at `quality` when given. */
export function compressBrotli(
  identity: Buffer,
  quality = PUBLISHED_COMPRESSION.brotliQuality(identity.length),
): Promise<Buffer> {
  return brotli(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
    },
  });
}

export function compressGzip(
  identity: Buffer,
  level = PUBLISHED_COMPRESSION.gzipLevel,
): Promise<Buffer> {
  return gz(identity, { level });
}

/** The three variants with their ETags; `etag` is the identity bytes' own, already computed. */
export function withEntityTags(
  identity: Buffer,
  etag: string,
  br: Buffer,
  gzip: Buffer,
): EncodedBody {
  return {
    identity: { bytes: identity, etag },
    br: { bytes: br, etag: entityTag(br) },
    gzip: { bytes: gzip, etag: entityTag(gzip) },
  };
}
