/**
 * Step 9, the documents about the APIs, built after the data sets: the landing page at /, its
 * stylesheet, /openapi.json, the API reference /reference made from it, the directory entry
 * /participant_store.json and the publication feed /x-std/changes.atom. Each is encoded like a
 * data set (identity, br, gzip, each with its strong ETag) and listed in the manifest's `documents`, so the Worker serves it with no work per request.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AnySchemaObject } from "ajv";
import { planForPath } from "../../contract/rate-limits.js";
import type { SiteSettings } from "../read/site.js";
import { sha256, type BuildCache } from "../core/cache.js";
import type { BuildProfile } from "../core/profile.js";
import type { BuildMemory } from "../core/memory.js";
import { entityTag, PAGE_BROTLI_QUALITY, type EncodedBody } from "../encode/variants.js";
import type { EncodeBytes } from "../encode/cached-encoder.js";
import { loadOutline } from "./landing/map.js";
import {
  landingPage,
  mapKey,
  mapSection,
  STYLESHEET_PATH,
  type MapInput,
  type MarkTexts,
} from "./landing/page.js";
import { readLimits } from "./plan-limits.js";
import type { ChangesEntry, DocumentEntry } from "../../contract/manifest.js";
import { CHANGES_FEED_MEDIA_TYPE, CHANGES_FEED_PATH } from "../../contract/changes.js";
import type { Publication } from "../history/index.js";
import { changesFeed } from "./changes-feed.js";
import type { NearEntry } from "../../contract/near.js";
import { openApiDocument, OPENAPI_MEDIA_TYPE, OPENAPI_PATH } from "./openapi/document.js";
import { manifestVariants, type DatasetResult } from "../encode/manifest-entry.js";
import {
  participantStore,
  PARTICIPANT_STORE_MEDIA_TYPE,
  PARTICIPANT_STORE_PATH,
} from "./participant-store.js";
import { PROJECT_ROOT } from "../core/paths.js";
import type { NearIndex } from "../../contract/near.js";
import type { ChangeAnswer } from "../../contract/manifest.js";
import { examplesFor } from "./reference/examples.js";
import { referencePage } from "./reference/page.js";
import { REFERENCE_PATH } from "./reference/path.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";
import { within, withinSync } from "../core/internal-error.js";

// The landing page's path: the site's root.
const LANDING_PATH = "/";
// Media types of the page and its stylesheet (UTF-8, as written).
const HTML_MEDIA_TYPE = "text/html; charset=utf-8";
const CSS_MEDIA_TYPE = "text/css; charset=utf-8";
// The highest brotli quality for a document: a page's for the pages (encode/variants.ts).
const pageQuality = (mediaType: string) =>
  mediaType === HTML_MEDIA_TYPE ? PAGE_BROTLI_QUALITY : undefined;
/** The stylesheet's source, served as it is. */
export const STYLESHEET_FILE = join(PROJECT_ROOT, "build", "documents", "landing", "style.css");

export interface DocumentInput {
  /**
   * Each data set as built: its manifest entry, and its body (step 5) for the map's marks and the
   * brands the directory entry lists.
   */
  readonly datasets: readonly Pick<DatasetResult, "dataset" | "entry" | "body">[];
  readonly schemas: ReadonlyMap<string, AnySchemaObject>;
  readonly settings: SiteSettings;
  /** Where the map's projected outline is kept between builds. */
  readonly cache?: BuildCache | undefined;
  readonly encode: EncodeBytes;
  /** The manifest's near-me indexes, for /openapi.json's extension paths. */
  readonly near?: readonly NearEntry[];
  /** The manifest's changes endpoints, for /openapi.json, the feed and the landing page. */
  readonly changes?: readonly ChangesEntry[];
  /** Each near-me index's bytes as written (build/near/), for the API reference's examples. */
  readonly nearIndexes?: readonly { readonly entry: NearEntry; readonly bytes: Buffer }[];
  /** Each stored change answer (build/history/), for the API reference's examples. */
  readonly changeAnswers?: readonly {
    readonly entry: ChangeAnswer;
    readonly encoded: { readonly identity: { readonly bytes: Buffer } };
  }[];
  /** Every data set's publications, newest first (build/history/), for the feed and the page. */
  readonly publications?: readonly Publication[];
  /** The host of the site these documents describe, with site.yaml's Sites; none without. */
  readonly host?: string | undefined;
  /** Whether the landing page is compressed (BuildProfile.compressPage); by default it is. */
  readonly profile?: Pick<BuildProfile, "compressPage">;
  /** The build's memory (core/memory.ts), where the map marks' texts are kept. */
  readonly memory?: BuildMemory | undefined;
}

