/**
 * Step 10 for a build with Sites (docs/decisions.md#sites): each site's files under its own
 * folder of dist/ (`sites/<name>/`), its manifest's asset paths with them, and the one manifest
 * the Worker imports, which holds every site's with the host it answers.
 */
import {
  MANIFEST_FILE,
  MANIFEST_FORMAT_VERSION,
  siteFolder,
  type Manifest,
  type SiteEntry,
} from "../../contract/manifest.js";
import type { AssetFile } from "./asset-limits.js";
import type { OutputFile } from "./atomic.js";

/** One site as built: what it serves, its files and their sizes, all as if it were dist/ alone. */
export interface BuiltSite {
  readonly name: string;
  readonly host: string;
  readonly manifest: Manifest;
  /** Its files, the manifest among them, paths relative to its own root. */
  readonly files: readonly OutputFile[];
  /** The same files with their sizes, for the platform's limits. */
  readonly assets: readonly AssetFile[];
}

/**
 * Every site's files moved under its folder, and the manifest that lists the sites: its own data
 * sets and documents empty, so a host no site names finds nothing (404).
 */
export function sitesOutput(sites: readonly BuiltSite[]): {
  manifest: Manifest;
  files: OutputFile[];
  assets: AssetFile[];
} {
  const entries: SiteEntry[] = [];
  const files: OutputFile[] = [];
  const assets: AssetFile[] = [];
  for (const site of sites) {
    const folder = siteFolder(site.name);
    entries.push({ name: site.name, host: site.host, manifest: rebased(site.manifest, folder) });
    // Each site's own manifest is in the one below; its copy would be a file no one reads.
    for (const file of site.files) {
      if (file.path !== MANIFEST_FILE) files.push({ ...file, path: `${folder}/${file.path}` });
    }
    for (const asset of site.assets) {
      if (asset.path !== MANIFEST_FILE) assets.push({ ...asset, path: `${folder}/${asset.path}` });
    }
  }
  const manifest: Manifest = {
    formatVersion: MANIFEST_FORMAT_VERSION,
    datasets: [],
    documents: [],
    sites: entries,
  };
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  files.unshift({ path: MANIFEST_FILE, bytes: text });
  assets.unshift({ path: MANIFEST_FILE, bytes: Buffer.byteLength(text) });
  return { manifest, files, assets };
}

/** `manifest` with every asset path (each `asset` field: variants, indexes, bodies) under `folder`. */
function rebased(manifest: Manifest, folder: string): Manifest {
  return JSON.parse(JSON.stringify(manifest), (key, value: unknown) =>
    key === "asset" && typeof value === "string" ? `/${folder}${value}` : value,
  ) as Manifest;
}
