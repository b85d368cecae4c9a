/**
 * Step 5's last part: a data set's body as the exact bytes served (compact JSON, UTF-8, what
 * `JSON.stringify` gives), written piece by piece so that where each piece lands is known as it
 * is written: the envelope around the count, each brand's text before and after its records, and
 * each record. The near-me index (step 7) and the history (step 8) take these ranges as they
 * are; a body read back from the cache finds them again with `bodySlices`, checked against its
 * bytes (encode/dataset-body.ts asks, once per body).
 */
import type { ByteRange } from "../../contract/near.js";
import type { Envelope } from "../core/envelope-shape.js";
import { brandShell } from "./data-digest.js";

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
  const parts = partsOf(body, recordsKey, kept);
  const made = parts && writeBody(parts, recordsKey);
  return made ?? { bytes: Buffer.from(JSON.stringify(body), "utf8"), slices: undefined };
}

/**
 * A record's published text: its compact JSON, as JSON.stringify writes it (UTF-8 unescaped, keys
 * in the order the content gives them). The one place a record's bytes are decided: the bodies,
 * the records' hashes (encode/dataset-body.ts) and what the history keeps of past files
 * (history/facts.ts, history/records.ts) all take it from here. Undefined for what JSON has no
 * text for.
 */
export function recordText(record: unknown): string | undefined {
  // JSON.stringify gives undefined for undefined and functions, whatever its declared type says.
  const text: string | undefined = JSON.stringify(record);
  return text;
}

function recordBytes(record: unknown, kept: RecordBytes | undefined): Buffer | undefined {
  if (typeof record !== "object" || record === null || !kept) {
    const text = recordText(record);
    return text === undefined ? undefined : Buffer.from(text, "utf8");
  }
  let bytes = kept.get(record);
  if (bytes === undefined) {
    bytes = Buffer.from(recordText(record)!, "utf8");
    kept.set(record, bytes);
  }
  return bytes;
}

// The separator between records, put as a byte rather than as a string to encode.
const COMMA = Buffer.from(",");

/**
 * A body in the parts it is written from: its meta (TotalResults among it), and each brand as its
 * shell, the JSON text of the brand with its records' list empty (brandShell in
 * encode/data-digest.ts), and its records' JSON texts in order. A data set without a records list
 * (the service metrics, where the brand is the record) has each brand whole as its shell and no
 * records. The build makes these from the values it assembled (partsOf, below); the history
 * from what it keeps of past files (history/version.ts): one writer makes the bytes of both.
 */
export interface BodyParts {
  readonly meta: Readonly<Record<string, unknown>>;
  readonly brands: readonly {
    readonly shell: string;
    readonly records: readonly (string | Buffer)[];
  }[];
}

/**
 * The body of `body`'s values in parts, with each record's bytes (kept ones copied); undefined
 * when it is not one envelope of brands each listing records under `recordsKey`.
 */
function partsOf(
  body: Envelope,
  recordsKey: string | null,
  kept?: RecordBytes,
): BodyParts | undefined {
  // The envelope is {meta, data} in that order (assemble/envelope.ts), and nothing else.
  const keys = Object.keys(body);
  if (keys.length !== 2 || keys[0] !== "meta" || keys[1] !== "data") return undefined;
  if (body.data.length > 1) return undefined;
  const item = body.data[0];
  // One item of one or more brands; `data: []` is how an empty data set is written.
  if (item && (Object.keys(item).length !== 1 || !Array.isArray(item.Brand))) return undefined;
  if (item?.Brand.length === 0) return undefined;
  const brands: BodyParts["brands"][number][] = [];
  for (const brand of item?.Brand ?? []) {
    if (recordsKey === null) {
      // The brand is the record, whole.
      const text = recordText(brand);
      if (text === undefined) return undefined;
      brands.push({ shell: text, records: [] });
      continue;
    }
    const list: unknown = brand[recordsKey];
    if (!Array.isArray(list)) return undefined;
    const records: Buffer[] = [];
    for (const record of list) {
      const text = recordBytes(record, kept);
      // undefined (or a function) is written null inside a list, but is no record.
      if (text === undefined) return undefined;
      records.push(text);
    }
    brands.push({ shell: brandShell(brand, recordsKey), records });
  }
  return { meta: body.meta, brands };
}

/**
 * The exact bytes of the body `parts` make (what JSON.stringify of its envelope gives), with their
 * byte ranges when it has records under `recordsKey`; undefined when a count or a shell is not
 * one the pieces can be cut from.
 */
export function writeBody(parts: BodyParts, recordsKey: string | null): SerializedBody | undefined {
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
  const meta = JSON.stringify(parts.meta);
  const total = JSON.stringify(parts.meta.TotalResults);
  if (total === undefined) return undefined;
  const countKey = `"TotalResults":${total}`;
  const countAt = meta.indexOf(countKey);
  if (countAt < 0) return undefined;
  const head = put(`{"meta":${meta.slice(0, countAt)}"TotalResults":`);
  put(total);
  const metaTail = put(`${meta.slice(countAt + countKey.length)},"data":`);
  const brands: BodySlices["brands"] = [];
  const records: BodySlices["records"] = [];
  if (parts.brands.length === 0) put("[]");
  else {
    put(`[{"Brand":[`);
    const marker = recordsKey === null ? "" : `${JSON.stringify(recordsKey)}:[`;
    for (const [b, brand] of parts.brands.entries()) {
      if (b > 0) put(",");
      if (recordsKey === null) {
        put(brand.shell);
        continue;
      }
      // The shell is cut where the list's items go: at the one place the list's key is written
      // with an empty list (a string's quotes are escaped, so none is in a value).
      const cut = brand.shell.indexOf(`${marker}]`);
      if (cut < 0 || cut !== brand.shell.lastIndexOf(`${marker}]`)) return undefined;
      const prefix = put(brand.shell.slice(0, cut + marker.length));
      for (const [r, text] of brand.records.entries()) {
        if (r > 0) put(COMMA);
        records.push({ brand: b, range: put(text) });
      }
      const suffix = put(brand.shell.slice(cut + marker.length));
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
  const slices = recordsKey === null ? undefined : { head, metaTail, brands, records };
  return { bytes, slices };
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
  const parts = partsOf(body, recordsKey);
  const made = parts && writeBody(parts, recordsKey);
  if (!made) return undefined;
  if (!made.bytes.equals(bytes)) {
    throw new Error("the body's slices do not rebuild its published bytes");
  }
  return made.slices!;
}
