/**
 * The publisher-wide settings of site.yaml (its schema is schemas/site.schema.json): what the
 * envelopes' meta, the documents and the data-quality pass read of it. Read and checked with the
 * rest of the content (check/steps.ts); every later step takes it from there.
 */

export interface Site {
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
}

// How the documents name the publisher when site.yaml gives no PublisherName.
const DEFAULT_PUBLISHER = "Open banking open data";

/** The publisher's name for the landing page and /openapi.json. */
export function publisherName(site: Site): string {
  return site.PublisherName ?? DEFAULT_PUBLISHER;
}
