/**
 * Step 6, encode: the exact bytes to serve, their precompressed variants, and for each a strong
 * ETag: the identity bytes' is their SHA-256; a compressed variant's is made from that, the coding
 * and what the compressed bytes depend on besides (codedTag). The edge does not compress
 * `application/prs.*+json` itself, and the Worker never compresses or hashes per request, so all
 * of it happens here.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from "node:zlib";
import type { ContentCoding } from "../../contract/manifest.js";
import type { Compression } from "../core/profile.js";

export type { Compression } from "../core/profile.js";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

// Brotli's best quality (11) is worth its time only on small bodies: on a 0.41 MB ATM body it took
// 1.12 s for 20.3 KB, where 10 took 0.13 s for 22.4 KB (10.6% more) and 9 took 0.05 s for 24.1 KB
// (18.7% more); on a 0.39 MB /openapi.json 10 was within 1.5% of 11 at a third of its time. A
// body is remade at every edit that changes it, and 11 on it was most of a build after one edit
// (bench/results/2026-11-29-history-from-facts.md). So bodies up to 64 KiB get 11, up to 1 MiB 10,
// larger ones 9, and a large publisher's build stays within its time budget (BENCHMARKS.md#build,
// row "brotli's size against quality 11's").
const BROTLI_BEST_QUALITY_BYTES = 64 * 1024;
const BROTLI_MAX_QUALITY_BYTES = 1 << 20;
const BROTLI_MIDDLE_QUALITY = 10;
const BROTLI_LARGE_QUALITY = 9;
const BROTLI_BEST_QUALITY = constants.BROTLI_MAX_QUALITY;

/** What a build publishes: brotli as above, gzip at 9 (about 10 ms per MB). */
export const PUBLISHED_COMPRESSION: Compression = {
  name: "published",
  brotliQuality: (size) =>
    size <= BROTLI_BEST_QUALITY_BYTES
      ? BROTLI_BEST_QUALITY
      : size <= BROTLI_MAX_QUALITY_BYTES
        ? BROTLI_MIDDLE_QUALITY
        : BROTLI_LARGE_QUALITY,
  gzipLevel: 9,
};

/**
 * Pages for people (the landing page, the reference) are compressed at brotli 9 at most, at every
 * size. A person loads a page now and then; the API's bodies are what consumers fetch. The
 * landing page is remade at every edit that moves a mark of its map. In the group repository of
 * bench/group-repo.ts, NatWest's page (532 KB) took 280 ms at 10 and 52 ms at 9, for 66.2 KB
 * against 77.0 KB, and after one edit it was the last thing the build waited for
 * (docs/decisions.md#pages-for-people-are-compressed-at-brotli-9).
 */
export const PAGE_BROTLI_QUALITY = 9;

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

interface EncodedVariant {
  readonly bytes: Buffer;
  /** Quoted strong entity tag (RFC 9110 section 8.8.3). */
  readonly etag: string;
}

export type EncodedBody = Record<ContentCoding, EncodedVariant>;

export function entityTag(bytes: Uint8Array): string {
  return `"${createHash("sha256").update(bytes).digest("hex")}"`;
}

/** Brotli at the quality `compression` gives for the body's size, or at `quality` when given. */
export function compressBrotli(
  identity: Buffer,
  quality = PUBLISHED_COMPRESSION.brotliQuality(identity.length),
): Promise<Buffer> {
  return brotli(identity, brotliParams(identity, quality));
}

export function compressGzip(
  identity: Buffer,
  level = PUBLISHED_COMPRESSION.gzipLevel,
): Promise<Buffer> {
  return gz(identity, { level });
}

const brotliParams = (identity: Buffer, quality: number) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
  },
});

// Brotli's time per byte of this project's JSON by quality, as measured on R's 0.41 MB ATM body
// and its 0.8 MB of answers (bench/results/2026-11-29-history-from-facts.md): about 30 ns up to 6,
// 50 at 7 and 8, 120 at 9, 330 at 10 and 2,700 at 11. gzip at any level is faster than brotli at 6.
const BROTLI_NS_PER_BYTE = [30, 30, 30, 30, 30, 30, 30, 50, 50, 120, 330, 2700];

// What is quicker to compress on the build's thread than to queue on libuv's.
const QUICK_MS = 40;

/**
 * Whether compressing `bytes` at brotli `quality` takes a few milliseconds, so that brotliNow and
 * gzipNow are the quicker way: no wait on libuv's threads, where file writes queue too. The
 * preview's bodies (brotli 3) up to about 1.3 MB, and a build's change answers at brotli 6.
 */
export function quickToCompress(bytes: number, quality: number): boolean {
  const perByte = BROTLI_NS_PER_BYTE[Math.min(Math.max(quality, 0), 11)]!;
  return (bytes * perByte) / 1e6 <= QUICK_MS;
}

/**
 * Brotli and gzip on this thread, for small or quick work on the build's critical path: libuv's
 * threads, where compressBrotli and compressGzip run, are shared with every file write under way
 * (the preview's output folder, the cache's entries written behind), and a small job waits behind
 * them longer than it takes.
 */
export function brotliNow(identity: Buffer, quality: number): Buffer {
  return brotliCompressSync(identity, brotliParams(identity, quality));
}

export function gzipNow(identity: Buffer, level: number): Buffer {
  return gzipSync(identity, { level });
}

/**
 * The strong ETag of a compressed variant: the SHA-256 of the identity variant's ETag, the coding,
 * its setting (brotli's quality, gzip's level) and the version of the library that compressed it,
 * which together decide its bytes (both coders are deterministic), so the tag changes whenever the
 * bytes could (RFC 9110 section 8.8.1). Made without the compressed bytes, so the history can name
 * what a past version was served as in each coding without compressing it again: a consumer
 * whose client decompressed it holds that tag (docs/decisions.md, "Compressed variants and ETags").
 */
export function codedTag(identityTag: string, coding: "br" | "gzip", setting: number): string {
  const library = coding === "br" ? process.versions.brotli : process.versions.zlib;
  const name = `${identityTag.replaceAll('"', "")} ${coding} ${setting} ${library ?? ""}`;
  return `"${createHash("sha256").update(name).digest("hex")}"`;
}

/** The ETags of a body's three variants, from its identity ETag and the compression's settings. */
export function variantTags(
  identityTag: string,
  length: number,
  compression: Compression = PUBLISHED_COMPRESSION,
  brotliQuality = compression.brotliQuality(length),
): Record<ContentCoding, string> {
  return {
    identity: identityTag,
    br: codedTag(identityTag, "br", brotliQuality),
    gzip: codedTag(identityTag, "gzip", compression.gzipLevel),
  };
}

/**
 * The three variants with their ETags; `etag` is the identity bytes' own, already computed, and
 * the settings are those `br` and `gzip` were compressed at.
 */
export function withEntityTags(
  identity: Buffer,
  etag: string,
  br: Buffer,
  gzip: Buffer,
  settings: { readonly brotliQuality: number; readonly gzipLevel: number },
): EncodedBody {
  return {
    identity: { bytes: identity, etag },
    br: { bytes: br, etag: codedTag(etag, "br", settings.brotliQuality) },
    gzip: { bytes: gzip, etag: codedTag(etag, "gzip", settings.gzipLevel) },
  };
}
