/**
 * The near-me extension paths in /openapi.json: one path per data set, filter and prefix the
 * manifest's `near` list gives, with its parameters, so a generated client can call them.
 */
import {
  NEAR_OPEN_BANKING_PREFIX,
  NEAR_PREFIX,
  NEAR_STANDARD_PREFIX,
  POSTCODE_RADIUS_MILES,
  RADIUS_MILES,
  type NearEntry,
  type NearFilter,
} from "../../../contract/near.js";
import type { ManifestEntry } from "../../../contract/manifest.js";
import type { DatasetDefinition } from "../../core/datasets.js";
import type { JsonObject } from "../../core/json-value.js";

/** The tag of the extension paths, and what it says. */
export const NEAR_TAG = "Near me (extension)";
export const NEAR_TAG_DESCRIPTION =
  "Filtered views of branches, ATMs and products (HSBC's extension endpoints): the data set's own envelope holding only the records asked for. Answers are made per request and sent uncompressed, each with a strong ETag of its own.";

/** One extension path as the document describes it. */
export interface NearPath {
  readonly path: string;
  readonly mediaType: string;
  readonly dataset: DatasetDefinition;
  readonly summary: string;
  readonly description: string;
  /** Parameter objects or references, path parameters first. */
  readonly parameters: readonly JsonObject[];
}

const ref = (name: string): JsonObject => ({ $ref: `#/components/parameters/${name}` });

/** The shared parameters of the extension paths, for components.parameters. */
export const NEAR_PARAMETERS: Readonly<Record<string, JsonObject>> = {
  NearLatitude: {
    name: "latitude",
    in: "path",
    required: true,
    description: "Latitude in decimal degrees, -90 to 90 (no exponent, no plus sign).",
    schema: { type: "number", minimum: -90, maximum: 90 },
  },
  NearLongitude: {
    name: "longitude",
    in: "path",
    required: true,
    description: "Longitude in decimal degrees, -180 to 180 (no exponent, no plus sign).",
    schema: { type: "number", minimum: -180, maximum: 180 },
  },
  NearRadius: {
    name: "radius",
    in: "query",
    required: false,
    description: `Radius in miles, ${RADIUS_MILES.min} to ${RADIUS_MILES.max}.`,
    schema: {
      type: "number",
      minimum: RADIUS_MILES.min,
      maximum: RADIUS_MILES.max,
      default: RADIUS_MILES.default,
    },
  },
  NearCountry: {
    name: "country",
    in: "path",
    required: true,
    description: "An ISO 3166-1 alpha-2 country code, in any letter case.",
    schema: { type: "string", pattern: "^[A-Za-z]{2}$", example: "GB" },
  },
  NearTown: {
    name: "town",
    in: "path",
    required: true,
    description: "A town name, compared in any letter case.",
    schema: { type: "string", minLength: 1 },
  },
  NearPostcode: {
    name: "postcode",
    in: "path",
    required: true,
    description:
      "A full UK postcode, letters and digits only (no space). 404 when it cannot be placed.",
    schema: { type: "string", pattern: "^[A-Za-z0-9]{5,7}$", example: "SW1A1AA" },
  },
  NearSortcode: {
    name: "sortcode",
    in: "path",
    required: true,
    description: "A sort code, six digits.",
    schema: { type: "string", pattern: "^[0-9]{6}$" },
  },
};

// Per filter: the paths after the data set's name, their summaries and parameters.
function filterPaths(
  filter: NearFilter,
  title: string,
  segments: readonly string[],
): { tail: string; summary: string; description: string; parameters: JsonObject[] }[] {
  switch (filter) {
    case "geo-location":
      return [
        {
          tail: "/geo-location/lat/{latitude}/long/{longitude}",
          summary: `${title} near a point`,
          description: "The records within the radius of the point, nearest first.",
          parameters: [ref("NearLatitude"), ref("NearLongitude"), ref("NearRadius")],
        },
      ];
    case "postcode":
      return [
        {
          tail: "/postcode/{postcode}",
          summary: `${title} near a postcode`,
          description: `The records within ${POSTCODE_RADIUS_MILES} miles of the postcode, nearest first.`,
          parameters: [ref("NearPostcode")],
        },
      ];
    case "country":
      return [
        {
          tail: "/country/{country}",
          summary: `${title} in a country`,
          description: "The records in the country, in publication order.",
          parameters: [ref("NearCountry")],
        },
        {
          tail: "/country/{country}/town/{town}",
          summary: `${title} in a town`,
          description: "The records in the town of the country, in publication order.",
          parameters: [ref("NearCountry"), ref("NearTown")],
        },
      ];
    case "sortcode":
      return [
        {
          tail: "/sortcode/{sortcode}",
          summary: `${title} with a sort code`,
          description: "The branches with the sort code, in publication order.",
          parameters: [ref("NearSortcode")],
        },
      ];
    case "segment":
      return [
        {
          tail: "/segment/{segment}",
          summary: `${title} for a segment`,
          description: "The products aimed at the segment, in publication order.",
          parameters: [
            {
              name: "segment",
              in: "path",
              required: true,
              description: "One of the data set's Segment codes, in any letter case.",
              schema: { type: "string", enum: [...segments] },
            },
          ],
        },
      ];
  }
}

/** Every extension path of the data sets `near` lists, under each prefix each is served at. */
export function nearPaths(
  datasets: readonly { readonly dataset: DatasetDefinition; readonly entry: ManifestEntry }[],
  near: readonly NearEntry[],
): NearPath[] {
  const paths: NearPath[] = [];
  for (const n of near) {
    const found = datasets.find(({ entry }) => entry.dataset === n.dataset);
    if (!found) continue;
    const { dataset, entry } = found;
    const name = entry.path.slice(NEAR_STANDARD_PREFIX.length);
    const prefixes: [string, string][] = [[NEAR_PREFIX, entry.mediaType]];
    const alias = entry.aliases.find((a) => a.path === `/open-banking/v2.2/${name}`);
    if (alias) prefixes.push([NEAR_OPEN_BANKING_PREFIX, alias.mediaType]);
    for (const [prefix, mediaType] of prefixes) {
      for (const filter of n.filters) {
        for (const p of filterPaths(filter, dataset.title, n.segments)) {
          paths.push({ ...p, path: prefix + name + p.tail, mediaType, dataset });
        }
      }
    }
  }
  return paths;
}
