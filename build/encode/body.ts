/**
 * Step 5's last part: a data set's body as the exact bytes served (compact JSON, UTF-8, what
 * `JSON.stringify` gives), written piece by piece so that where each piece lands is known as it
 * is written: the envelope around the count, each brand's text before and after its records, and
 * each record. The near-me index (step 7) and the history (step 8) take these ranges as they
 * are; a body read back from the cache finds them again with `bodySlices`, checked against its
 * bytes (encode/dataset-body.ts asks, once per body).
 */
import type { ByteRange } from "../../contract/near.js";
import type { Brand, Envelope } from "../assemble/envelope.js";

/** The byte ranges of one body (see NearIndex in contract/near.ts). */
export interface BodySlices {
  readonly head: ByteRange;
  readonly metaTail: ByteRange;
  /** Per brand: [prefix start, prefix end, suffix start, suffix end]. */
  readonly brands: (readonly [number, number, number, number])[];
  /** Per record, in publication order: its brand's number and its range. */
  readonly records: { readonly brand: number; readonly range: ByteRange }[];
}

/** A body's bytes, and where its pieces are when it has the shape the index needs. */
export interface SerializedBody {
  readonly bytes: Buffer;
  readonly slices: BodySlices | undefined;
}

/**
 * Each record's bytes, by the record, as a build's memory keeps them (core/memory.ts,
 * "record-bytes"): a process that builds again with the same memory (the live preview, which keeps
 * the values of unchanged files between builds: check/cached-checks.ts) serialises and encodes
 * only the records it has not before, and copies the rest (bench/results/2026-11-28-loading-wrangler.md,
 * "A record's bytes kept"). Values are never changed once parsed.
 */
export type RecordBytes = WeakMap<object, Buffer>;

/**
 * The bytes of `body` (exactly `JSON.stringify(body)` in UTF-8) and, when its records are listed
 * under `recordsKey` in at most one data item, their slices. Any other shape is serialised whole,
 * without slices. `kept`: records' bytes from builds before; none by default.
 */
export function serializeBody(
  body: Envelope,
  recordsKey: string | null,
  kept?: RecordBytes,
): SerializedBody {
  const made = recordsKey === null ? undefined : piecewise(body, recordsKey, kept);
  return made ?? { bytes: Buffer.from(JSON.stringify(body), "utf8"), slices: undefined };
}

function recordBytes(record: unknown, kept: RecordBytes | undefined): Buffer | undefined {
  if (typeof record !== "object" || record === null || !kept) {
    const text = JSON.stringify(record);
    return text === undefined ? undefined : Buffer.from(text, "utf8");
  }
  let bytes = kept.get(record);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(record), "utf8");
    kept.set(record, bytes);
  }
  return bytes;
}

// The separator between records, put as a byte rather than as a string to encode.
const COMMA = Buffer.from(",");

/**
 * The pieces of `body`, each the JSON.stringify of a part of it (so together exactly the whole's),
 * with their byte ranges; undefined when the body is not one envelope of brands each listing
 * records under `recordsKey`, with a whole-number count.
 */
function piecewise(
  body: Envelope,
  recordsKey: string,
  kept?: RecordBytes,
): SerializedBody | undefined {
  const pieces: (string | Buffer)[] = [];
  // Byte offsets as pieces are put: each piece's UTF-8 length is counted as it is put, and the
  // pieces are written into one buffer of the total length at the end. Joining them into one
  // string and encoding that took many times as long on a large body
  // (bench/results/2026-11-27-precompiled-validators-and-the-previews-rebuild.md, "Bytes without round trips").
  let at = 0;
  // Appends a piece, returning its byte range.
  const put = (piece: string | Buffer): [number, number] => {
    const start = at;
    pieces.push(piece);
    at += typeof piece === "string" ? Buffer.byteLength(piece, "utf8") : piece.length;
    return [start, at];
  };
  // The envelope is {meta, data} in that order (assemble/envelope.ts), and nothing else.
  const keys = Object.keys(body);
  if (keys.length !== 2 || keys[0] !== "meta" || keys[1] !== "data") return undefined;
  const meta = JSON.stringify(body.meta);
  const total = JSON.stringify(body.meta.TotalResults);
  if (total === undefined) return undefined;
  const countKey = `"TotalResults":${total}`;
  const countAt = meta.indexOf(countKey);
  if (countAt < 0) return undefined;
  const head = put(`{"meta":${meta.slice(0, countAt)}"TotalResults":`);
  put(total);
  const metaTail = put(`${meta.slice(countAt + countKey.length)},"data":`);
  const brands: BodySlices["brands"] = [];
  const records: BodySlices["records"] = [];
  if (body.data.length > 1) return undefined;
  if (body.data.length === 0) put("[]");
  else {
    const item = body.data[0]!;
    const brandList: readonly Brand[] = item.Brand;
    if (Object.keys(item).length !== 1) return undefined;
    put(`[{"Brand":[`);
    const marker = `${JSON.stringify(recordsKey)}:[`;
    for (const [b, brand] of brandList.entries()) {
      const list: unknown = brand[recordsKey];
      if (!Array.isArray(list)) return undefined;
      if (b > 0) put(",");
      // The brand with an empty list, cut where the list's items go: at the one place the list's
      // key is written with an empty list (a string's quotes are escaped, so none is in a value).
      const empty = JSON.stringify({ ...brand, [recordsKey]: [] });
      const cut = empty.indexOf(`${marker}]`);
      if (cut < 0 || cut !== empty.lastIndexOf(`${marker}]`)) return undefined;
      const prefix = put(empty.slice(0, cut + marker.length));
      for (const [r, record] of list.entries()) {
        const text = recordBytes(record, kept);
        // undefined (or a function) is written null inside a list, but is no record.
        if (text === undefined) return undefined;
        if (r > 0) put(COMMA);
        records.push({ brand: b, range: put(text) });
      }
      const suffix = put(empty.slice(cut + marker.length));
      brands.push([...prefix, ...suffix]);
    }
    put("]}]");
  }
  put("}");
  const bytes = Buffer.allocUnsafe(at);
  let written = 0;
  for (const piece of pieces) {
    if (piece === COMMA) bytes[written++] = 0x2c;
    else if (typeof piece === "string") written += bytes.write(piece, written, "utf8");
    else {
      bytes.set(piece, written);
      written += piece.length;
    }
  }
  if (written !== at) throw new Error(`serialised ${written} bytes where ${at} were counted`);
  return { bytes, slices: { head, metaTail, brands, records } };
}

/**
 * The slices of `bytes`, the exact serialisation of `body` (compact JSON.stringify, as encode
 * writes it): the pieces found by serialising the parsed value again and checked against the
 * bytes, so a wrong index can never be published. Undefined when the body has not the shape that
 * has slices; throws when the ranges do not reproduce the bytes exactly.
 */
export function bodySlices(
  bytes: Uint8Array,
  body: Envelope,
  recordsKey: string,
): BodySlices | undefined {
  const made = piecewise(body, recordsKey);
  if (!made) return undefined;
  if (!made.bytes.equals(bytes)) {
    throw new Error("the body's slices do not rebuild its published bytes");
  }
  return made.slices!;
}