export interface DocumentResult {
  readonly entry: DocumentEntry;
  /** Every coding the entry lists (only identity for an uncompressed page). */
  readonly encoded: Pick<EncodedBody, "identity"> & Partial<EncodedBody>;
}

// The asset file a document's identity bytes are stored in; "/" has no file name of its own, and
// /reference is stored as HTML by name (never served by that name: the Worker routes by path).
const assetOf = (path: string) =>
  path === LANDING_PATH ? "/index.html" : path === REFERENCE_PATH ? "/reference.html" : path;

/**
 * Every document, generated and encoded; in a session (the live preview), a site whose documents'
 * inputs are what a build before gave them (a brand's site when another brand's file was saved)
 * takes that build's documents whole.
 */
export async function makeDocuments(input: DocumentInput): Promise<DocumentResult[]> {
  const limits = readLimits();
  const made = input.memory?.part("documents", () => new Map<string, DocumentResult[]>());
  const key = made && documentsKey(input, limits);
  const known = key === undefined ? undefined : made!.get(key);
  if (known) return known;
  const documents = await generate(input, limits);
  if (key !== undefined) {
    // The sites of the last build or two: older ones are what no save asks for again.
    if (made!.size >= KEPT_DOCUMENTS) made!.delete(made!.keys().next().value!);
    made!.set(key, documents);
  }
  return documents;
}

// A group of four sites, twice over.
const KEPT_DOCUMENTS = 8;

/**
 * Everything the documents are made from, named by what identifies it: each data set's manifest
 * entry (its body by ETag, its LastUpdated), the near-me indexes' and the changes endpoints'
 * entries (by ETag and asset), the publications, the site's settings and host, the rate-limit
 * plans and the profile. The schemas, the stylesheet and the code are the process's own.
 */
function documentsKey(input: DocumentInput, limits: unknown): string {
  return sha256(
    JSON.stringify([
      limits,
      input.datasets.map(({ entry }) => entry),
      input.near ?? [],
      input.changes ?? [],
      input.publications ?? [],
      input.settings,
      input.host ?? null,
      input.profile?.compressPage ?? true,
    ]),
  );
}

async function generate(
  input: DocumentInput,
  limits: ReturnType<typeof readLimits>,
): Promise<DocumentResult[]> {
  const located = input.datasets.flatMap(({ body }) => body.located);
  const brandNames = [...new Set(input.datasets.flatMap(({ body }) => body.brandNames))];
  const mapInput = {
    datasets: input.datasets,
    located,
    outline: await loadOutline(input.cache),
  };
  const marks = input.memory?.part("mark-texts", (): MarkTexts => new WeakMap());
  // Each document made within its own boundary: a fault of the build's names the document.
  const map = await within("the map of the landing page", () =>
    mapBytes(mapInput, input.cache, marks),
  );
  const page = withinSync(`the document ${LANDING_PATH}`, () =>
    landingPage({
      ...mapInput,
      map: MAP_MARK,
      settings: input.settings,
      limits,
      planOf: planForPath,
      near: input.near ?? [],
      changes: input.changes ?? [],
      publications: input.publications ?? [],
    }),
  );
  const openapi = withinSync(`the document ${OPENAPI_PATH}`, () =>
    openApiDocument({
      datasets: input.datasets,
      schemas: input.schemas,
      settings: input.settings,
      limits,
      near: input.near ?? [],
      changes: input.changes ?? [],
      host: input.host,
    }),
  );
  const store = withinSync(`the document ${PARTICIPANT_STORE_PATH}`, () =>
    participantStore({
      datasets: input.datasets,
      brandNames,
      settings: input.settings,
    }),
  );
  // The documents change when the data sets do, so they carry the newest data set's time, never
  // the build's clock: the same content gives the same bytes and headers.
  const ms = Math.max(0, ...input.datasets.map(({ entry }) => entry.lastModifiedMs));
  const feed = withinSync(`the document ${CHANGES_FEED_PATH}`, () =>
    changesFeed({
      publications: input.publications ?? [],
      changes: input.changes ?? [],
      settings: input.settings,
      updated: new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"),
    }),
  );
  const storeText = JSON.stringify(store);
  const reference = withinSync(`the document ${REFERENCE_PATH}`, () =>
    referenceOf(input, openapi, storeText, feed),
  );
  const sources: [path: string, mediaType: string, text: string | Buffer][] = [
    [LANDING_PATH, HTML_MEDIA_TYPE, withMap(page, map)],
    [STYLESHEET_PATH, CSS_MEDIA_TYPE, readFileSync(STYLESHEET_FILE, "utf8")],
    [OPENAPI_PATH, OPENAPI_MEDIA_TYPE, JSON.stringify(openapi)],
    [REFERENCE_PATH, HTML_MEDIA_TYPE, reference],
    [PARTICIPANT_STORE_PATH, PARTICIPANT_STORE_MEDIA_TYPE, storeText],
    [CHANGES_FEED_PATH, CHANGES_FEED_MEDIA_TYPE, feed],
  ];
  return encodeDocuments(input, sources, ms);
}

