/**
 * Step 6 as the pipeline runs it: variants.ts's hashing and compressing of bytes already
 * serialised (by step 5, or the documents), with the compressed bytes reused from the cache when
 * the same bytes were compressed with the same settings before, and each part timed.
 */
import type { BuildCache } from "../core/cache.js";
import {
  compressBrotli,
  compressGzip,
  compressionSettings,
  entityTag,
  withEntityTags,
  type EncodedBody,
} from "./variants.js";
import { timeAsync, timeSync, type EncodeTiming } from "../core/timings.js";

/** Encodes bytes already serialised (a data set's body; the documents: HTML, CSS, JSON). */
export type EncodeBytes = (identity: Buffer) => Promise<EncodedBody>;

export function createEncoder(cache: BuildCache | undefined, timing?: EncodeTiming): EncodeBytes {
  return async (identity: Buffer): Promise<EncodedBody> => {
    const etag = timeSync(timing, "hashMs", () => entityTag(identity));
    const settings = compressionSettings(identity);
    const cached = (kind: string, make: () => Promise<Buffer>) => {
      const key = cache?.key(etag, kind, ...settings);
      return key ? cache!.through(key, kind, make) : make();
    };
    const [br, gzip] = await timeAsync(timing, "compressMs", () =>
      Promise.all([
        cached("br", () => compressBrotli(identity)),
        cached("gz", () => compressGzip(identity)),
      ]),
    );
    return timeSync(timing, "hashMs", () => withEntityTags(identity, etag, br, gzip));
  };
}
