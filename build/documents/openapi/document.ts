/**
 * /openapi.json: one OpenAPI 3.1 document for every path the build publishes, generated from the
 * manifest, the schema files (components.ts) and the Worker's own named constants (headers,
 * error texts, rate limits), so it cannot drift from what is served.
 */
import type { AnySchemaObject } from "ajv";
import { planForPath } from "../../../contract/rate-limits.js";
import {
  ERROR_CAUSES,
  ERRORS,
  INVALID_PARAMETER_HEADER,
  PARAMETER_FORMS,
  ERROR_MEDIA_TYPE,
  STATUS_CODE_HEADER,
  type ErrorStatus,
} from "../../../contract/errors.js";
import {
  ALLOWED_METHODS,
  cacheControl,
  CHANGES_MAX_AGE_SECONDS,
  DEFAULT_MAX_AGE_SECONDS,
  ERROR_CACHE_CONTROL,
  RATE_LIMIT_HEADER,
  RATE_LIMIT_POLICY_HEADER,
  SECURITY_HEADERS,
  VARY,
} from "../../../contract/headers.js";
import { publisherName, type SiteSettings } from "../../read/site.js";
import type { ApiFamily, DatasetDefinition } from "../../core/datasets.js";
import { describeLimit, type PlanLimit } from "../plan-limits.js";
import type { ManifestEntry } from "../../../contract/manifest.js";
import { servedPaths } from "../served-paths.js";
import { componentRef, schemaComponents } from "./components.js";
import { PARTICIPANT_STORE_MEDIA_TYPE, PARTICIPANT_STORE_PATH } from "../participant-store.js";
import type { PlanId } from "../../../contract/rate-limits.js";
import type { NearEntry } from "../../../contract/near.js";
import { NEAR_PARAMETERS, NEAR_TAG, NEAR_TAG_DESCRIPTION, nearPaths } from "./near-paths.js";
import type { ChangesEntry } from "../../../contract/manifest.js";
import {
  CHANGES_PARAMETERS,
  CHANGES_TAG,
  CHANGES_TAG_DESCRIPTION,
  FEED,
  changesPaths,
  changesSchemas,
} from "./changes-paths.js";
import type { JsonObject } from "../../core/json-value.js";

/**
 * The media type the OpenAPI Initiative registered with IANA for OpenAPI documents in JSON
 * (`application/vnd.oai.openapi+json`), with its optional `version` parameter.
 */
export const OPENAPI_MEDIA_TYPE = "application/vnd.oai.openapi+json;version=3.1";
/** The version of the OpenAPI Specification the document follows. */
const OPENAPI_VERSION = "3.1.0";
/** Where the document is served. */
export const OPENAPI_PATH = "/openapi.json";

/** Error statuses a data path can answer (docs/consumers.md#the-apis), each documented with its text. */
const DOCUMENTED_ERRORS: readonly ErrorStatus[] = [400, 404, 405, 412, 429, 500, 503];

/** The tag of the directory entry, which belongs to neither API. */
const DIRECTORY_TAG = "Participant directory";

export interface OpenApiInput {
  readonly datasets: readonly {
    readonly dataset: DatasetDefinition;
    readonly entry: ManifestEntry;
  }[];
  readonly schemas: ReadonlyMap<string, AnySchemaObject>;
  readonly settings: SiteSettings;
  readonly limits: Readonly<Record<PlanId, PlanLimit>>;
  /** The manifest's near-me indexes; their extension paths are described too. */
  readonly near?: readonly NearEntry[];
  /** The manifest's changes endpoints; they and the publication feed are described too. */
  readonly changes?: readonly ChangesEntry[];
  /** The host of the site this document describes, with site.yaml's Sites; none without. */
  readonly host?: string | undefined;
}

const header = (description: string, example?: string): JsonObject => ({
  description,
  schema: example === undefined ? { type: "string" } : { type: "string", example },
});
const ref = (kind: string, name: string): JsonObject => ({ $ref: `#/components/${kind}/${name}` });

