/**
 * Step 6's input: every file dist/ will hold (the manifest, then each data set's and document's
 * variants), and each one's size with the data set and coding it is a variant of, for the limits.
 */
import type { DatasetResult } from "../assemble/dataset.js";
import type { DocumentResult } from "../documents/index.js";
import type { AssetFile } from "./asset-limits.js";
import type { OutputFile } from "./atomic.js";
import type { EncodedBody } from "../encode/variants.js";
import {
  MANIFEST_FILE,
  STORED_CODINGS,
  variantAsset,
  type ContentCoding,
  type Manifest,
  type ServedFile,
} from "../../contract/manifest.js";

/** A manifest entry's variants: where each coding of `encoded` is stored, its ETag and length. */
export function manifestVariants(
  identityAsset: string,
  encoded: EncodedBody,
): ServedFile["variants"] {
  const variant = (coding: ContentCoding) => ({
    asset: variantAsset(identityAsset, coding),
    etag: encoded[coding].etag,
    length: encoded[coding].bytes.length,
  });
  return { identity: variant("identity"), br: variant("br"), gzip: variant("gzip") };
}

export function outputFiles(
  results: readonly (DatasetResult | DocumentResult)[],
  manifest: Manifest,
): OutputFile[] {
  const files: OutputFile[] = [
    { path: MANIFEST_FILE, bytes: `${JSON.stringify(manifest, null, 2)}\n` },
  ];
  for (const { entry, encoded } of results) {
    for (const coding of STORED_CODINGS) {
      files.push({ path: entry.variants[coding]!.asset.slice(1), bytes: encoded[coding].bytes });
    }
  }
  return files;
}

export function assetFiles(
  files: readonly OutputFile[],
  results: readonly DatasetResult[],
): AssetFile[] {
  const variants = new Map<string, AssetFile["variant"]>();
  for (const { dataset, entry } of results) {
    for (const coding of ["identity", "br", "gzip"] as const) {
      variants.set(entry.variants[coding]!.asset.slice(1), { dataset, coding });
    }
  }
  return files.map((f) => ({
    path: f.path,
    bytes: typeof f.bytes === "string" ? Buffer.byteLength(f.bytes) : f.bytes.length,
    variant: variants.get(f.path),
  }));
}
