/**
 * The eight published data sets, named once. Everything else (content folders, schema files, URL
 * paths, media types, record identity) is looked up here by the build, the tests and the tooling.
 * The Worker never imports this file: it learns paths and media types from the build's manifest.
 */
import type { ManifestAlias } from "../../contract/manifest.js";
import { PLAN_PATH_PREFIXES, type PlanId } from "../../contract/rate-limits.js";

/** Media type of the Open Data API v2.2 (open-data-api-v2.2.md, "What the service does"). */
export const OPEN_DATA_MEDIA_TYPE = "application/prs.std.opendata.v2.2+json";
/** Media type of the Service Metrics API v1.0 (service-metrics-api-v1.0.md, "What the service does"). */
const SERVICE_METRICS_MEDIA_TYPE = "application/prs.std.opendata.v1.0+json";

/** The exact meta.Agreement text both specs require. */
export const AGREEMENT =
  "Use of the APIs and any related data will be subject to the terms of the Open Licence and subject to terms and conditions";

/**
 * The live standard's media types, as publishers serve them (platform notes, "The standard as it
 * is served in the wild"): `prs.openbanking` where our specs say `prs.std`.
 */
const OPEN_BANKING_OPEN_DATA_MEDIA_TYPE = "application/prs.openbanking.opendata.v2.2+json";
/** The live standard's service metrics media type. */
const OPEN_BANKING_SERVICE_METRICS_MEDIA_TYPE = "application/prs.openbanking.opendata.v1.0+json";

/** One of the two APIs the data sets are published under, with all that differs between them. */
export interface ApiFamily {
  /** Its name, as the documents give it ("Open Data API v2.2"). */
  readonly name: string;
  /** What /openapi.json's tag of the API says of it (OpenAPI 3.1, "Tag Object"). */
  readonly description: string;
  readonly mediaType: string;
  /** The rate-limit plan its paths are counted under; its path prefix is the plan's. */
  readonly plan: PlanId;
  /**
   * Where the live standard publishes the same data sets (`OpenBankingPaths: true`) and its media
   * type there. Service metrics appear with and without the version segment in publishers' own
   * definitions.
   */
  readonly aliasPrefixes: readonly string[];
  readonly aliasMediaType: string;
}

/** The Open Data API v2.2 (open-data-api-v2.2.md, open-data-api-v2.2-products.md). */
export const OPEN_DATA_API: ApiFamily = {
  name: "Open Data API v2.2",
  description:
    "Branches, ATMs and products (personal and business current accounts, unsecured SME loans, commercial credit cards) as the Open Data API v2.2 defines them.",
  mediaType: OPEN_DATA_MEDIA_TYPE,
  plan: "open-data",
  aliasPrefixes: ["/open-banking/v2.2/"],
  aliasMediaType: OPEN_BANKING_OPEN_DATA_MEDIA_TYPE,
};

/** The Service Metrics API v1.0 (service-metrics-api-v1.0.md). */
const SERVICE_METRICS_API: ApiFamily = {
  name: "Service Metrics API v1.0",
  description:
    "Service quality metrics for personal and business current accounts, as the Service Metrics API v1.0 defines them.",
  mediaType: SERVICE_METRICS_MEDIA_TYPE,
  plan: "service-metrics",
  aliasPrefixes: ["/open-banking/v1.0/fca-service-metrics/", "/open-banking/fca-service-metrics/"],
  aliasMediaType: OPEN_BANKING_SERVICE_METRICS_MEDIA_TYPE,
};

/** A data set's path: its API's prefix (contract/rate-limits.ts) and its own last segment. */
function pathIn(api: ApiFamily, name: string): string {
  return PLAN_PATH_PREFIXES[api.plan] + name;
}

export type DatasetId =
  | "branches"
  | "atms"
  | "personal-current-accounts"
  | "service-metrics-pca"
  | "service-metrics-bca"
  | "business-current-accounts"
  | "unsecured-sme-loans"
  | "commercial-credit-cards";

