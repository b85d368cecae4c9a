/**
 * Step 9's input: every file dist/ will hold (the manifest, then each data set's and document's
 * variants), and each one's size with the data set and coding it is a variant of, for the limits.
 */
import type { DatasetDefinition } from "../core/datasets.js";
import type { AssetFile } from "./asset-limits.js";
import type { OutputFile } from "./atomic.js";
import {
  MANIFEST_FILE,
  STORED_CODINGS,
  type ContentCoding,
  type Manifest,
  type ServedFile,
} from "../../contract/manifest.js";

/** Anything published: its manifest entry and the bytes of each coding. */
export interface Published {
  readonly entry: Pick<ServedFile, "variants">;
  /** Every coding the entry lists; a coding it does not list (none stored) may be absent. */
  readonly encoded: Readonly<
    Partial<Record<ContentCoding, { readonly bytes: Uint8Array | string }>>
  >;
  /** Its files are named by their bytes, so an unchanged one may be linked (OutputFile.reuse). */
  readonly reuse?: boolean;
}

export function outputFiles(results: readonly Published[], manifest: Manifest): OutputFile[] {
  const files: OutputFile[] = [
    { path: MANIFEST_FILE, bytes: `${JSON.stringify(manifest, null, 2)}\n` },
  ];
  for (const { entry, encoded, reuse } of results) {
    for (const coding of STORED_CODINGS) {
      const variant = entry.variants[coding];
      const body = encoded[coding];
      if (variant && body) {
        files.push({ path: variant.asset.slice(1), bytes: body.bytes, ...(reuse && { reuse }) });
      }
    }
  }
  return files;
}

export function assetFiles(
  files: readonly OutputFile[],
  datasets: readonly (Published & { readonly dataset: DatasetDefinition })[],
): AssetFile[] {
  const variants = new Map<string, AssetFile["variant"]>();
  for (const { dataset, entry } of datasets) {
    for (const coding of STORED_CODINGS) {
      variants.set(entry.variants[coding]!.asset.slice(1), { dataset, coding });
    }
  }
  return files.map((f) => ({
    path: f.path,
    bytes: typeof f.bytes === "string" ? Buffer.byteLength(f.bytes) : f.bytes.length,
    variant: variants.get(f.path),
  }));
}
