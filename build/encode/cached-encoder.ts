/**
 * Step 6 as the pipeline runs it: variants.ts's hashing and compressing of bytes already
 * serialised (by step 5, or the documents), with the compressed bytes reused from the cache when
 * the same bytes were compressed with the same settings before, and each part timed.
 */
import { framed, unframed, type BuildCache } from "../core/cache.js";
import {
  brotliNow,
  compressBrotli,
  compressGzip,
  gzipNow,
  quickToCompress,
  entityTag,
  withEntityTags,
  type EncodedBody,
} from "./variants.js";
import type { BuildProfile } from "../core/profile.js";
import { timeAsync, timeSync, type EncodeTiming } from "../core/timings.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";

const KIND = CACHE_KINDS.compressed;

/**
 * Encodes bytes already serialised (a data set's body; the documents: HTML, CSS, JSON); `etag`,
 * when the caller knows it, is their ETag (kept with a body in the cache), not computed again;
 * `mostBrotli`, when given, the highest brotli quality to use (a page's: PAGE_BROTLI_QUALITY).
 */
export type EncodeBytes = (
  identity: Buffer,
  etag?: string,
  mostBrotli?: number,
) => Promise<EncodedBody>;

/** The encoder of a build of this profile: compressing as the profile says, through the cache. */
export function createEncoder(
  cache: BuildCache | undefined,
  timing: EncodeTiming | undefined,
  profile: Pick<BuildProfile, "compression">,
): EncodeBytes {
  const { compression } = profile;
  return async (identity: Buffer, known?: string, mostBrotli = Infinity): Promise<EncodedBody> => {
    const etag = known ?? timeSync(timing, "hashMs", () => entityTag(identity));
    const brotliQuality = Math.min(mostBrotli, compression.brotliQuality(identity.length));
    const { gzipLevel } = compression;
    // The preview's settings compress a body in milliseconds: on this thread, not behind the
    // file writes queued on libuv's threads (variants.ts, brotliNow).
    const now = quickToCompress(identity.length, brotliQuality);
    const compress = () =>
      now
        ? Promise.resolve([brotliNow(identity, brotliQuality), gzipNow(identity, gzipLevel)])
        : Promise.all([compressBrotli(identity, brotliQuality), compressGzip(identity, gzipLevel)]);
    // Both codings in one entry, by the bytes' ETag and the settings they depend on besides.
    const key = cache?.key(etag, KIND, String(brotliQuality), String(gzipLevel));
    const [br, gzip] = await timeAsync(timing, "compressMs", async (): Promise<Buffer[]> => {
      const hit = key ? await cache!.get(key, KIND) : undefined;
      const parts = hit && unframed(hit, 2);
      if (parts) return parts;
      const made = await compress();
      if (key) await cache!.set(key, KIND, framed(...made));
      return made;
    });
    return timeSync(timing, "hashMs", () =>
      withEntityTags(identity, etag, br!, gzip!, { brotliQuality, gzipLevel }),
    );
  };
}
