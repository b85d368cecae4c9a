/**
 * Fetches or reads one feed and parses its JSON. A URL is fetched with Node's fetch, a timeout,
 * and the data set's media types in Accept; a non-200 answer or a body that is not JSON is an
 * error naming the URL.
 */
import { readFile } from "node:fs/promises";
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
export function isUrl(input: string): boolean {
  return /^https?:\/\//i.test(input);
}

/**
 * The Accept field for a feed of `dataset` (or of any data set when not known): the spec's media
 * type and the live standard's, then plain JSON.
 */
export function acceptFor(dataset: DatasetDefinition | undefined): string {
  const types = (dataset ? [dataset] : DATASETS).flatMap((d) => [
    d.mediaType,
    ...openBankingAliases(d).map((a) => a.mediaType),
  ]);
  return [...new Set(types), FALLBACK_ACCEPT].join(", ");
}

/** The URL as it may be shown and recorded: without a user name or password. */
export function displayUrl(url: URL): string {
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
  let text: string;
  try {
    text = await readFile(resolve(options.cwd, input), "utf8");
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
  return { source: input, value: parseJson(text, input, null) };
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
  let text: string;
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
    text = await response.text();
  } catch (error) {
    if (error instanceof ImportError) throw error;
    if (signal.aborted) {
      throw new ImportError(`${source} did not answer in full within ${options.timeoutSeconds} s`);
    }
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new ImportError(`cannot fetch ${source}: ${cause ?? (error as Error).message}`);
  }
  return { source, value: parseJson(text, source, contentType) };
}

function parseJson(text: string, source: string, contentType: string | null): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const label = contentType ? ` (Content-Type: ${contentType})` : "";
    const start = JSON.stringify(text.trimStart().slice(0, 40));
    throw new ImportError(
      `${source}${label} is not JSON: ${(error as Error).message}; it starts ${start}`,
    );
  }
}
