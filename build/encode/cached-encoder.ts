/**
 * Step 6 as the pipeline runs it: variants.ts's hashing and compressing of bytes already
 * serialised (by step 5, or the documents), with the compressed bytes reused from the cache when
 * the same bytes were compressed with the same settings before, and each part timed.
 */
import type { BuildCache } from "../core/cache.js";
import {
  brotliNow,
  compressBrotli,
  compressGzip,
  gzipNow,
  quickToCompress,
  compressionSettings,
  entityTag,
  withEntityTags,
  type EncodedBody,
} from "./variants.js";
import type { BuildProfile } from "../core/profile.js";
import { timeAsync, timeSync, type EncodeTiming } from "../core/timings.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";

/**
 * Encodes bytes already serialised (a data set's body; the documents: HTML, CSS, JSON); `etag`,
 * when the caller knows it, is their ETag (kept with a body in the cache), not computed again.
 */
export type EncodeBytes = (identity: Buffer, etag?: string) => Promise<EncodedBody>;

/** The encoder of a build of this profile: compressing as the profile says, through the cache. */
export function createEncoder(
  cache: BuildCache | undefined,
  timing: EncodeTiming | undefined,
  profile: Pick<BuildProfile, "compression">,
): EncodeBytes {
  const { compression } = profile;
  return async (identity: Buffer, known?: string): Promise<EncodedBody> => {
    const etag = known ?? timeSync(timing, "hashMs", () => entityTag(identity));
    const settings = compressionSettings(identity, compression);
    const cached = (kind: string, make: () => Promise<Buffer>) => {
      const key = cache?.key(etag, kind, ...settings);
      return key ? cache!.through(key, kind, make) : make();
    };
    const brotliQuality = compression.brotliQuality(identity.length);
    const { gzipLevel } = compression;
    // The preview's settings compress a body in milliseconds: on this thread, not behind the
    // file writes queued on libuv's threads (variants.ts, brotliNow).
    const now = quickToCompress(identity.length, brotliQuality);
    const [br, gzip] = await timeAsync(timing, "compressMs", () =>
      Promise.all([
        cached(CACHE_KINDS.brotli, () =>
          now
            ? Promise.resolve(brotliNow(identity, brotliQuality))
            : compressBrotli(identity, brotliQuality),
        ),
        cached(CACHE_KINDS.gzip, () =>
          now ? Promise.resolve(gzipNow(identity, gzipLevel)) : compressGzip(identity, gzipLevel),
        ),
      ]),
    );
    return timeSync(timing, "hashMs", () =>
      withEntityTags(identity, etag, br, gzip, { brotliQuality, gzipLevel }),
    );
  };
}
