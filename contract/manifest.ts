/**
 * The heart of the build–Worker contract: the shape of dist/manifest.json, its format version, and
 * how stored variants are named. The build writes the manifest and the Worker imports it at
 * bundle time, answering every header question (ETag,
 * length, Last-Modified, media type) from it, so nothing is parsed or hashed per request. No
 * runtime imports: safe for the Worker's bundle.
 */
import type { NearEntry } from "./near.js";
import type { PlanId } from "./rate-limits.js";

/** Content codings the build precomputes, by their HTTP token (RFC 9110 section 8.4.1). */
export type ContentCoding = "br" | "gzip" | "identity";

/** Every coding the build stores, each as its own file. */
export const STORED_CODINGS: readonly ContentCoding[] = ["identity", "br", "gzip"];

/** The manifest format this Worker reads; the build writes exactly this. */
export const MANIFEST_FORMAT_VERSION = 1;

/** What a coded variant's file name adds to the identity file's: `atms.json.br`, `index.html.gz`. */
const CODING_SUFFIXES: Readonly<Record<ContentCoding, string>> = {
  identity: "",
  br: ".br",
  gzip: ".gz",
};

/** Asset path of one variant, given the asset path of the identity file. */
export function variantAsset(identityAsset: string, coding: ContentCoding): string {
  return identityAsset + CODING_SUFFIXES[coding];
}

/** Asset path of a data set's identity body: its URL path with `.json`. */
export function datasetAsset(path: string): string {
  return `${path}.json`;
}

/** One stored representation of a data set: exact bytes, as a file under dist/. */
export interface ManifestVariant {
  /** Asset path under dist/, with a leading slash, as the ASSETS binding is asked for it. */
  readonly asset: string;
  /** Strong entity tag, quoted: `"<hex SHA-256 of exactly these bytes>"`. */
  readonly etag: string;
  /** Byte length of the file. */
  readonly length: number;
}

/**
 * A further path the same representations are served under (the live standard's names, when
 * content/site.yaml sets OpenBankingPaths), with the Content-Type to send there.
 */
export interface ManifestAlias {
  readonly path: string;
  readonly mediaType: string;
}

/** What the Worker needs to serve one path with validators and stored variants. */
export interface ServedFile {
  /** URL path served, e.g. /std/v2.2/branches. */
  readonly path: string;
  /** Content-Type to send. */
  readonly mediaType: string;
  /** An IMF-fixdate for Last-Modified (RFC 9110 section 5.6.7). */
  readonly lastModified: string;
  /** The same instant in milliseconds since the epoch (a whole second), for If-Modified-Since. */
  readonly lastModifiedMs: number;
  /** Representations by content coding; identity is always present. */
  readonly variants: { readonly identity: ManifestVariant } & {
    readonly [coding in Exclude<ContentCoding, "identity">]?: ManifestVariant;
  };
}

/** One data set: a path of the APIs, counted under a rate-limit plan. */
export interface ManifestEntry extends ServedFile {
  /** Data set id, as in build/core/datasets.ts. */
  readonly dataset: string;
  /** meta.LastUpdated as written in the body (RFC 3339, UTC, whole seconds). */
  readonly lastUpdated: string;
  /** meta.TotalResults. */
  readonly totalResults: number;
  /** Number of brands in the data set. */
  readonly brands: number;
  /**
   * Further paths serving the same bytes, ETags and rate-limit plan as `path`, each with its own
   * media type; empty unless content/site.yaml sets OpenBankingPaths.
   */
  readonly aliases: readonly ManifestAlias[];
}

/**
 * A document about the APIs (the landing page, its stylesheet, /openapi.json): served like a
 * data set (ETag, 304, HEAD, stored variants) but counted under no plan.
 */
export type DocumentEntry = ServedFile;

/**
 * One stored answer of a data set's changes endpoint: the changes from one version to the
 * current one (contract/changes.ts), encoded like a data set.
 */
export interface ChangeAnswer {
  /** meta.Since: the LastUpdated of the version these are the changes since. */
  readonly since: string;
  /** meta.TotalResults: the records listed plus the Identifications removed. */
  readonly totalResults: number;
  /** Representations by content coding, each with its strong ETag; identity always. */
  readonly variants: ServedFile["variants"];
  /**
   * The `since` tokens answered with it: the version's meta.LastUpdated and the ETags (without
   * quotes) of each coding of its body. A token no answer lists is answered 410.
   */
  readonly tokens: readonly string[];
}

/**
 * A data set's changes endpoint (`/x-std/v2.2/<data set>/changes?since=TOKEN`): every answer it
 * can give, stored, each with the tokens that get it, so the Worker answers with one lookup in a
 * map it builds once per isolate.
 */
export interface ChangesEntry {
  /** Data set id, as in `datasets`. */
  readonly dataset: string;
  /** URL path served, e.g. /x-std/v2.2/atms/changes. */
  readonly path: string;
  /** Content-Type to send: the data set's. */
  readonly mediaType: string;
  /** The same endpoint under /x-open-banking/v2.2/ with its media type, with OpenBankingPaths. */
  readonly aliases: readonly ManifestAlias[];
  /** The rate-limit plan: the data set's own, so one quota whichever path. */
  readonly plan: PlanId;
  /** The data set's Last-Modified (IMF-fixdate), and the same instant in milliseconds. */
  readonly lastModified: string;
  readonly lastModifiedMs: number;
  /**
   * The answers, newest version first; `answers[0]` is since the current version itself (nothing
   * listed), each other one since a past version that is kept.
   */
  readonly answers: readonly ChangeAnswer[];
}

export interface Manifest {
  readonly formatVersion: typeof MANIFEST_FORMAT_VERSION;
  /**
   * Cache-Control max-age in seconds of the data sets, their aliases and near-me slices, and the
   * documents but the feed: site.yaml's CacheMaxAgeSeconds; absent, the specs' default
   * (contract/headers.ts).
   */
  readonly cacheMaxAge?: number;
  readonly datasets: readonly ManifestEntry[];
  /**
   * Required: the Worker imports the manifest of the very build it is deployed with, so a
   * manifest from before documents existed can never reach it.
   */
  readonly documents: readonly DocumentEntry[];
  /** The extension endpoints' indexes (contract/near.ts); absent in older manifests: none. */
  readonly near?: readonly NearEntry[];
  /** The changes endpoints, one per v2.2 data set; absent in older manifests: none. */
  readonly changes?: readonly ChangesEntry[];
  /**
   * The sites of content/site.yaml's Sites, each with the host it answers and its own manifest;
   * absent without Sites (this manifest then serves every host). With them, this manifest's own
   * data sets and documents are empty: a host no site names is answered 404
   * (docs/decisions.md#sites).
   */
  readonly sites?: readonly SiteEntry[];
}

/** One site of a build with Sites: its name, the one host it answers, and what it serves. */
export interface SiteEntry {
  /** site.yaml's Name: a DNS label, its folder under dist/ and its preview address. */
  readonly name: string;
  /** The host it answers, lower case, without port or trailing dot. */
  readonly host: string;
  /** Its own publication, every asset path under its folder (siteFolder). */
  readonly manifest: Manifest;
}

/** The folder under dist/ a site's files are written into: `sites/<name>`. */
export function siteFolder(name: string): string {
  return `sites/${name}`;
}

/** File name of the manifest inside dist/. */
export const MANIFEST_FILE = "manifest.json";