/** The API reference, from /openapi.json, with each operation's samples cut from what was made. */
function referenceOf(
  input: DocumentInput,
  openapi: ReturnType<typeof openApiDocument>,
  storeText: string,
  feed: string,
): string {
  return referencePage({
    openapi,
    examples: examplesFor(Object.keys(openapi.paths as object), {
      datasets: input.datasets.map(({ dataset, entry, body }) => ({
        dataset,
        entry,
        body: body.bytes,
      })),
      near: new Map(
        (input.nearIndexes ?? []).map(({ entry, bytes }) => [
          entry.dataset,
          { index: JSON.parse(bytes.toString("utf8")) as NearIndex, segments: entry.segments },
        ]),
      ),
      changes: input.changes ?? [],
      answers: new Map(
        (input.changeAnswers ?? []).map((a) => [
          a.entry.variants.identity.asset,
          a.encoded.identity.bytes,
        ]),
      ),
      documents: new Map([
        [
          PARTICIPANT_STORE_PATH,
          { mediaType: PARTICIPANT_STORE_MEDIA_TYPE, bytes: Buffer.from(storeText) },
        ],
        [CHANGES_FEED_PATH, { mediaType: CHANGES_FEED_MEDIA_TYPE, bytes: Buffer.from(feed) }],
      ]),
    }),
    origin: input.settings.PublicOrigin,
    openapiPath: OPENAPI_PATH,
  });
}
/** Each document in every coding, listed as the manifest lists it, dated `ms`. */
function encodeDocuments(
  input: DocumentInput,
  sources: readonly (readonly [path: string, mediaType: string, text: string | Buffer])[],
  ms: number,
): Promise<DocumentResult[]> {
  return Promise.all(
    sources.map(async ([path, mediaType, text]) => {
      const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
      // The page stored uncompressed (identity only) where the profile says so: the preview's.
      const uncompressed = input.profile?.compressPage === false && path === LANDING_PATH;
      const encoded = uncompressed
        ? { identity: { bytes, etag: entityTag(bytes) } }
        : await input.encode(bytes, undefined, pageQuality(mediaType));
      const entry: DocumentEntry = {
        path,
        mediaType,
        lastModified: new Date(ms).toUTCString(),
        lastModifiedMs: ms,
        variants: manifestVariants(assetOf(path), encoded),
      };
      return { entry, encoded };
    }),
  );
}

// Where the map's section goes in the page's text: its bytes are put there as they are, not
// decoded into the page and encoded again (3.8 MB for 13,000 marks). Text from content is escaped
// (landing/html.ts), so no `<` of it can make this mark.
const MAP_MARK = "<opendata-edge-map-section>";

function withMap(page: string, map: Buffer): Buffer {
  const at = page.indexOf(MAP_MARK);
  if (at < 0 || page.indexOf(MAP_MARK, at + 1) >= 0)
    throw new Error("the page has no one place for its map");
  return Buffer.concat([
    Buffer.from(page.slice(0, at), "utf8"),
    map,
    Buffer.from(page.slice(at + MAP_MARK.length), "utf8"),
  ]);
}

/**
 * The map's section as bytes. The map is the page's costliest part
 * (bench/results/2026-11-27-the-merged-main-idle.md, "The editor's loop") and most edits leave it as it was: taken from the cache by what it is drawn from
 * (page.ts, mapKey), which the live preview holds in memory between rebuilds.
 */
async function mapBytes(
  mapInput: MapInput,
  cache: BuildCache | undefined,
  marks: MarkTexts | undefined,
): Promise<Buffer> {
  const draw = () => Buffer.from(mapSection(mapInput), "utf8");
  if (!cache) return draw();
  return cache.through(
    cache.key("map-section", ...mapKey(mapInput, marks)),
    CACHE_KINDS.mapSection,
    draw,
  );
}