/** The document, as a plain object ready for JSON.stringify. */
export function openApiDocument(input: OpenApiInput): JsonObject {
  const { datasets, settings, limits } = input;
  // Each API once, in the order of its first data set; its name is its tag (OpenAPI 3.1, "Tag Object").
  const apis = [...new Set<ApiFamily>(datasets.map(({ dataset }) => dataset.api))];
  const { paths, near, changes } = operationPaths(input);
  const errorStatuses: ErrorStatus[] = [
    ...DOCUMENTED_ERRORS,
    ...(changes.length ? [410 as const] : []),
  ];
  const errorResponses = Object.fromEntries(
    errorStatuses.map((status) => [`Error${status}`, errorResponse(status)]),
  );
  const components = schemaComponents(input.schemas, [
    ...new Set(datasets.map(({ dataset }) => dataset.envelopeSchema)),
    PARTICIPANT_STORE_SCHEMA,
  ]);
  return {
    openapi: OPENAPI_VERSION,
    info: documentInfo(settings, apis, limits),
    // Relative: the origin this document was fetched from (OpenAPI 3.1, "Server Object").
    servers: [
      // A site of site.yaml's Sites answers at its host only: clients are told it first
      // (docs/decisions.md#a-sites-openapijson-names-its-host).
      ...(input.host === undefined
        ? []
        : [{ url: `https://${input.host}`, description: "This site's host." }]),
      { url: "/", description: "The origin serving this document." },
    ],
    // The data is public: no operation asks for credentials (OpenAPI 3.1, "Security Requirement
    // Object": an empty list means none), said explicitly so linters and generated clients know.
    security: [],
    tags: [
      ...apis.map((api) => ({ name: api.name, description: api.description })),
      ...(near.length > 0 ? [{ name: NEAR_TAG, description: NEAR_TAG_DESCRIPTION }] : []),
      ...(changes.length > 0 ? [{ name: CHANGES_TAG, description: CHANGES_TAG_DESCRIPTION }] : []),
      {
        name: DIRECTORY_TAG,
        description: "Where clients that read the participant directory find this deployment.",
      },
    ],
    paths,
    components: {
      schemas: {
        ...components,
        ...changesSchemas([...new Set(changes.map((c) => c.dataset))], input.schemas, components),
        Error: ERROR_SCHEMA,
      },
      parameters: {
        ...CONDITIONAL_PARAMETERS,
        ...(near.length > 0 ? NEAR_PARAMETERS : {}),
        ...(changes.length > 0 ? CHANGES_PARAMETERS : {}),
      },
      headers: responseHeaders(settings, limits),
      responses: errorResponses,
    },
  };
}

/**
 * Every path's operations, in the document's order: each data set's served paths, the near-me
 * extension paths, the changes endpoints, the directory entry and the publication feed.
 */
function operationPaths(input: OpenApiInput) {
  const { datasets, limits } = input;
  const paths: Record<string, JsonObject> = {};
  for (const { dataset, entry } of datasets) {
    const plan = limits[planForPath(entry.path)!];
    for (const served of servedPaths(entry)) {
      paths[served.path] = {
        get: operation("get", served.path, served.mediaType, dataset, plan),
        head: operation("head", served.path, served.mediaType, dataset, plan),
      };
    }
  }

  // The near-me extension paths: the data set's plan and envelope, their own parameters.
  const near = nearPaths(datasets, input.near ?? []);
  for (const n of near) {
    const plan = limits[planForPath(n.dataset.path)!];
    const about = { summary: n.summary, description: n.description, parameters: n.parameters };
    paths[n.path] = {
      get: operation("get", n.path, n.mediaType, n.dataset, plan, about),
      head: operation("head", n.path, n.mediaType, n.dataset, plan, about),
    };
  }

  // The changes endpoints: the data set's plan, their own answer schema, and 410.
  const changes = changesPaths(datasets, input.changes ?? []);
  for (const c of changes) {
    const plan = limits[planForPath(c.dataset.path)!];
    const about = {
      summary: c.summary,
      description: c.description,
      parameters: c.parameters,
      tag: CHANGES_TAG,
      schema: c.schema,
      okDescription: `The ${c.dataset.title} records changed since the version asked for.`,
      errors: [410] as const,
    };
    paths[c.path] = {
      get: operation("get", c.path, c.mediaType, c.dataset, plan, about),
      head: operation("head", c.path, c.mediaType, c.dataset, plan, about),
    };
  }

  // The directory entry, served like a document: no quota, no maintenance (decisions.md).
  paths[PARTICIPANT_STORE_PATH] = {
    get: directoryOperation("get"),
    head: directoryOperation("head"),
  };
  // The publication feed, a document too.
  if (changes.length > 0) {
    paths[FEED.path] = { get: feedOperation("get"), head: feedOperation("head") };
  }
  return { paths, near, changes };
}

