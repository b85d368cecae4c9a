/**
 * The extension paths, parsed: which data set, which filter, and its parameters checked and
 * normalised, as a pure function of the path, the query string and the routes. A path of the
 * wrong shape is 404; a parameter out of range is 400 (the spec's 400 body).
 */
import type { Manifest, ManifestEntry } from "../../contract/manifest.js";
import {
  NEAR_OPEN_BANKING_PREFIX,
  NEAR_PREFIX,
  NEAR_STANDARD_PREFIX,
  RADIUS_MILES,
  type NearEntry,
  type NearFilter,
} from "../../contract/near.js";
import { countryCode, normaliseName, postcodeKeys } from "../../contract/place.js";
import { PARAMETER_FORMS, type Parameter } from "../../contract/errors.js";
import { DEFAULT_MAX_AGE_SECONDS } from "../../contract/headers.js";
import { planForPath, type PlanId } from "../../contract/rate-limits.js";
import type { ParameterProblem } from "../http/representation.js";
import type { Asked } from "../outcome.js";

/** What the Worker needs to answer one data set's extension paths under one prefix. */
export interface NearRoute {
  readonly entry: ManifestEntry;
  readonly near: NearEntry;
  /** Content-Type: the data set's, or its alias's under /x-open-banking/. */
  readonly mediaType: string;
  /** The data set's own plan: one quota whichever path a client uses. */
  readonly plan: PlanId;
  /** The data set's Cache-Control max-age, which its slices follow. */
  readonly maxAge: number;
  /** What a request to it asks for (outcome.ts), by filter: the data set's near-me slices. */
  readonly asked: Readonly<Record<NearFilter, Asked>>;
}

/** A filter with its parameters, normalised. */
export type NearQuery =
  | { readonly filter: "country"; readonly country: string; readonly town?: string }
  | {
      readonly filter: "geo-location";
      readonly latitude: number;
      readonly longitude: number;
      readonly radius: number;
    }
  | {
      readonly filter: "postcode";
      readonly unit: string;
      readonly sector: string;
      readonly district: string;
    }
  | { readonly filter: "sortcode"; readonly sortcode: string }
  | { readonly filter: "segment"; readonly segment: string };

/**
 * A matched extension path: its route, its filter, and its query or "bad" (400), with, when bad,
 * the parameter at fault and the form it wants.
 */
export interface NearMatch {
  readonly route: NearRoute;
  readonly filter: NearFilter;
  readonly query: NearQuery | "bad";
  readonly problem?: ParameterProblem;
}

/**
 * `/x-std/v2.2/<name>` (and `/x-open-banking/v2.2/<name>` for a data set with a v2.2 alias) to
 * route, for every data set the manifest gives an index.
 */
export function nearRoutes(manifest: Manifest): ReadonlyMap<string, NearRoute> {
  const routes = new Map<string, NearRoute>();
  const maxAge = manifest.cacheMaxAge ?? DEFAULT_MAX_AGE_SECONDS;
  for (const near of manifest.near ?? []) {
    const entry = manifest.datasets.find((d) => d.dataset === near.dataset);
    const plan = entry && planForPath(entry.path);
    if (!entry || !plan || !entry.path.startsWith(NEAR_STANDARD_PREFIX)) {
      throw new Error(`dist/manifest.json indexes ${near.dataset}, which it does not serve`);
    }
    const name = entry.path.slice(NEAR_STANDARD_PREFIX.length);
    // One Asked per filter the data set answers (matchNear takes no other), made here once.
    const asked = Object.fromEntries(
      near.filters.map((filter) => [filter, { kind: "near", name: near.dataset, detail: filter }]),
    ) as Record<NearFilter, Asked>;
    routes.set(NEAR_PREFIX + name, {
      entry,
      near,
      mediaType: entry.mediaType,
      plan,
      maxAge,
      asked,
    });
    for (const alias of entry.aliases) {
      if (alias.path === `/open-banking/v2.2/${name}`) {
        routes.set(NEAR_OPEN_BANKING_PREFIX + name, {
          entry,
          near,
          mediaType: alias.mediaType,
          plan,
          maxAge,
          asked,
        });
      }
    }
  }
  return routes;
}

// A decimal number as the paths write coordinates: optional minus, digits, optional fraction.
// No exponent, no plus sign, no NaN or Infinity: those are not "a number" a consumer means.
const DECIMAL = /^-?\d{1,3}(?:\.\d{1,15})?$/;
const RADIUS = /^\d{1,2}(?:\.\d{1,15})?$/;
const SORTCODE = /^\d{6}$/;
// A postcode as people write it: letters and digits, with a space (percent-encoded) or none.
const POSTCODE_AS_TYPED = /^[A-Za-z0-9]+(?: [A-Za-z0-9]+)?$/;

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function coordinate(text: string, limit: number): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const n = Number(text);
  return Math.abs(n) <= limit ? n : undefined;
}

