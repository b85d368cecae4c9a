/**
 * Fetches or reads one feed and parses its JSON. A URL is fetched with Node's fetch, a timeout,
 * and the data set's media types in Accept; a non-200 answer or a body that is not JSON is an
 * error naming the URL.
 */
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { resolve } from "node:path";
import { DATASETS, openBankingAliases, type DatasetDefinition } from "../core/datasets.js";
import { ImportError } from "./errors.js";

/** How long a feed URL may take to answer in full, unless `--timeout` says otherwise. */
export const DEFAULT_FETCH_TIMEOUT_SECONDS = 60;
/** Offered after the standard's own media types: many publishers label feeds plain JSON. */
const FALLBACK_ACCEPT = "application/json;q=0.5";

export interface LoadedFeed {
  /** Where it came from, for messages and the header comment: the path as given, or the URL. */
  readonly source: string;
  readonly value: unknown;
}

/** Whether `input` is to be fetched rather than read. */
function isUrl(input: string): boolean {
  return /^https?:\/\//i.test(input);
}

/**
 * The Accept field for a feed of `dataset` (or of any data set when not known): the spec's media
 * type and the live standard's, then plain JSON.
 */
function acceptFor(dataset: DatasetDefinition | undefined): string {
  const types = (dataset ? [dataset] : DATASETS).flatMap((d) => [
    d.mediaType,
    ...openBankingAliases(d).map((a) => a.mediaType),
  ]);
  return [...new Set(types), FALLBACK_ACCEPT].join(", ");
}

/** The URL as it may be shown and recorded: without a user name or password. */
function displayUrl(url: URL): string {
  const shown = new URL(url);
  shown.username = "";
  shown.password = "";
  return shown.href;
}

export interface LoadOptions {
  readonly cwd: string;
  readonly dataset: DatasetDefinition | undefined;
  readonly timeoutSeconds: number;
  readonly fetch?: typeof fetch;
}

export async function loadFeed(input: string, options: LoadOptions): Promise<LoadedFeed> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input) && !isUrl(input)) {
    throw new ImportError(
      `${input}: only http and https URLs can be fetched; give a file by its path`,
    );
  }
  if (isUrl(input)) return fetchFeed(input, options);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(resolve(options.cwd, input));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a folder"
          : (error as Error).message;
    throw new ImportError(`cannot read ${input}: ${why}`);
  }
  return {
    source: input,
    value: parseJson(decodeFeed(unzipped(bytes, input), input, null), input, null),
  };
}

async function fetchFeed(input: string, options: LoadOptions): Promise<LoadedFeed> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ImportError(`${input} is not a valid URL`);
  }
  const source = displayUrl(url);
  const timeoutMs = options.timeoutSeconds * 1000;
  const signal = AbortSignal.timeout(timeoutMs);
  let bytes: Uint8Array;
  let contentType: string | null;
  try {
    // fetch refuses a URL with credentials in it; they go in Authorization instead (RFC 7617).
    const headers: Record<string, string> = { Accept: acceptFor(options.dataset) };
    if (url.username || url.password) {
      const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers.Authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
    }
    const response = await (options.fetch ?? fetch)(source, {
      headers,
      signal,
      redirect: "follow",
    });
    contentType = response.headers.get("Content-Type");
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new ImportError(
        `${source} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}, not 200 with the feed`,
      );
    }
    // The body is read under the same signal, so a server that stalls mid-body times out too.
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof ImportError) throw error;
    if (signal.aborted) {
      throw new ImportError(`${source} did not answer in full within ${options.timeoutSeconds} s`);
    }
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new ImportError(`cannot fetch ${source}: ${cause ?? (error as Error).message}`);
  }
  return { source, value: parseJson(decodeFeed(bytes, source, contentType), source, contentType) };
}

/**
 * A saved feed's bytes as JSON: gunzipped when they are gzip's (RFC 1952 section 2.3.1: they
 * start 1F 8B, which no JSON text does), as `curl -o` saves a response it asked gzip for without
 * `--compressed`. A fetched feed is decompressed by fetch itself.
 */
function unzipped(bytes: Uint8Array, source: string): Uint8Array {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  try {
    return gunzipSync(bytes);
  } catch (error) {
    throw new ImportError(`${source} is gzip but does not decompress: ${(error as Error).message}`);
  }
}

/**
 * The feed's text. JSON exchanged between systems is UTF-8 (RFC 8259, section 8.1), which is what
 * every real feed measured was; a byte-order mark is allowed to say otherwise, so UTF-16 with its
 * mark is read too, as is a feed whose server names another charset in Content-Type (nothing is
 * lost either way). Bytes that are not UTF-8 are otherwise an error naming the first and where it
 * is, never replaced: a `£` saved as Windows-1252 (0xA3) would become U+FFFD in every fee.
 */
export function decodeFeed(bytes: Uint8Array, source: string, contentType: string | null): string {
  const declared = /;\s*charset="?([\w.:-]+)"?/i.exec(contentType ?? "")?.[1];
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? "utf-16le"
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? "utf-16be"
        : (encodingNamed(declared) ?? "utf-8");
  try {
    // ignoreBOM false (the default): the decoder drops the mark of its own encoding.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    const label = contentType ? ` (Content-Type: ${contentType})` : "";
    if (encoding !== "utf-8") {
      const says = encoding.startsWith("utf-16") ? "its byte-order mark" : "its Content-Type";
      throw new ImportError(`${source}${label} is not ${encoding}, as ${says} says`);
    }
    // The decoder refused it, so some byte does not fit; should the scan below miss it, the last.
    const at = Math.min(firstInvalidUtf8(bytes), bytes.length - 1);
    const before = new TextDecoder().decode(bytes.subarray(0, at));
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    const byte = bytes[at]!.toString(16).toUpperCase().padStart(2, "0");
    throw new ImportError(
      `${source}${label} is not UTF-8: byte 0x${byte} at line ${line}, column ${column}, after ` +
        `${JSON.stringify(before.slice(-30))}. JSON feeds are UTF-8 (RFC 8259); if this one is ` +
        `Windows-1252, convert it first: iconv -f WINDOWS-1252 -t UTF-8 feed.json > feed-utf8.json`,
    );
  }
}

/** The encoding a charset label names, as TextDecoder calls it (`utf8` is `utf-8`); or undefined. */
function encodingNamed(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** The offset of the first byte that does not begin or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  const strict = new TextDecoder("utf-8", { fatal: true });
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    // The sequence's length from its first byte (RFC 3629, section 4); 0: no sequence starts so.
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead <= 0xdf
          ? 2
          : lead >= 0xe0 && lead <= 0xef
            ? 3
            : lead >= 0xf0 && lead <= 0xf4
              ? 4
              : 0;
    if (length === 0) return i;
    if (length > 1) {
      try {
        // The decoder judges the sequence (overlong forms, surrogates, a cut at the end).
        strict.decode(bytes.subarray(i, i + length));
      } catch {
        return i;
      }
    }
    i += length;
  }
  return bytes.length;
}

function parseJson(text: string, source: string, contentType: string | null): unknown {
  try {
    // decodeFeed has dropped a byte-order mark.
    return JSON.parse(text);
  } catch (error) {
    const label = contentType ? ` (Content-Type: ${contentType})` : "";
    const start = JSON.stringify(text.trimStart().slice(0, 40));
    throw new ImportError(
      `${source}${label} is not JSON: ${(error as Error).message}; it starts ${start}`,
    );
  }
}
