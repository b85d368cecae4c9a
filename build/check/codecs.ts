/**
 * The two text forms a checked file takes outside the process that checked it: the message a
 * worker thread replies with, and the entry the cache stores.
 */
import type { CheckedFile } from "./one-file.js";

/** A CheckedFile with its value as JSON text: what threads and the cache exchange. */
export type TransferableCheck = Omit<CheckedFile, "value"> & { readonly json: string | undefined };

export function toTransferable(checked: CheckedFile): TransferableCheck {
  const { value, ...rest } = checked;
  return { ...rest, json: value === undefined ? undefined : JSON.stringify(value) };
}

export function fromTransferable(data: TransferableCheck): CheckedFile {
  const { json, ...rest } = data;
  return { ...rest, value: json === undefined ? undefined : JSON.parse(json) };
}

/**
 * A cache entry: the small part (problems, positions) as one line of JSON, then the value's JSON
 * as it is, so reading an entry parses the value once rather than as a string inside JSON.
 */
export function toCacheEntry(data: TransferableCheck): string {
  const { json, ...rest } = data;
  return `${JSON.stringify(rest)}\n${json ?? ""}`;
}

/**
 * A CheckedFile from its cache entry. The value is decoded and parsed when first read: a rebuild
 * whose data set is unchanged takes its body from the cache (assemble/one-dataset.ts) and never
 * needs the values of that data set's files, which are most of what the cache holds.
 */
export function fromCacheEntry(entry: Buffer): CheckedFile {
  const split = entry.indexOf(10); // "\n"
  const rest = JSON.parse(entry.toString("utf8", 0, split)) as Omit<CheckedFile, "value">;
  let value: { parsed: unknown } | undefined;
  return Object.defineProperty(rest, "value", {
    enumerable: true,
    get: () =>
      (value ??= { parsed: JSON.parse(entry.toString("utf8", split + 1)) as unknown }).parsed,
  }) as CheckedFile;
}
