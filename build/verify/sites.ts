/**
 * What `npm run verify` asks, with site.yaml's Sites (docs/decisions.md#sites): each site at its
 * own host, since a deployment answers a site only there (a host no site names is 404 on every
 * path). The scheme and port of the URL given are kept, its host replaced by each site's; without
 * Sites, the URL given and the one manifest.
 */
import type { Manifest } from "../../contract/manifest.js";

/** One publication to check: where to ask, what it should serve, and which site it is. */
export interface VerifyTarget {
  readonly base: URL;
  readonly manifest: Manifest;
  /** The site's Name; undefined without Sites. */
  readonly siteName?: string;
}

export function verifyTargets(base: URL, manifest: Manifest): VerifyTarget[] {
  if (manifest.sites === undefined) return [{ base, manifest }];
  return manifest.sites.map((site) => {
    const at = new URL(base.origin);
    at.hostname = site.host;
    return { base: at, manifest: site.manifest, siteName: site.name };
  });
}
