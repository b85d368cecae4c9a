/**
 * Step 6's last part: what the manifest says of an encoded body. Where each coding is stored, its
 * ETag and length, and for a data set the rest of its entry (paths, dates, counts), which the
 * Worker answers every header question from.
 */
import type { DatasetDefinition } from "../core/datasets.js";
import { openBankingAliases } from "../core/datasets.js";
import type { SiteSettings } from "../read/site.js";
import { toRfc3339 } from "../core/dates.js";
import type { EncodedBody } from "./variants.js";
import type { DatasetBody } from "./dataset-body.js";
import {
  datasetAsset,
  variantAsset,
  type ContentCoding,
  type ManifestEntry,
  type ServedFile,
} from "../../contract/manifest.js";

/** One data set as built: its body (step 5), its manifest entry and the bytes to write. */
export interface DatasetResult {
  readonly dataset: DatasetDefinition;
  readonly body: DatasetBody;
  readonly entry: ManifestEntry;
  readonly encoded: EncodedBody;
}

/** A manifest entry's variants: where each coding of `encoded` is stored, its ETag and length. */
export function manifestVariants(
  identityAsset: string,
  encoded: Pick<EncodedBody, "identity"> & Partial<EncodedBody>,
): ServedFile["variants"] {
  const variant = (coding: ContentCoding) => {
    const body = encoded[coding];
    return (
      body && {
        asset: variantAsset(identityAsset, coding),
        etag: body.etag,
        length: body.bytes.length,
      }
    );
  };
  const [br, gzip] = [variant("br"), variant("gzip")];
  // Only the codings stored: a variant listed is a file written.
  return { identity: variant("identity")!, ...(br && { br }), ...(gzip && { gzip }) };
}

/** The data set's manifest entry, from what its body holds and its encoded bytes. */
export function datasetResult(
  body: DatasetBody,
  settings: SiteSettings,
  encoded: EncodedBody,
): DatasetResult {
  const { dataset, summary } = body;
  const { seconds } = body.updated;
  const entry: ManifestEntry = {
    dataset: dataset.id,
    path: dataset.path,
    mediaType: dataset.mediaType,
    lastUpdated: toRfc3339(seconds),
    lastModified: new Date(seconds * 1000).toUTCString(),
    lastModifiedMs: seconds * 1000,
    totalResults: summary.totalResults,
    brands: summary.brands,
    aliases: settings.OpenBankingPaths === true ? openBankingAliases(dataset) : [],
    variants: manifestVariants(datasetAsset(dataset.path), encoded),
  };
  return { dataset, body, entry, encoded };
}
