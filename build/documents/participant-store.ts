/**
 * /participant_store.json: this deployment as an entry of the standard body's participant
 * directory (participant_store.json in OpenBankingUK/opendata-api-spec-compiled), which existing
 * client libraries read to find a bank's open data: per participant its name, its brands, a
 * `baseUrl` and, per API, the versions it serves. A client composes `<baseUrl>/<version>/<api>`
 * (and `<baseUrl>/<version>/fca-service-metrics/<product-type>`), so pointing such a client at
 * this one URL instead of the directory's finds this deployment's data.
 */
import { publisherName, type SiteSettings } from "../read/site.js";
import { AGREEMENT, type DatasetDefinition } from "../core/datasets.js";
import { dateToRfc3339 } from "../core/dates.js";
import type { ManifestEntry } from "../../contract/manifest.js";

/** Where the document is served: the directory's own file name, which clients' code ends with. */
export const PARTICIPANT_STORE_PATH = "/participant_store.json";
/** The directory is plain JSON. */
export const PARTICIPANT_STORE_MEDIA_TYPE = "application/json";

/** One API's versions, as the directory writes them. */
type ApiVersions = string[] | { version: string; "product-type": string }[];

export interface ParticipantStoreInput {
  readonly datasets: readonly {
    readonly dataset: DatasetDefinition;
    readonly entry: ManifestEntry;
  }[];
  readonly brandNames: readonly string[];
  readonly settings: SiteSettings;
}

/**
 * The document: the directory's envelope with this deployment as its one participant. With the
 * live standard's paths on, `baseUrl` is `<origin>/open-banking` and every data set is listed as
 * the directory lists it; without them, `<origin>/std`, under which only the v2.2 data sets have
 * the directory's shape (the service metrics' /std/ path, reg-service-metrics, has no directory
 * name, so they are left out and a client finds them through /openapi.json).
 */
export function participantStore(input: ParticipantStoreInput): object {
  const live = input.settings.OpenBankingPaths === true;
  const origin = (input.settings.PublicOrigin ?? "").replace(/\/+$/, "");
  const supportedAPIs: Record<string, ApiVersions> = {};
  const metrics: { version: string; "product-type": string }[] = [];
  for (const { entry } of input.datasets) {
    if (entry.totalResults === 0) continue;
    const v22 = /^\/std\/(v2\.2)\/([a-z-]+)$/.exec(entry.path);
    if (v22) supportedAPIs[v22[2]!] = [v22[1]!];
    const sm = /^\/std\/(v1\.0)\/reg-service-metrics\/([a-z]+)$/.exec(entry.path);
    if (sm && live) metrics.push({ version: sm[1]!, "product-type": sm[2]! });
  }
  if (metrics.length > 0) supportedAPIs["fca-service-metrics"] = metrics;
  const newest = Math.max(0, ...input.datasets.map(({ entry }) => entry.lastModifiedMs));
  return {
    meta: {
      Agreement: AGREEMENT,
      TotalResults: 1,
      LastUpdated: dateToRfc3339(new Date(newest)),
      License: input.settings.License,
      TermsOfUse: input.settings.TermsOfUse,
    },
    data: [
      {
        name: publisherName(input.settings),
        brands: [...new Set(input.brandNames)],
        baseUrl: `${origin}${live ? "/open-banking" : "/std"}`,
        supportedAPIs,
      },
    ],
  };
}