/** How one data set is read from content/ and published. */
export interface DatasetDefinition {
  readonly id: DatasetId;
  /** Human title for summaries and messages. */
  readonly title: string;
  /** Folder under content/ holding one YAML file (or one folder of files) per brand. */
  readonly contentDir: string;
  /** The API it belongs to: its media type, plan, path prefix, aliases and description. */
  readonly api: ApiFamily;
  /** URL path the Worker serves it under: its API's prefix and a name. */
  readonly path: string;
  /** Its API's media type. */
  readonly mediaType: string;
  /** Schema file (under schemas/) that one brand file must satisfy. */
  readonly brandSchema: string;
  /** Schema file (under schemas/) for the whole response envelope. */
  readonly envelopeSchema: string;
  /**
   * The brand object's list of records (Branch, ATM, PCA, BCA, SMELoan, CCC). `null` for service metrics, where the
   * brand object itself is the record and meta.TotalResults counts brands.
   */
  readonly recordsKey: "Branch" | "ATM" | "PCA" | "BCA" | "SMELoan" | "CCC" | null;
  /** Fields that identify a record within a brand; duplicates are build errors. */
  readonly identity: readonly string[];
  /** How one record is called in a sentence of the change summary ("ATM", "Product"). */
  readonly recordNoun: string;
  /**
   * A product's list of marketing states (PCAMarketingState…), which the products rule book and
   * the data-quality pass read; null for data sets whose records have none.
   */
  readonly marketingStateKey: string | null;
}

export const DATASETS: readonly DatasetDefinition[] = [
  {
    id: "branches",
    title: "Branches",
    contentDir: "branches",
    api: OPEN_DATA_API,
    path: pathIn(OPEN_DATA_API, "branches"),
    mediaType: OPEN_DATA_API.mediaType,
    brandSchema: "branch-brand.schema.json",
    envelopeSchema: "branches.schema.json",
    recordsKey: "Branch",
    // open-data-api-v2.2.md: SequenceNumber is "used with Identification".
    identity: ["Identification", "SequenceNumber"],
    recordNoun: "Branch",
    marketingStateKey: null,
  },
  {
    id: "atms",
    title: "ATMs",
    contentDir: "atms",
    api: OPEN_DATA_API,
    path: pathIn(OPEN_DATA_API, "atms"),
    mediaType: OPEN_DATA_API.mediaType,
    brandSchema: "atm-brand.schema.json",
    envelopeSchema: "atms.schema.json",
    recordsKey: "ATM",
    identity: ["Identification"],
    recordNoun: "ATM",
    marketingStateKey: null,
  },
  {
    id: "personal-current-accounts",
    title: "Personal current accounts",
    contentDir: "personal-current-accounts",
    api: OPEN_DATA_API,
    path: pathIn(OPEN_DATA_API, "personal-current-accounts"),
    mediaType: OPEN_DATA_API.mediaType,
    brandSchema: "pca-brand.schema.json",
    envelopeSchema: "personal-current-accounts.schema.json",
    recordsKey: "PCA",
    identity: ["Identification"],
    recordNoun: "Product",
    marketingStateKey: "PCAMarketingState",
  },
  // The three further product data sets of open-data-api-v2.2-products.md, beside the fourth
  // (personal current accounts); a product is identified by its Identification.
  {
    id: "business-current-accounts",
    title: "Business current accounts",
    contentDir: "business-current-accounts",
    api: OPEN_DATA_API,
    path: pathIn(OPEN_DATA_API, "business-current-accounts"),
    mediaType: OPEN_DATA_API.mediaType,
    brandSchema: "bca-brand.schema.json",
    envelopeSchema: "business-current-accounts.schema.json",
    recordsKey: "BCA",
    identity: ["Identification"],
    recordNoun: "Product",
    marketingStateKey: "BCAMarketingState",
  },
  {
    id: "unsecured-sme-loans",
    title: "Unsecured SME loans",
    contentDir: "unsecured-sme-loans",
    api: OPEN_DATA_API,
    path: pathIn(OPEN_DATA_API, "unsecured-sme-loans"),
    mediaType: OPEN_DATA_API.mediaType,
    brandSchema: "sme-loan-brand.schema.json",
    envelopeSchema: "unsecured-sme-loans.schema.json",
    recordsKey: "SMELoan",
    identity: ["Identification"],
    recordNoun: "Product",
    marketingStateKey: "SMELoanMarketingState",
  },
  {
    id: "commercial-credit-cards",
    title: "Commercial credit cards",
    contentDir: "commercial-credit-cards",
    api: OPEN_DATA_API,
    path: pathIn(OPEN_DATA_API, "commercial-credit-cards"),
    mediaType: OPEN_DATA_API.mediaType,
    brandSchema: "ccc-brand.schema.json",
    envelopeSchema: "commercial-credit-cards.schema.json",
    recordsKey: "CCC",
    identity: ["Identification"],
    recordNoun: "Product",
    marketingStateKey: "CCCMarketingState",
  },
  {
    id: "service-metrics-pca",
    title: "Service metrics (PCA)",
    contentDir: "service-metrics-pca",
    api: SERVICE_METRICS_API,
    path: pathIn(SERVICE_METRICS_API, "pca"),
    mediaType: SERVICE_METRICS_API.mediaType,
    brandSchema: "service-metrics-brand.schema.json",
    envelopeSchema: "service-metrics-pca.schema.json",
    recordsKey: null,
    identity: [],
    recordNoun: "Brand",
    marketingStateKey: null,
  },
  {
    id: "service-metrics-bca",
    title: "Service metrics (BCA)",
    contentDir: "service-metrics-bca",
    api: SERVICE_METRICS_API,
    path: pathIn(SERVICE_METRICS_API, "bca"),
    mediaType: SERVICE_METRICS_API.mediaType,
    brandSchema: "service-metrics-bca-brand.schema.json",
    envelopeSchema: "service-metrics-bca.schema.json",
    recordsKey: null,
    identity: [],
    recordNoun: "Brand",
    marketingStateKey: null,
  },
];

