/**
 * The publisher-wide settings of site.yaml (its schema is schemas/site.schema.json): what the
 * envelopes' meta, the documents and the data-quality pass read of it. Read and checked with the
 * rest of the content (check/steps.ts); every later step takes it from there.
 */

export interface SiteSettings {
  readonly License: string;
  readonly TermsOfUse: string;
  /** Also publish every data set under the live standard's /open-banking/ paths (default false). */
  readonly OpenBankingPaths?: boolean;
  /** Optional: names the publisher on the landing page and in /openapi.json. */
  readonly PublisherName?: string;
  /** Optional: the deployment's public origin, for the absolute baseUrl of /participant_store.json. */
  readonly PublicOrigin?: string;
  /** Optional: data-quality rule ids (or "all") whose findings fail the build instead of warning. */
  readonly QualityErrors?: readonly string[];
  /**
   * Optional: how many past versions of each v2.2 data set its changes endpoint answers from
   * (build/history/; default 100, 0 for the current version only).
   */
  readonly ChangeHistoryVersions?: number;
  /**
   * Optional: Cache-Control max-age in seconds of the data sets, their near-me slices and the
   * documents but the feed (default the specs' 28800; contract/headers.ts).
   */
  readonly CacheMaxAgeSeconds?: number;
  /** Optional: whom consumers contact about the data (/openapi.json's info.contact). */
  readonly Contact?: {
    readonly Name?: string;
    readonly Url?: string;
    readonly Email?: string;
  };
  /**
   * Optional: the sites this one repository publishes, each at its own host with the brands it
   * names (docs/decisions.md#sites). Absent: one site, every brand, at every address.
   */
  readonly Sites?: readonly SiteDeclaration[];
}

/** One entry of site.yaml's Sites, as written. */
interface SiteDeclaration {
  /** A DNS label: the folder the site is built into and its preview address (<Name>.localhost). */
  readonly Name: string;
  /** The host consumers reach it at, lower case, no port or trailing dot (the schema says so). */
  readonly Host: string;
  /** BrandName values; absent: every brand. */
  readonly Brands?: readonly string[];
  /** Its title on its landing page and in its /openapi.json; absent: the top-level one. */
  readonly PublisherName?: string;
}

/** One site of the build's table, as the steps after the checks read it. */
export interface PublishedSite {
  readonly name: string;
  readonly host: string;
  /** The BrandName values it publishes; undefined: every brand. */
  readonly brands: ReadonlySet<string> | undefined;
  /**
   * The settings its documents and envelopes are made with: site.yaml's, with this site's
   * PublisherName and its host as PublicOrigin, and without Sites.
   */
  readonly settings: SiteSettings;
}

/**
 * The table of sites site.yaml declares, in its order; undefined without Sites (one site, every
 * brand, today's output). Check the declaration first (check/sites.ts): this trusts it.
 */
export function siteTable(settings: SiteSettings): readonly PublishedSite[] | undefined {
  if (settings.Sites === undefined) return undefined;
  const { Sites: _sites, ...shared } = settings;
  return settings.Sites.map((declared) => ({
    name: declared.Name,
    host: declared.Host,
    brands: declared.Brands === undefined ? undefined : new Set(declared.Brands),
    settings: {
      ...shared,
      PublisherName: declared.PublisherName ?? settings.PublisherName,
      // Every site is served over https at its host (RFC 9110 section 4.2.2).
      PublicOrigin: `https://${declared.Host}`,
    },
  }));
}

// How the documents name the publisher when site.yaml gives no PublisherName.
const DEFAULT_PUBLISHER = "Open banking open data";

/** The publisher's name for the landing page and /openapi.json. */
export function publisherName(settings: SiteSettings): string {
  return settings.PublisherName ?? DEFAULT_PUBLISHER;
}
