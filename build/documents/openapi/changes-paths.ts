/**
 * The changes endpoints and the publication feed in /openapi.json: one path per data set (and
 * per alias) the manifest's `changes` lists, with its `since` parameter and its own answer schema
 * (the data set's envelope with meta.Since, and per brand its records and `Removed`), so a
 * generated client reads a change answer under strict types.
 */
import type { AnySchemaObject } from "ajv";
import type { ChangesEntry } from "../../../contract/manifest.js";
import {
  CHANGES_FEED_MEDIA_TYPE,
  CHANGES_FEED_PATH,
  ETAG_TOKEN,
  LAST_UPDATED_TOKEN,
  REMOVED_FIELD,
  SINCE_FIELD,
  SINCE_PARAMETER,
} from "../../../contract/changes.js";
import type { DatasetDefinition } from "../../core/datasets.js";
import { componentName } from "./components.js";
import type { JsonObject } from "../../core/json-value.js";

/** The tag of the changes endpoints and the feed, and what it says. */
export const CHANGES_TAG = "Changes (extension)";
export const CHANGES_TAG_DESCRIPTION =
  "What changed since a version a consumer holds: every record added or changed, whole, and the Identifications removed (in the service metrics, every brand added or changed, whole, and the brands removed), so a copy stays in sync without downloading the whole list. Answers are stored at build time like the data (ETag, 304, br and gzip). The feed lists each publication.";

const COMPONENTS = "#/components/schemas/";

/** The `since` parameter, for components.parameters. */
export const CHANGES_PARAMETERS: Readonly<Record<string, JsonObject>> = {
  ChangesSince: {
    name: SINCE_PARAMETER,
    in: "query",
    required: true,
    description:
      "The version you hold: its meta.LastUpdated (RFC 3339, whole seconds, Z) or the ETag of its body in any coding, without the quotes. A version older than those kept, or unknown, gets 410: fetch the full list.",
    schema: {
      type: "string",
      // Either token: the two patterns of contract/changes.ts, unanchored and joined.
      pattern: `^(?:${ETAG_TOKEN.source.slice(1, -1)}|${LAST_UPDATED_TOKEN.source.slice(1, -1)})$`,
      example: "2026-11-21T10:00:00Z",
    },
  },
};

/** One changes path as the document describes it. */
export interface ChangesPath {
  readonly path: string;
  readonly mediaType: string;
  readonly dataset: DatasetDefinition;
  readonly summary: string;
  readonly description: string;
  readonly parameters: readonly JsonObject[];
  /** The `$ref` of its 200 body. */
  readonly schema: string;
}

/** The component name of a data set's change answer: `atms-changes`. */
function changesComponent(dataset: DatasetDefinition): string {
  return `${componentName(dataset.envelopeSchema)}-changes`;
}

/** Every changes path the manifest lists, with its aliases. */
export function changesPaths(
  datasets: readonly { readonly dataset: DatasetDefinition }[],
  changes: readonly ChangesEntry[],
): ChangesPath[] {
  const paths: ChangesPath[] = [];
  for (const entry of changes) {
    const dataset = datasets.find((d) => d.dataset.id === entry.dataset)?.dataset;
    if (!dataset) continue;
    for (const { path, mediaType } of [entry, ...entry.aliases]) {
      paths.push({
        path,
        mediaType,
        dataset,
        summary: `${dataset.title} changed since a version`,
        description:
          dataset.recordsKey === null
            ? `Every brand added or changed since the version named by \`since\`, whole and exactly as in the full list (a brand's metrics are its one record), and each brand removed as its BrandName with \`${REMOVED_FIELD}\` true. Apply it to that version: drop each brand named, add each brand listed whole. Since the current version, nothing is listed.`
            : `Every ${dataset.recordNoun} record added or changed since the version named by \`since\`, whole and exactly as in the full list, and per brand the Identifications removed (\`${REMOVED_FIELD}\`). Apply it to that version: drop each Identification removed or listed, add each record listed. Since the current version, nothing is listed.`,
        parameters: [{ $ref: "#/components/parameters/ChangesSince" }],
        schema: COMPONENTS + changesComponent(dataset),
      });
    }
  }
  return paths;
}

/**
 * The schemas of the change answers: `ChangesMeta` (the envelope's meta with Since after
 * LastUpdated) and one answer per data set, whose records are the data set's own record schema.
 * `components` are the document's converted schemas, which hold the meta and the records.
 */
