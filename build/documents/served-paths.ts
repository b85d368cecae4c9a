/**
 * Every URL path a data set is served under, named once for the documents that describe them
 * (/openapi.json and the landing page), so a data set served under more than one path is
 * described under each of them.
 */
import type { ManifestAlias, ManifestEntry } from "../../contract/manifest.js";

/** One path a data set is served under, with the media type sent there. */
export type ServedPath = ManifestAlias;

/** The paths `entry` is served under: its own first, then its /open-banking/ aliases. */
export function servedPaths(entry: ManifestEntry): readonly ServedPath[] {
  return [{ path: entry.path, mediaType: entry.mediaType }, ...entry.aliases];
}
