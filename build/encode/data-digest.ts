/**
 * A body's Data, and each record's hash: what tells one version of a data set from another
 * without its bytes. A body's Data is everything it publishes but the value of meta.LastUpdated:
 * the rest of its meta, each brand's own fields, and each record's exact JSON text, in order. Two
 * versions whose Data digests are equal publish the same records and meta besides the date, so a
 * commit that leaves the digest as it was is no new version (docs/decisions.md, "What a past
 * version is"). The digest is made from the records' hashes, so the history can tell a past
 * version's Data from what it keeps of each file (history/facts.ts) without rebuilding its body,
 * and the build tells the current one's from the body it made (encode/dataset-body.ts, bodyData).
 */
import { createHash, hash } from "node:crypto";

/**
 * A record's hash: the first 128 bits of the SHA-256 of its exact JSON text, in base64url (22
 * characters). Equal hashes are equal texts: no two records a publisher will ever have collide.
 */
export function recordHash(json: string): string {
  // The one-shot hash: half createHash's time on a record of a few hundred bytes.
  return hash("sha256", json, "base64url").slice(0, 22);
}

/** A version's Data in parts: its meta but LastUpdated, and each brand's own fields and records. */
export interface DataParts {
  /** The JSON text of meta without LastUpdated (metaText). */
  readonly meta: string;
  readonly brands: readonly {
    /** The JSON text of the brand object with its list of records empty ("" without a list). */
    readonly shell: string;
    readonly records: readonly { readonly hash: string }[];
  }[];
}

/** The JSON text of an envelope's meta without LastUpdated, the part of meta that is Data. */
export function metaText(meta: Readonly<Record<string, unknown>>): string {
  const { LastUpdated: _date, ...rest } = meta;
  return JSON.stringify(rest);
}

/** The JSON text of a brand object with its records' list empty: its own fields, in order. */
export function brandShell(brand: Readonly<Record<string, unknown>>, recordsKey: string): string {
  return JSON.stringify({ ...brand, [recordsKey]: [] });
}

/** The hex SHA-256 of a version's Data. */
export function dataDigest(data: DataParts): string {
  const sum = createHash("sha256").update(data.meta).update("\0");
  for (const brand of data.brands) {
    sum.update(brand.shell).update("\0");
    for (const record of brand.records) sum.update(record.hash).update(",");
    sum.update("\0");
  }
  return sum.digest("hex");
}
