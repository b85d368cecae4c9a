/**
 * Where each piece of a published body sits, in bytes: the envelope around the count, each
 * brand's text before and after its records, and each record. The Worker rebuilds a filtered
 * answer from these ranges alone, so the record objects it sends are the published bytes.
 */
import type { ByteRange } from "../../contract/near.js";
import type { Envelope } from "../assemble/envelope.js";

/** The byte ranges of one body (see NearIndex in contract/near.ts). */
export interface BodySlices {
  readonly head: ByteRange;
  readonly metaTail: ByteRange;
  /** Per brand: [prefix start, prefix end, suffix start, suffix end]. */
  readonly brands: (readonly [number, number, number, number])[];
  /** Per record, in publication order: its brand's number and its range. */
  readonly records: { readonly brand: number; readonly range: ByteRange }[];
}

/**
 * The slices of `bytes`, the exact serialisation of `body` (compact JSON.stringify, as encode
 * writes it). The text is rebuilt from the pieces and compared with `bytes`: a body these ranges
 * do not reproduce exactly throws, so a wrong index can never be published.
 */
export function bodySlices(bytes: Uint8Array, body: Envelope, recordsKey: string): BodySlices {
  let text = "";
  let at = 0;
  // Appends a piece, returning its byte range.
  const put = (piece: string): [number, number] => {
    const start = at;
    text += piece;
    at += Buffer.byteLength(piece, "utf8");
    return [start, at];
  };
  const meta = JSON.stringify(body.meta);
  const total = JSON.stringify(body.meta.TotalResults);
  const countKey = `"TotalResults":${total}`;
  const countAt = meta.indexOf(countKey);
  if (countAt < 0) throw new Error("the body's meta has no TotalResults");
  const head = put(`{"meta":${meta.slice(0, countAt)}"TotalResults":`);
  put(total);
  const metaTail = put(`${meta.slice(countAt + countKey.length)},"data":`);
  const brands: BodySlices["brands"] = [];
  const records: BodySlices["records"] = [];
  if (body.data.length > 1) throw new Error("the body has more than one data item");
  if (body.data.length === 0) put("[]");
  else {
    put(`[{"Brand":[`);
    body.data[0]!.Brand.forEach((brand, b) => {
      if (b > 0) put(",");
      const marker = `${JSON.stringify(recordsKey)}:[`;
      const empty = JSON.stringify({ ...brand, [recordsKey]: [] });
      const cut = empty.lastIndexOf(`${marker}]`);
      if (cut < 0) throw new Error(`brand ${b} has no ${recordsKey} list`);
      const prefix = put(empty.slice(0, cut + marker.length));
      ((brand[recordsKey] ?? []) as unknown[]).forEach((record, r) => {
        if (r > 0) put(",");
        records.push({ brand: b, range: put(JSON.stringify(record)) });
      });
      const suffix = put(empty.slice(cut + marker.length));
      brands.push([...prefix, ...suffix]);
    });
    put("]}]");
  }
  put("}");
  if (!Buffer.from(text, "utf8").equals(bytes)) {
    throw new Error("the body's slices do not rebuild its published bytes");
  }
  return { head, metaTail, brands, records };
}