export function changesSchemas(
  datasets: readonly DatasetDefinition[],
  schemas: ReadonlyMap<string, AnySchemaObject>,
  components: Readonly<Record<string, AnySchemaObject>>,
): Record<string, AnySchemaObject> {
  if (datasets.length === 0) return {};
  const meta = components["common.Meta"] as {
    properties: Record<string, unknown>;
    required: string[];
  };
  const { LastUpdated, ...rest } = meta.properties;
  const out: Record<string, AnySchemaObject> = {
    ChangesMeta: {
      ...meta,
      description:
        "The meta of a change answer: the data set's, with Since (the version the changes are since) after LastUpdated (the current version's), and TotalResults counting the records listed and the Identifications removed.",
      required: ["LastUpdated", SINCE_FIELD, ...meta.required.filter((r) => r !== "LastUpdated")],
      properties: {
        LastUpdated,
        [SINCE_FIELD]: {
          description: "The meta.LastUpdated of the version the changes are since.",
          $ref: `${COMPONENTS}common.DateTime`,
        },
        ...rest,
      },
    },
  };
  for (const dataset of datasets) {
    out[changesComponent(dataset)] =
      dataset.recordsKey === null ? brandChangesSchema(dataset) : answerSchema(dataset, schemas);
  }
  return out;
}

/** A v2.2 data set's change answer: its brands with a change, their records and removals. */
function answerSchema(
  dataset: DatasetDefinition,
  schemas: ReadonlyMap<string, AnySchemaObject>,
): AnySchemaObject {
  const key = dataset.recordsKey!;
  const brand = schemas.get(dataset.brandSchema) as {
    properties: Record<string, { items: { $ref: string } }>;
  };
  const itemRef = brand.properties[key]!.items.$ref;
  const record = `${COMPONENTS}${componentName(dataset.brandSchema)}.${itemRef.replace("#/definitions/", "")}`;
  return changesEnvelope(
    `A change answer of ${dataset.title}: the brands with a change, each with its ${key} records added or changed and the Identifications removed.`,
    {
      type: "object",
      additionalProperties: false,
      required: ["BrandName"],
      properties: {
        BrandName: { $ref: `${COMPONENTS}common.Max140Text` },
        [key]: {
          description: "Each record added or changed, whole, exactly as in the full list.",
          type: "array",
          minItems: 1,
          items: { $ref: record },
        },
        [REMOVED_FIELD]: {
          description: "The Identification of each record removed.",
          type: "array",
          minItems: 1,
          items: { type: "string" },
        },
      },
    },
  );
}

/**
 * A service metrics change answer: each brand added or changed, whole (the brand object is the
 * record), and each brand removed as its BrandName with Removed true.
 */
function brandChangesSchema(dataset: DatasetDefinition): AnySchemaObject {
  return changesEnvelope(
    `A change answer of ${dataset.title}: each brand added or changed, whole and exactly as in the full list, and each brand removed as its BrandName with ${REMOVED_FIELD} true.`,
    {
      anyOf: [
        { $ref: `${COMPONENTS}${componentName(dataset.brandSchema)}` },
        {
          type: "object",
          additionalProperties: false,
          required: ["BrandName", REMOVED_FIELD],
          properties: {
            BrandName: { $ref: `${COMPONENTS}common.Max140Text` },
            [REMOVED_FIELD]: { description: "The brand is no longer published.", const: true },
          },
        },
      ],
    },
  );
}

/** Every change answer's envelope: meta, and at most one data item listing the brands changed. */
function changesEnvelope(description: string, brand: AnySchemaObject): AnySchemaObject {
  return {
    description,
    type: "object",
    additionalProperties: false,
    required: ["meta", "data"],
    properties: {
      meta: { $ref: `${COMPONENTS}ChangesMeta` },
      data: {
        description: "Empty when nothing changed; otherwise one item holding the brands.",
        type: "array",
        maxItems: 1,
        items: {
          type: "object",
          additionalProperties: false,
          required: ["Brand"],
          properties: {
            Brand: {
              description: "The brands with a change.",
              type: "array",
              minItems: 1,
              items: brand,
            },
          },
        },
      },
    },
  };
}

/** The feed's path, its media type and what the document says of it. */
export const FEED = {
  path: CHANGES_FEED_PATH,
  mediaType: CHANGES_FEED_MEDIA_TYPE,
  summary: "the publication feed",
  description:
    "An Atom 1.0 feed (RFC 4287) with one entry per publication of a data set, newest first, at most 100: how many records it added, changed and removed against the publication before, a few of them named, and a link to the changes since that one. Outside the rate-limit plans, like this document.",
} as const;
