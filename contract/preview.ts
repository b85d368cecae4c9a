/**
 * The live preview's contract (`npm start` only; the deployed Worker never reads it): how the
 * preview's Worker (worker/preview.ts) asks the process that builds (build/preview/) for what to
 * serve, through one service binding. The process keeps each generation it published (a manifest
 * and every file it names) in memory; a request asks once which generation is current, then reads
 * every file it needs from that same generation, so the manifest and the bytes of an answer always
 * come from one build, and a new build needs no new Worker bundle and no reload
 * (docs/records/2026-11-27-the-preview-worker-reads-each-generation-at-run-time.md). No runtime imports.
 */
import type { Manifest } from "./manifest.js";

/** The binding's name in the preview Worker's env: a fetcher served by the building process. */
export const PREVIEW_BINDING = "PREVIEW";

/** Any origin will do: the binding answers every request itself. */
export const PREVIEW_ORIGIN = "http://preview.invalid";

/**
 * `GET /current?have=<id>`: the generation served now. 204 with its id in PREVIEW_GENERATION_HEADER
 * when it is `have`, else 200 with a CurrentGeneration body.
 */
export const PREVIEW_CURRENT_PATH = "/current";
export const PREVIEW_HAVE_PARAMETER = "have";
export const PREVIEW_GENERATION_HEADER = "Preview-Generation";

/** What the Worker learns of a generation it has not seen. */
export interface CurrentGeneration {
  /** Names the generation (never reused within one process). */
  readonly id: string;
  /**
   * False when the content has never built (npm start on broken content, with no earlier
   * build): the manifest then holds only the preview's page, its script and its version, and
   * every other path is answered 503 until a save builds.
   */
  readonly built: boolean;
  readonly manifest: Manifest;
}

/**
 * The path, through the binding, of the file `asset` (a manifest asset path, with its leading
 * slash) of generation `id`: 200 with its bytes, or 404 once that generation is forgotten.
 */
export function previewFilePath(id: string, asset: string): string {
  return `${PREVIEW_FILES_PREFIX}${encodeURIComponent(id)}${asset}`;
}

/** Where the files of the generations are, through the binding. */
export const PREVIEW_FILES_PREFIX = "/files/";

/**
 * `GET /_preview/publication.json`, served by the live preview only (a deployed Worker answers it
 * 404): which paths the preview answers with its own bytes in place of the build's, each with the
 * build's identity ETag it was made from and the identity ETag it serves instead. Today that is
 * the landing page, which gains the preview's script and panels (build/preview/output.ts).
 * `npm run verify` reads it from a loopback base URL only, and takes a path's served tag only
 * where `built` is the tag its own manifest expects (build/verify/preview.ts).
 */
export const PREVIEW_PUBLICATION_PATH = "/_preview/publication.json";

export interface PreviewPublication {
  readonly replaced: readonly {
    readonly path: string;
    /** The build's identity ETag of `path`, quoted. */
    readonly built: string;
    /** The identity ETag the preview serves at `path`, quoted. */
    readonly served: string;
  }[];
}
