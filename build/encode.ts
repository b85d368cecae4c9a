/**
 * Step 5, encode: the exact bytes to serve, their precompressed variants, and for each a strong
 * ETag, the SHA-256 of exactly those bytes. The edge does not compress `application/prs.*+json`
 * itself, and the Worker never compresses or hashes per request, so all of it happens here.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { ContentCoding } from "./manifest.js";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export interface EncodedVariant {
  readonly bytes: Buffer;
  /** Quoted strong entity tag (RFC 9110 section 8.8.3). */
  readonly etag: string;
}

export type EncodedBody = Record<ContentCoding, EncodedVariant>;

export function entityTag(bytes: Uint8Array): string {
  return `"${createHash("sha256").update(bytes).digest("hex")}"`;
}

/** Serialises the body compactly and compresses it (brotli at its best quality, gzip level 9). */
export async function encodeBody(body: unknown): Promise<EncodedBody> {
  const identity = Buffer.from(JSON.stringify(body), "utf8");
  const [br, gzipped] = await Promise.all([
    brotli(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gz(identity, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return {
    identity: { bytes: identity, etag: entityTag(identity) },
    br: { bytes: br, etag: entityTag(br) },
    gzip: { bytes: gzipped, etag: entityTag(gzipped) },
  };
}