/** The document's Info Object: who publishes, the APIs' versions, the plans' limits. */
function documentInfo(
  settings: OpenApiInput["settings"],
  apis: readonly ApiFamily[],
  limits: OpenApiInput["limits"],
): JsonObject {
  const plans = Object.values(limits)
    .map((l) => `- **${l.plan}**: ${describeLimit(l)}.`)
    .join("\n");
  return {
    title: `${publisherName(settings)}: open banking open data`,
    // The versions of the APIs described, so the document's bytes (and their compression,
    // cached by content) stay the same while only the data changes.
    version: apis.map((api) => api.name).join(", "),
    description: [
      "Read-only open data: branches, ATMs and products (Open Data API v2.2) and service quality",
      "metrics (Service Metrics API v1.0). Every path answers GET and HEAD, with strong ETags per",
      "content coding (identity, br, gzip; negotiated with Accept-Encoding), conditional requests",
      "(If-None-Match, If-Modified-Since; If-Match and If-Unmodified-Since as RFC 9110 has them)",
      "and CORS for any origin.",
      "",
      "Rate limits, per plan, in fixed windows aligned to the minute; a 429 carries Retry-After:",
      "",
      plans,
    ].join("\n"),
    termsOfService: settings.TermsOfUse,
    license: { name: "Open Licence", url: settings.License },
    ...(settings.Contact ? { contact: contact(settings.Contact) } : {}),
  };
}

const ERROR_SCHEMA: JsonObject = {
  description: "The error body both specs define: exactly status, title and description, all text.",
  type: "object",
  additionalProperties: false,
  required: ["status", "title", "description"],
  properties: {
    status: { type: "string", description: "The HTTP status code, as text." },
    title: { type: "string" },
    description: { type: "string" },
  },
};

const CONDITIONAL_PARAMETERS: Record<string, JsonObject> = {
  IfNoneMatch: {
    name: "If-None-Match",
    in: "header",
    required: false,
    description:
      "ETags held (RFC 9110 section 13.1.2, weak comparison): 304 when one is the current ETag of the representation this request would get.",
    schema: { type: "string" },
  },
  IfModifiedSince: {
    name: "If-Modified-Since",
    in: "header",
    required: false,
    description:
      "An HTTP-date (RFC 9110 section 13.1.3): 304 when the data set has not changed since; ignored when If-None-Match is sent or the date is malformed.",
    schema: { type: "string" },
  },
};

/** Every response header the document names, with the open-data plan's limits as examples. */
function responseHeaders(
  settings: OpenApiInput["settings"],
  limits: OpenApiInput["limits"],
): JsonObject {
  return {
    ETag: header(
      "Strong entity tag: the hex SHA-256 of exactly the bytes of this representation (each content coding has its own).",
    ),
    "Last-Modified": header("When the data set last changed (its meta.LastUpdated)."),
    "Cache-Control": header(
      `How long the response may be reused without asking again (RFC 9111 section 5.2.2.1): ${cacheControl(settings.CacheMaxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS)} for a data set, its near-me answers and the documents; ${cacheControl(CHANGES_MAX_AGE_SECONDS)} for a changes answer and the feed, which change with every publication. Revalidate with If-None-Match (in a browser, fetch with cache: "no-cache"): a 304 is free.`,
      cacheControl(settings.CacheMaxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS),
    ),
    ...Object.fromEntries(
      Object.entries(SECURITY_HEADERS).map(([name, value]) => [
        name,
        header("Security default of both specs.", value),
      ]),
    ),
    Vary: header("The representation depends on Accept-Encoding.", VARY),
    [RATE_LIMIT_HEADER]: header(
      "Quota left in the current window: the plan, r = requests remaining, t = seconds until the window resets (draft-ietf-httpapi-ratelimit-headers-10).",
      `"open-data";r=${limits["open-data"].limit - 1};t=37`,
    ),
    [RATE_LIMIT_POLICY_HEADER]: header(
      "The plan's quota: q = requests per window, w = window in seconds (draft-ietf-httpapi-ratelimit-headers-10).",
      `"open-data";q=${limits["open-data"].limit};w=${limits["open-data"].windowSeconds}`,
    ),
    "Retry-After": header("Seconds to wait before trying again."),
    [STATUS_CODE_HEADER]: header(
      "The HTTP status again (the specs' `Status Code` header, under a valid field name).",
    ),
    Allow: header("The methods the path supports.", ALLOWED_METHODS),
    "Content-Encoding": header(
      "br or gzip when a compressed variant is sent; on a 304, the coding of the variant whose ETag matched.",
    ),
    [INVALID_PARAMETER_HEADER]: header(
      `On a 400 caused by one parameter: its name and the form it wants, as an RFC 9651 String with an expected parameter; the body stays the specs' own. The forms: ${Object.entries(
        PARAMETER_FORMS,
      )
        .map(([name, form]) => `${name}: ${form}`)
        .join("; ")}.`,
      `"since";expected="${PARAMETER_FORMS.since}"`,
    ),
  };
}

