/**
 * The live preview's generations, in memory, and the PREVIEW binding's side of the contract
 * (contract/preview.ts): the preview's Worker asks here which generation is current and reads
 * every file of an answer from that one generation. Publishing a generation is one assignment: no
 * file is written, no Worker bundled or reloaded. A generation that is no longer current is kept a
 * while for the requests that started on it, then forgotten.
 */
import {
  PREVIEW_CURRENT_PATH,
  PREVIEW_GENERATION_HEADER,
  PREVIEW_FILES_PREFIX,
  PREVIEW_HAVE_PARAMETER,
  type CurrentGeneration,
} from "../../contract/preview.js";
import type { Manifest } from "../../contract/manifest.js";
import type { OutputFile } from "../write/atomic.js";

/** What one generation serves. */
export interface Publishable {
  readonly manifest: Manifest;
  /** Every file the manifest names (others are ignored). */
  readonly files: readonly OutputFile[];
  /** False when the content has never built: only the manifest's documents are served. */
  readonly built: boolean;
}

interface Stored {
  readonly id: string;
  /** The answer to a Worker that has not seen this generation: serialised once. */
  readonly current: string;
  readonly files: ReadonlyMap<string, Uint8Array | string>;
}

// A generation no longer current stays readable this long: far longer than any request takes on
// loopback, so an answer that started on it always finds its files.
const KEEP_SUPERSEDED_MS = 60_000;
// …and at most this many of them at once, whatever the pace of saves.
const KEEP_SUPERSEDED = 8;

export class Generations {
  private current: Stored | undefined;
  private readonly superseded = new Map<string, Stored>();
  private count = 0;
  // Names generations of this process only; a Worker outlives no process.
  private readonly session = Date.now().toString(36);

  /** Makes `generation` the one served; returns its id. */
  publish(generation: Publishable): string {
    const id = `${this.session}.${++this.count}`;
    const body: CurrentGeneration = {
      id,
      built: generation.built,
      manifest: generation.manifest,
    };
    const files = new Map(generation.files.map((f) => [`/${f.path}`, f.bytes]));
    const before = this.current;
    this.current = { id, current: JSON.stringify(body), files };
    if (before) {
      this.superseded.set(before.id, before);
      setTimeout(() => this.superseded.delete(before.id), KEEP_SUPERSEDED_MS).unref();
      for (const old of this.superseded.keys()) {
        if (this.superseded.size <= KEEP_SUPERSEDED) break;
        this.superseded.delete(old);
      }
    }
    return id;
  }

  /** The binding's answer to the preview Worker's `request` (contract/preview.ts). */
  answer(request: Request): Response {
    const url = new URL(request.url);
    const current = this.current;
    if (url.pathname === PREVIEW_CURRENT_PATH) {
      if (!current) return new Response("nothing published yet", { status: 503 });
      const headers = { [PREVIEW_GENERATION_HEADER]: current.id };
      if (url.searchParams.get(PREVIEW_HAVE_PARAMETER) === current.id) {
        return new Response(null, { status: 204, headers });
      }
      return new Response(current.current, {
        headers: { ...headers, "Content-Type": "application/json" },
      });
    }
    // PREVIEW_FILES_PREFIX, the generation's id, then the asset path with its slash.
    const [id, asset] = url.pathname.startsWith(PREVIEW_FILES_PREFIX)
      ? splitOnce(url.pathname.slice(PREVIEW_FILES_PREFIX.length))
      : [];
    const stored =
      id === undefined ? undefined : id === current?.id ? current : this.superseded.get(id);
    const bytes = asset === undefined ? undefined : stored?.files.get(asset);
    if (bytes === undefined) return new Response("no such file", { status: 404 });
    const body = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
    return new Response(body, { headers: { "Content-Length": String(body.byteLength) } });
  }
}

// "<id>/<path>" as [id, "/<path>"], the id decoded; nothing without a slash.
function splitOnce(rest: string): [string, string] | [] {
  const slash = rest.indexOf("/");
  return slash < 0 ? [] : [decodeURIComponent(rest.slice(0, slash)), rest.slice(slash)];
}
