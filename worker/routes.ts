/**
 * The only paths served: exactly the manifest's, compared byte for byte. No normalisation is done
 * here on purpose: another letter case, a trailing slash, a `.json` file name, doubled or
 * percent-encoded slashes all miss the map and get 404.
 */
import { MANIFEST_FORMAT_VERSION, type Manifest, type ServedFile } from "../contract/manifest.js";
import { planForPath, type PlanId } from "../contract/rate-limits.js";
import { CHANGES_FEED_PATH } from "../contract/changes.js";
import {
  CHANGES_MAX_AGE_SECONDS,
  DEFAULT_MAX_AGE_SECONDS,
  DOCUMENT_HEADERS,
} from "../contract/headers.js";
import { CODING_PREFERENCE } from "./http/encoding.js";
import type { Representation } from "./http/representation.js";
import type { Asked } from "./outcome.js";

/**
 * Path to representation, for every data set, each of its aliases, and every document of the
 * manifest, made once per isolate. Throws on a manifest the Worker cannot serve, so a broken
 * build fails at start-up (and at deploy) rather than on some later request.
 */
export function routeTable(manifest: Manifest): ReadonlyMap<string, Representation> {
  // Checked through a view that trusts nothing: the manifest is JSON another build may have written.
  const written: { formatVersion?: unknown; datasets?: unknown } | undefined = manifest;
  if (written?.formatVersion !== MANIFEST_FORMAT_VERSION || !Array.isArray(written.datasets)) {
    throw new Error(
      `dist/manifest.json is not a format-${MANIFEST_FORMAT_VERSION} manifest; run npm run build`,
    );
  }
  const routes = new Map<string, Representation>();
  const maxAge = manifest.cacheMaxAge ?? DEFAULT_MAX_AGE_SECONDS;
  const add = (
    entry: ServedFile,
    asked: Asked,
    plan: PlanId | null,
    headers: Representation["headers"],
  ) => {
    if (routes.has(entry.path)) throw new Error(`${entry.path} is listed twice in the manifest`);
    const codings = CODING_PREFERENCE.filter((coding) => entry.variants[coding] !== undefined);
    routes.set(entry.path, {
      asked,
      plan,
      mediaType: entry.mediaType,
      lastModified: entry.lastModified,
      lastModifiedMs: entry.lastModifiedMs,
      // The feed changes with every publication, as the changes answers do.
      maxAge: entry.path === CHANGES_FEED_PATH ? CHANGES_MAX_AGE_SECONDS : maxAge,
      headers,
      body: { kind: "stored", variants: entry.variants, codings },
    });
  };
  for (const entry of manifest.datasets) {
    const plan = planForPath(entry.path);
    if (plan === undefined) throw new Error(`no rate-limit plan covers ${entry.path}`);
    add(entry, { kind: "dataset", name: entry.dataset, detail: "" }, plan, []);
    // An alias is one more key to the same variants and ETags, with its own Content-Type. It
    // keeps the canonical path's plan: the counter key names the plan, never the path, so a
    // client alternating /std/ and /open-banking/ spends one quota.
    const asAlias: Asked = { kind: "dataset", name: entry.dataset, detail: "alias" };
    for (const alias of entry.aliases) {
      add({ ...entry, path: alias.path, mediaType: alias.mediaType }, asAlias, plan, []);
    }
  }
  const documentHeaders = Object.entries(DOCUMENT_HEADERS);
  for (const entry of manifest.documents) {
    add(entry, { kind: "document", name: entry.path, detail: "" }, null, documentHeaders);
  }
  return routes;
}
