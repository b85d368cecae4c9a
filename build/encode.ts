/**
 * Step 5, encode: the exact bytes to serve, their precompressed variants, and for each a strong
 * ETag, the SHA-256 of exactly those bytes. The edge does not compress `application/prs.*+json`
 * itself, and the Worker never compresses or hashes per request, so all of it happens here.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { BuildCache } from "./cache.js";
import type { ContentCoding } from "../worker/manifest.js";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Brotli's best quality (11) is worth its time only on small bodies: measured here it costs about
 * 1.1 s per MB of JSON, while quality 9 takes about 20 ms per MB for output 10-12% larger
 * (quality 10 is within 1% of 9's size and 6 to 17 times slower). Bodies up to this size get 11,
 * larger ones 9, so a large publisher's build stays within its time budget (BENCHMARKS.md).
 */
export const BROTLI_MAX_QUALITY_BYTES = 1 << 20;
export const BROTLI_LARGE_QUALITY = 9;
/** gzip for clients without brotli; level 9 costs about 10 ms per MB. */
export const GZIP_LEVEL = 9;

export interface EncodedVariant {
  readonly bytes: Buffer;
  /** Quoted strong entity tag (RFC 9110 section 8.8.3). */
  readonly etag: string;
}

export type EncodedBody = Record<ContentCoding, EncodedVariant>;

/** Time spent in each part of encoding, in ms, summed over the data sets (for benchmarks). */
export interface EncodeTiming {
  serializeMs: number;
  hashMs: number;
  compressMs: number;
}

export function entityTag(bytes: Uint8Array): string {
  return `"${createHash("sha256").update(bytes).digest("hex")}"`;
}

export function brotliQuality(size: number): number {
  return size <= BROTLI_MAX_QUALITY_BYTES ? constants.BROTLI_MAX_QUALITY : BROTLI_LARGE_QUALITY;
}

/**
 * Serialises the body compactly and compresses it; compressed bytes are reused from the cache
 * when the same bytes were compressed with the same settings before.
 */
export async function encodeBody(
  body: unknown,
  cache?: BuildCache,
  timing?: EncodeTiming,
): Promise<EncodedBody> {
  const started = performance.now();
  const identity = Buffer.from(JSON.stringify(body), "utf8");
  if (timing) timing.serializeMs += performance.now() - started;
  return encodeBytes(identity, cache, timing);
}

/** Hashes and compresses bytes already serialised (the documents: HTML, CSS, JSON). */
export async function encodeBytes(
  identity: Buffer,
  cache?: BuildCache,
  timing?: EncodeTiming,
): Promise<EncodedBody> {
  const serialized = performance.now();
  const etag = entityTag(identity);
  if (timing) timing.hashMs += performance.now() - serialized;
  const quality = brotliQuality(identity.length);
  const cached = (kind: string, make: () => Promise<Buffer>) => async () => {
    const key = cache?.key(etag, kind, String(quality), String(GZIP_LEVEL));
    const hit = key && (await cache!.get(key, kind));
    if (hit) return hit;
    const bytes = await make();
    if (key) await cache!.set(key, kind, bytes);
    return bytes;
  };
  const compressing = performance.now();
  const [br, gzipped] = await Promise.all([
    cached("br", () =>
      brotli(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: quality,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      }),
    )(),
    cached("gz", () => gz(identity, { level: GZIP_LEVEL }))(),
  ]);
  const compressed = performance.now();
  const result = {
    identity: { bytes: identity, etag },
    br: { bytes: br, etag: entityTag(br) },
    gzip: { bytes: gzipped, etag: entityTag(gzipped) },
  };
  if (timing) {
    timing.compressMs += compressed - compressing;
    timing.hashMs += performance.now() - compressed;
  }
  return result;
}