// The schema file the directory entry follows.
const PARTICIPANT_STORE_SCHEMA = "participant-store.schema.json";

// GET or HEAD of /participant_store.json: like a data path's, without the quota fields.
function directoryOperation(method: "get" | "head"): JsonObject {
  return documentOperation(method, {
    id: "ParticipantStore",
    what: "the participant directory entry",
    description: "Outside the rate-limit plans, like this document.",
    tag: DIRECTORY_TAG,
    mediaType: PARTICIPANT_STORE_MEDIA_TYPE,
    schema: { $ref: componentRef(PARTICIPANT_STORE_SCHEMA) },
    ok: "This deployment as an entry of the open banking participant directory: a client composes <baseUrl>/<version>/<api>.",
  });
}

// GET or HEAD of the publication feed: a document too.
function feedOperation(method: "get" | "head"): JsonObject {
  return documentOperation(method, {
    id: "ChangesFeed",
    what: FEED.summary,
    description: FEED.description,
    tag: CHANGES_TAG,
    mediaType: FEED.mediaType,
    schema: { type: "string", description: "An Atom 1.0 feed document (RFC 4287)." },
    ok: "The publication feed, newest publication first.",
  });
}

// GET or HEAD of a document the APIs describe: like a data path's, without the quota fields.
function documentOperation(
  method: "get" | "head",
  about: {
    readonly id: string;
    readonly what: string;
    readonly description: string;
    readonly tag: string;
    readonly mediaType: string;
    readonly schema: JsonObject;
    readonly ok: string;
  },
): JsonObject {
  const headers = (names: readonly string[]) =>
    Object.fromEntries(names.map((name) => [name, ref("headers", name)]));
  const common = COMMON_200_HEADERS.filter(
    (name) => name !== RATE_LIMIT_HEADER && name !== RATE_LIMIT_POLICY_HEADER,
  );
  const ok: JsonObject = {
    description: method === "get" ? about.ok : "The headers a GET would get, without the body.",
    headers: headers([...common, "Content-Encoding"]),
  };
  if (method === "get") ok.content = { [about.mediaType]: { schema: about.schema } };
  return {
    operationId: `${method}${about.id}`,
    summary: `${method === "get" ? "Get" : "Check"} ${about.what}`,
    description: about.description,
    tags: [about.tag],
    parameters: [ref("parameters", "IfNoneMatch"), ref("parameters", "IfModifiedSince")],
    responses: {
      "200": ok,
      "304": {
        description: "Not modified (RFC 9110 section 15.4.5). No body.",
        headers: headers(common),
      },
      "404": { $ref: "#/components/responses/Error404" },
      "405": { $ref: "#/components/responses/Error405" },
      "412": { $ref: "#/components/responses/Error412" },
    },
  };
}

// site.yaml's Contact in OpenAPI's words (OpenAPI 3.1, "Contact Object").
function contact(given: NonNullable<SiteSettings["Contact"]>): JsonObject {
  return {
    ...(given.Name ? { name: given.Name } : {}),
    ...(given.Url ? { url: given.Url } : {}),
    ...(given.Email ? { email: given.Email } : {}),
  };
}