/**
 * The extension path `pathname` (with `search`, its query string) matches, or undefined when it is
 * not one (404). A filter the data set does not offer, or a path with the wrong number of
 * segments, is not one either.
 */
export function matchNear(
  pathname: string,
  search: URLSearchParams,
  routes: ReadonlyMap<string, NearRoute>,
): NearMatch | undefined {
  const prefix = pathname.startsWith(NEAR_PREFIX)
    ? NEAR_PREFIX
    : pathname.startsWith(NEAR_OPEN_BANKING_PREFIX)
      ? NEAR_OPEN_BANKING_PREFIX
      : undefined;
  if (!prefix) return undefined;
  const [name, filter, ...rest] = pathname.slice(prefix.length).split("/");
  const route = routes.get(prefix + name);
  if (!route || filter === undefined || !route.near.filters.includes(filter as never)) {
    return undefined;
  }
  const shape = (...words: (string | null)[]) =>
    rest.length === words.length && words.every((w, i) => w === null || rest[i] === w);
  const match = (query: NearQuery | undefined): NearMatch | undefined =>
    query === undefined ? undefined : { route, filter: filter as NearFilter, query };
  const bad = (parameter: Parameter, form: string = PARAMETER_FORMS[parameter]): NearMatch => ({
    route,
    filter: filter as NearFilter,
    query: "bad",
    problem: { parameter, form },
  });
  switch (filter) {
    case "country": {
      if (!shape(null) && !shape(null, "town", null)) return undefined;
      const country = countryCode(rest[0]!);
      if (country === undefined) return bad("country");
      if (rest.length === 1) return match({ filter, country });
      const town = decode(rest[2]!);
      if (town === undefined || normaliseName(town) === "") return bad("town");
      return match({ filter, country, town: normaliseName(town) });
    }
    case "geo-location": {
      if (!shape("lat", null, "long", null)) return undefined;
      const latitude = coordinate(rest[1]!, 90);
      const longitude = coordinate(rest[3]!, 180);
      const radii = search.getAll("radius");
      const radius = radii.length === 0 ? RADIUS_MILES.default : Number(radii[0]);
      if (latitude === undefined) return bad("lat");
      if (longitude === undefined) return bad("long");
      if (
        radii.length > 1 ||
        (radii.length === 1 && !RADIUS.test(radii[0]!)) ||
        !(radius >= RADIUS_MILES.min && radius <= RADIUS_MILES.max)
      ) {
        return bad("radius");
      }
      return match({ filter, latitude, longitude, radius });
    }
    case "postcode": {
      if (!shape(null)) return undefined;
      // As typed: `WX1%204AB` (its space encoded), `WX14AB` or `wx14ab` ask the same
      // (postcodeKeys folds case and spaces), and so share one answer and one ETag.
      const postcode = decode(rest[0]!);
      const keys =
        postcode !== undefined && POSTCODE_AS_TYPED.test(postcode)
          ? postcodeKeys(postcode)
          : undefined;
      return keys ? match({ filter, ...keys }) : bad("postcode");
    }
    case "sortcode": {
      if (!shape(null)) return undefined;
      return SORTCODE.test(rest[0]!) ? match({ filter, sortcode: rest[0]! }) : bad("sortcode");
    }
    case "segment": {
      if (!shape(null)) return undefined;
      const wanted = rest[0]!.toLowerCase();
      const segment = route.near.segments.find((s) => s.toLowerCase() === wanted);
      if (segment) return match({ filter, segment });
      return bad("segment", `${PARAMETER_FORMS.segment}: ${route.near.segments.join(", ")}`);
    }
    default:
      return undefined;
  }
}

/**
 * The query as one short string, the same for every spelling of the same question ("GB" and
 * "gb", "51.50740" and "51.5074", no radius and radius=1): part of the answer's ETag. Only
 * characters an entity tag allows (RFC 9110 section 8.8.3).
 */
export function queryKey(query: NearQuery): string {
  switch (query.filter) {
    case "country":
      return query.town === undefined
        ? `country/${query.country}`
        : `country/${query.country}/town/${encodeURIComponent(query.town)}`;
    case "geo-location":
      return `geo-location/${query.latitude}/${query.longitude}/${query.radius}`;
    case "postcode":
      return `postcode/${query.unit}`;
    case "sortcode":
      return `sortcode/${query.sortcode}`;
    case "segment":
      return `segment/${query.segment}`;
  }
}
