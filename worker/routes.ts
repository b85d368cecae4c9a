/**
 * The only paths served: exactly the manifest's, compared byte for byte. No normalisation is done
 * here on purpose: another letter case, a trailing slash, a `.json` file name, doubled or
 * percent-encoded slashes all miss the map and get 404.
 */
import {
  MANIFEST_FORMAT_VERSION,
  type ContentCoding,
  type Manifest,
  type ServedFile,
} from "../contract/manifest.js";
import { planForPath, type PlanId } from "../contract/rate-limits.js";
import { CODING_PREFERENCE } from "./http/encoding.js";
import { DOCUMENT_HEADERS } from "../contract/headers.js";

/** What the Worker needs to answer a path. */
export interface Route {
  readonly entry: ServedFile;
  /**
   * The rate-limit plan the path is counted under; null for the documents about the APIs, which
   * are neither rate-limited nor switched off by maintenance (docs/decisions.md#the-documents-count-against-no-rate-limit-plan).
   */
  readonly plan: PlanId | null;
  /** Codings the build stored for it, in CODING_PREFERENCE order. */
  readonly codings: readonly ContentCoding[];
  /** What log lines call it: the data set's id, or a document's path. */
  readonly name: string;
  /** Fields a 200 carries besides the data set's (the documents' Content-Security-Policy). */
  readonly extraHeaders: Readonly<Record<string, string>>;
}

/**
 * Path to route, for every data set, each of its aliases, and every document of the manifest. Throws on a manifest the Worker
 * cannot serve, so a broken build fails at start-up (and at deploy) rather than on some later
 * request.
 */
export function routeTable(manifest: Manifest): ReadonlyMap<string, Route> {
  if (manifest?.formatVersion !== MANIFEST_FORMAT_VERSION || !Array.isArray(manifest.datasets)) {
    throw new Error(
      `dist/manifest.json is not a format-${MANIFEST_FORMAT_VERSION} manifest; run npm run build`,
    );
  }
  const routes = new Map<string, Route>();
  const add = (entry: ServedFile, route: Omit<Route, "entry" | "codings">) => {
    if (routes.has(entry.path)) throw new Error(`${entry.path} is listed twice in the manifest`);
    const codings = CODING_PREFERENCE.filter((coding) => entry.variants[coding] !== undefined);
    routes.set(entry.path, { entry, codings, ...route });
  };
  for (const entry of manifest.datasets) {
    const plan = planForPath(entry.path);
    if (plan === undefined) throw new Error(`no rate-limit plan covers ${entry.path}`);
    add(entry, { plan, name: entry.dataset, extraHeaders: {} });
    // An alias is one more key to the same variants and ETags, with its own Content-Type. It
    // keeps the canonical path's plan: the counter key names the plan, never the path, so a
    // client alternating /std/ and /open-banking/ spends one quota.
    for (const alias of entry.aliases) {
      add(
        { ...entry, path: alias.path, mediaType: alias.mediaType },
        { plan, name: entry.dataset, extraHeaders: {} },
      );
    }
  }
  for (const entry of manifest.documents) {
    add(entry, { plan: null, name: entry.path, extraHeaders: DOCUMENT_HEADERS });
  }
  return routes;
}
