/**
 * The indexes and bodies the extension endpoints answer from, read from the assets binding once
 * per isolate and kept: the index's JSON is parsed then, never per request. Concurrent first
 * requests share one read; a failed read is forgotten, so the next request tries again.
 */
import {
  nearBodyAsset,
  NEAR_FORMAT_VERSION,
  type NearEntry,
  type NearIndex,
} from "../../contract/near.js";
import { AssetError, fetchAsset } from "../assets.js";
import type { AssetFetcher } from "../runtime.js";
import { loadIndex, type LoadedIndex } from "./select.js";

/** The isolate's loaded indexes, by index ETag. */
export class NearStore {
  private readonly loads = new Map<string, Promise<LoadedIndex>>();

  /** The loaded index of `near`, reading it (and its body) on first use; throws AssetError. */
  load(near: NearEntry, assets: AssetFetcher, origin: string): Promise<LoadedIndex> {
    const key = near.index.etag;
    let load = this.loads.get(key);
    if (!load) {
      load = read(near, assets, origin);
      this.loads.set(key, load);
      load.catch(() => this.loads.delete(key));
    }
    return load;
  }
}

async function fetchBytes(
  assets: AssetFetcher,
  origin: string,
  asset: string,
  length: number,
): Promise<Uint8Array> {
  const response = await fetchAsset(assets, origin, asset, length);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length !== length) {
    throw new AssetError(500, `${asset} has ${bytes.length} bytes, the manifest ${length}`);
  }
  return bytes;
}

async function read(near: NearEntry, assets: AssetFetcher, origin: string): Promise<LoadedIndex> {
  const text = await fetchBytes(assets, origin, near.index.asset, near.index.length);
  const index = JSON.parse(new TextDecoder().decode(text)) as NearIndex;
  // Compared as a number: the type says this format, but the file may be another build's.
  const version: number = index.formatVersion;
  if (version !== NEAR_FORMAT_VERSION) {
    throw new AssetError(500, `${near.index.asset} is not a format-${NEAR_FORMAT_VERSION} index`);
  }
  const bodyAsset = nearBodyAsset(near.index.asset, index.body.asset);
  const body = await fetchBytes(assets, origin, bodyAsset, index.body.length);
  return loadIndex(index, body);
}
