/**
 * A body's Data: its bytes without the value of meta.LastUpdated, which the build writes first in
 * every body (assemble/envelope.ts). Two versions of a data set whose Data digests are equal
 * publish the same records and meta besides the date, so a commit that leaves the digest as it
 * was is no new version (docs/decisions.md, "What a past version is").
 */
import { createHash } from "node:crypto";

// Every body starts so: envelope() puts LastUpdated first in meta, and serialize keeps the order.
const HEAD = Buffer.from('{"meta":{"LastUpdated":"', "utf8");
const QUOTE = 0x22;

/** The hex SHA-256 of the body's bytes with meta.LastUpdated's value left out. */
export function dataDigest(body: Uint8Array): string {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const hash = createHash("sha256");
  const end = bytes.subarray(0, HEAD.length).equals(HEAD) ? bytes.indexOf(QUOTE, HEAD.length) : -1;
  // A body in another shape is hashed whole: its every byte is its Data.
  if (end < 0) return hash.update(bytes).digest("hex");
  return hash.update(bytes.subarray(0, HEAD.length)).update(bytes.subarray(end)).digest("hex");
}
