/**
 * The only paths served: exactly the manifest's, compared byte for byte. No normalisation is done
 * here on purpose: another letter case, a trailing slash, a `.json` file name, doubled or
 * percent-encoded slashes all miss the map and get 404.
 */
import type { ContentCoding, Manifest, ManifestEntry } from "../build/manifest.js";
import { planForPath, type PlanId } from "./config.js";
import { CODING_PREFERENCE } from "./encoding.js";

/** What the Worker needs to answer a data path. */
export interface Route {
  readonly entry: ManifestEntry;
  /** The rate-limit plan the path is counted under. */
  readonly plan: PlanId;
  /** Codings the build stored for it, in CODING_PREFERENCE order. */
  readonly codings: readonly ContentCoding[];
}

/**
 * Path to route, for every data set of the manifest and each of its aliases. Throws on a manifest the Worker cannot serve,
 * so a broken build fails at start-up (and at deploy) rather than on some later request.
 */
export function buildRoutes(manifest: Manifest): ReadonlyMap<string, Route> {
  if (manifest?.formatVersion !== 1 || !Array.isArray(manifest.datasets)) {
    throw new Error("dist/manifest.json is not a format-1 manifest; run `npm run build`");
  }
  const routes = new Map<string, Route>();
  for (const entry of manifest.datasets) {
    const plan = planForPath(entry.path);
    if (plan === undefined) throw new Error(`no rate-limit plan covers ${entry.path}`);
    if (routes.has(entry.path)) throw new Error(`${entry.path} is listed twice in the manifest`);
    const codings = CODING_PREFERENCE.filter((coding) => entry.variants[coding] !== undefined);
    routes.set(entry.path, { entry, plan, codings });
    // An alias is one more key to the same variants and ETags, with its own Content-Type. It
    // keeps the canonical path's plan: the counter key names the plan, never the path, so a
    // client alternating /std/ and /open-banking/ spends one quota.
    for (const alias of entry.aliases) {
      if (routes.has(alias.path)) throw new Error(`${alias.path} is listed twice in the manifest`);
      routes.set(alias.path, { entry: { ...entry, mediaType: alias.mediaType }, plan, codings });
    }
  }
  return routes;
}