/**
 * The live standard's paths for a data set (`OpenBankingPaths: true` in content/site.yaml): for
 * `/std/v2.2/atms`, `/open-banking/v2.2/atms`; for `/std/v1.0/reg-service-metrics/pca`, the
 * versioned and unversioned `/open-banking/…/fca-service-metrics/pca`.
 */
export function openBankingAliases(
  dataset: Pick<DatasetDefinition, "api" | "path">,
): ManifestAlias[] {
  const name = dataset.path.slice(PLAN_PATH_PREFIXES[dataset.api.plan].length);
  return dataset.api.aliasPrefixes.map((prefix) => ({
    path: prefix + name,
    mediaType: dataset.api.aliasMediaType,
  }));
}

/** The record keys of the product data sets: those whose records have marketing states. */
export type ProductRecordsKey = "PCA" | "BCA" | "SMELoan" | "CCC";

const STATE_KEYS = new Map(
  DATASETS.flatMap((d) =>
    d.recordsKey !== null && d.marketingStateKey !== null
      ? [[d.recordsKey as string, d.marketingStateKey] as const]
      : [],
  ),
);

/** The marketing states' key of the data set whose records are under `recordsKey`, if it has one. */
export function marketingStateKeyOf(recordsKey: string | null): string | undefined {
  return recordsKey === null ? undefined : STATE_KEYS.get(recordsKey);
}

/** Whether `key` is a product data set's record key (its records have marketing states). */
export function isProductRecordsKey(key: string | null): key is ProductRecordsKey {
  return marketingStateKeyOf(key) !== undefined;
}

/** The data set with this id, if there is one. */
export function findDataset(id: string): DatasetDefinition | undefined {
  return DATASETS.find((d) => d.id === id);
}
