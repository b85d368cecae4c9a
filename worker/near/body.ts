/**
 * A filtered answer's bytes: the data set's own envelope with TotalResults counting the records
 * sent, and the records grouped under their brands, each brand's text and each record's exactly
 * as published. Brands come in the order of their first record in the answer, so a
 * nearest-first answer keeps its nearest record first (docs/decisions.md#the-order-of-a-near-me-answer).
 */
import type { LoadedIndex } from "./select.js";

const encoder = new TextEncoder();
const OPEN_DATA = encoder.encode('[{"Brand":[');
const CLOSE_DATA = encoder.encode("]}]}");
const NO_DATA = encoder.encode("[]}");
const COMMA = encoder.encode(",");

/** The answer's bytes for `records` (record numbers of the index, in answer order). */
export function answerBytes(loaded: LoadedIndex, records: readonly number[]): Uint8Array {
  const { index, body } = loaded;
  const slice = (start: number, end: number) => body.subarray(start, end);
  const pieces: Uint8Array[] = [
    slice(index.head[0], index.head[1]),
    encoder.encode(String(records.length)),
    slice(index.metaTail[0], index.metaTail[1]),
  ];
  if (records.length === 0) pieces.push(NO_DATA);
  else {
    // Brand number to its records, in order of first appearance.
    const byBrand = new Map<number, number[]>();
    for (const record of records) {
      const brand = index.records[record * 3]!;
      let list = byBrand.get(brand);
      if (!list) byBrand.set(brand, (list = []));
      list.push(record);
    }
    pieces.push(OPEN_DATA);
    let firstBrand = true;
    for (const [brand, list] of byBrand) {
      if (!firstBrand) pieces.push(COMMA);
      firstBrand = false;
      const b = brand * 4;
      pieces.push(slice(index.brands[b]!, index.brands[b + 1]!));
      list.forEach((record, i) => {
        if (i > 0) pieces.push(COMMA);
        pieces.push(slice(index.records[record * 3 + 1]!, index.records[record * 3 + 2]!));
      });
      pieces.push(slice(index.brands[b + 2]!, index.brands[b + 3]!));
    }
    pieces.push(CLOSE_DATA);
  }
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}
