/**
 * The byte ranges of a published body read back (from the cache, or as published): the pieces
 * the serialiser writes (build/encode/body.ts), found by serialising its parsed value again and
 * checked against the bytes, so a wrong index can never be published. A body serialised by this
 * build comes with its ranges and is not parsed.
 */
import type { Envelope } from "../assemble/envelope.js";
import { piecewise, type BodySlices } from "../encode/body.js";

export type { BodySlices } from "../encode/body.js";

/**
 * The slices of `bytes`, the exact serialisation of `body` (compact JSON.stringify, as encode
 * writes it). A body these ranges do not reproduce exactly throws.
 */
export function bodySlices(bytes: Uint8Array, body: Envelope, recordsKey: string): BodySlices {
  const made = piecewise(body, recordsKey);
  if (!made) throw new Error(`the body is not one list of brands with their ${recordsKey} lists`);
  if (!made.bytes.equals(bytes)) {
    throw new Error("the body's slices do not rebuild its published bytes");
  }
  return made.slices!;
}