function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

const COMMON_200_HEADERS = [
  "ETag",
  "Last-Modified",
  "Cache-Control",
  ...Object.keys(SECURITY_HEADERS),
  "Vary",
  RATE_LIMIT_HEADER,
  RATE_LIMIT_POLICY_HEADER,
];

function operation(
  method: "get" | "head",
  path: string,
  mediaType: string,
  dataset: DatasetDefinition,
  plan: PlanLimit,
  /** For an extension path: what it selects, its own parameters, tag, body schema and errors. */
  near?: {
    readonly summary: string;
    readonly description: string;
    readonly parameters: readonly JsonObject[];
    readonly tag?: string;
    readonly schema?: string;
    readonly okDescription?: string;
    readonly errors?: readonly ErrorStatus[];
  },
): JsonObject {
  const headers = (names: readonly string[]) =>
    Object.fromEntries(names.map((name) => [name, ref("headers", name)]));
  const ok: JsonObject = {
    description:
      method === "get"
        ? near
          ? (near.okDescription ??
            `The ${dataset.title} data set's envelope, holding only the records asked for.`)
          : `The ${dataset.title} data set.`
        : `The headers a GET would get, Content-Length included, without the body (RFC 9110 section 9.3.2).`,
    headers: headers([...COMMON_200_HEADERS, "Content-Encoding"]),
  };
  if (method === "get") {
    const schema = near?.schema ?? componentRef(dataset.envelopeSchema);
    ok.content = { [mediaType]: { schema: { $ref: schema } } };
  }
  return {
    operationId: operationId(method, path),
    summary: `${method === "get" ? "Get" : "Check"} ${near ? near.summary : dataset.title}`,
    description: `${near ? `${near.description} ` : ""}Rate limit (plan ${plan.plan}): ${describeLimit(plan)}.`,
    // The API the data set belongs to, under whichever path and media type it is served.
    tags: [near ? (near.tag ?? NEAR_TAG) : dataset.api.name],
    parameters: [
      ...(near?.parameters ?? []),
      ref("parameters", "IfNoneMatch"),
      ref("parameters", "IfModifiedSince"),
    ],
    responses: {
      "200": ok,
      "304": {
        description:
          "Not modified: the representation is unchanged (RFC 9110 section 15.4.5). Every field the 200 would carry but Content-Length, Content-Type and the matched variant's Content-Encoding included; no body. Not counted against the quota.",
        headers: headers([...COMMON_200_HEADERS, "Content-Encoding"]),
      },
      ...Object.fromEntries(
        [...DOCUMENTED_ERRORS, ...(near?.errors ?? [])]
          .sort()
          .map((status) => [String(status), ref("responses", `Error${status}`)]),
      ),
    },
  };
}

// Fields each error adds to the common ones (docs/consumers.md#the-apis).
const ERROR_HEADERS: Partial<Record<ErrorStatus, readonly string[]>> = {
  400: [INVALID_PARAMETER_HEADER],
  405: ["Allow"],
  429: ["Retry-After", RATE_LIMIT_HEADER, RATE_LIMIT_POLICY_HEADER],
  503: ["Retry-After"],
};

function errorResponse(status: ErrorStatus): JsonObject {
  const { title, description } = ERRORS[status];
  const names = [
    STATUS_CODE_HEADER,
    ...Object.keys(SECURITY_HEADERS),
    ...(ERROR_HEADERS[status] ?? []),
  ];
  // Causes that share the status, with their own description in the same shape.
  const causes = Object.values(ERROR_CAUSES)
    .filter((cause) => cause.status === status)
    .map((cause) => ` Or, with the same title: "${cause.description}"`)
    .join("");
  return {
    description: `${title}. Never cached (Cache-Control: ${ERROR_CACHE_CONTROL}).${causes}`,
    headers: Object.fromEntries(names.map((name) => [name, ref("headers", name)])),
    content: {
      [ERROR_MEDIA_TYPE]: {
        schema: ref("schemas", "Error"),
        example: { status: String(status), title, description },
      },
    },
  };
}
