/**
 * What the live preview publishes: the last good build's files, with the landing page made into
 * the preview's page (its script, its version and the content's problems, if any) and the three
 * preview documents added to the manifest (its version, its script, and what it serves in place of
 * the build's: contract/preview.ts, PreviewPublication); or, when the content has never built, only the
 * preview's page with the problems (previewWithoutBuild). A deployed build never goes through here.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Diagnostic } from "../core/diagnostics.js";
import { formatDiagnostic } from "../core/diagnostics.js";
import type { OutputFile } from "../write/atomic.js";
import {
  MANIFEST_FILE,
  MANIFEST_FORMAT_VERSION,
  STORED_CODINGS,
  variantAsset,
  siteFolder,
  type DocumentEntry,
  type Manifest,
} from "../../contract/manifest.js";
import { STYLESHEET_FILE } from "../documents/index.js";
import { STYLESHEET_PATH } from "../documents/landing/page.js";
import {
  PREVIEW_SCRIPT_PATH,
  PREVIEW_VERSION_PATH,
  previewPage,
  previewScript,
} from "../documents/landing/preview.js";
import { PREVIEW_PUBLICATION_PATH, type PreviewPublication } from "../../contract/preview.js";

/** A build that passed: everything it would write, and its manifest. */
export interface GoodBuild {
  readonly files: readonly OutputFile[];
  readonly manifest: Manifest;
}

/** The preview's files, its manifest, and the version its page reloads on. */
export interface PreviewOutput {
  readonly files: OutputFile[];
  readonly manifest: Manifest;
  /** Of everything served: changes when any site's page would reload. */
  readonly version: string;
  /**
   * What PREVIEW_VERSION_PATH answers, by host: with Sites each site's own version at its host
   * (a site's page reloads on its own version, and `version` is none of them); without Sites one
   * entry, at any host.
   */
  readonly versions: readonly HostVersion[];
}

/** The version a host serves at PREVIEW_VERSION_PATH; host undefined: any host. */
export interface HostVersion {
  readonly host: string | undefined;
  readonly version: string;
}

// The landing page's path and the asset its bytes are stored in (documents/index.ts), under the
// root of its publication (a site's folder with site.yaml's Sites).
const LANDING_PATH = "/";

/**
 * The version of what is served: a hash of every data set's and document's ETags but the landing
 * page's own (which will contain the version), and of the problems and warnings shown. Same data
 * and same findings give the same version, so a save that changes nothing reloads nothing.
 */
export function previewVersion(manifest: Manifest, problems: readonly Diagnostic[]): string {
  const hash = createHash("sha256");
  for (const entry of [...manifest.datasets, ...(manifest.documents ?? [])]) {
    if (entry.path === LANDING_PATH) continue;
    for (const variant of Object.values(entry.variants)) hash.update(`${variant.etag}\n`);
  }
  for (const problem of problems) hash.update(`${formatDiagnostic(problem)}\n`);
  return hash.digest("hex").slice(0, 16);
}

/**
 * The preview of `good`, showing `problems` (none when `good` is the content as it is now) and the
 * data-quality `warnings` of the content as it is now; `built` false when `good` is no build at all
 * (previewWithoutBuild), so the page does not say a last good build is served.
 */
export function previewOutput(
  good: GoodBuild,
  problems: readonly Diagnostic[],
  warnings: readonly Diagnostic[] = [],
  built = true,
): PreviewOutput {
  if (good.manifest.sites === undefined) {
    const one = publicationPreview(good, problems, warnings, built, "");
    return {
      files: [
        { path: MANIFEST_FILE, bytes: `${JSON.stringify(one.manifest, null, 2)}\n` },
        ...good.files.filter((f) => !one.replaced.has(f.path)),
        ...one.added,
      ],
      manifest: one.manifest,
      version: one.version,
      versions: [{ host: undefined, version: one.version }],
    };
  }
  // With site.yaml's Sites: each site's page made into the preview's, under its own folder.
  const sites = good.manifest.sites.map((site) => ({
    site,
    preview: publicationPreview(
      { manifest: site.manifest, files: good.files },
      problems,
      warnings,
      built,
      `/${siteFolder(site.name)}`,
    ),
  }));
  const manifest: Manifest = {
    ...good.manifest,
    sites: sites.map(({ site, preview }) => ({ ...site, manifest: preview.manifest })),
  };
  const replaced = new Set(sites.flatMap(({ preview }) => [...preview.replaced]));
  const version = createHash("sha256")
    .update(sites.map(({ preview }) => preview.version).join("\n"))
    .digest("hex")
    .slice(0, 16);
  return {
    files: [
      { path: MANIFEST_FILE, bytes: `${JSON.stringify(manifest, null, 2)}\n` },
      ...good.files.filter((f) => !replaced.has(f.path)),
      ...sites.flatMap(({ preview }) => preview.added),
    ],
    manifest,
    version,
    versions: sites.map(({ site, preview }) => ({ host: site.host, version: preview.version })),
  };
}

/**
 * One publication's preview (the whole build's, or a site's under `root`): its manifest with the
 * preview's page and documents, the files added, the files its page replaces, and its version.
 */
function publicationPreview(
  good: GoodBuild,
  problems: readonly Diagnostic[],
  warnings: readonly Diagnostic[],
  built: boolean,
  root: string,
): { manifest: Manifest; added: OutputFile[]; replaced: Set<string>; version: string } {
  const LANDING_ASSET = `${root}/index.html`;
  const landing = good.manifest.documents?.find((d) => d.path === LANDING_PATH);
  const html = good.files.find((f) => `/${f.path}` === LANDING_ASSET);
  if (!landing || !html) throw new Error("the build wrote no landing page to preview");
  const version = previewVersion(good.manifest, [...problems, ...warnings]);
  const page = previewPage(html.bytes, { version, problems, warnings, built });
  // Served as written, identity only: compressing the page again on every save would cost more
  // than sending it on loopback does.
  const document = (path: string, asset: string, mediaType: string, body: Buffer | string) => {
    const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
    const etag = `"${createHash("sha256").update(bytes).digest("hex")}"`;
    const entry: DocumentEntry = {
      path,
      mediaType,
      lastModified: landing.lastModified,
      lastModifiedMs: landing.lastModifiedMs,
      variants: { identity: { asset, etag, length: bytes.length } },
    };
    return { entry, file: { path: asset.slice(1), bytes } };
  };
  const pageDocument = document(LANDING_PATH, LANDING_ASSET, landing.mediaType, page);
  // The one path whose answer is not the build's: said, so `npm run verify` against the preview
  // can tell the preview's page made from this build's page from a page that differs
  // (docs/decisions.md#verify-against-the-live-preview). Nothing when there is no build.
  const publication: PreviewPublication = {
    replaced: built
      ? [
          {
            path: LANDING_PATH,
            built: landing.variants.identity.etag,
            served: pageDocument.entry.variants.identity.etag,
          },
        ]
      : [],
  };
  const added = [
    pageDocument,
    document(
      PREVIEW_VERSION_PATH,
      `${root}/_preview/version.txt`,
      "text/plain; charset=utf-8",
      version,
    ),
    document(
      PREVIEW_SCRIPT_PATH,
      `${root}/_preview/reload.js`,
      "text/javascript; charset=utf-8",
      previewScript(),
    ),
    document(
      PREVIEW_PUBLICATION_PATH,
      `${root}${PREVIEW_PUBLICATION_PATH}`,
      "application/json",
      `${JSON.stringify(publication)}\n`,
    ),
  ];
  const manifest: Manifest = {
    ...good.manifest,
    documents: [
      ...(good.manifest.documents ?? []).filter((d) => d.path !== LANDING_PATH),
      ...added.map((a) => a.entry),
    ],
  };
  // The landing page's stored variants and the manifest are replaced; everything else is kept.
  const replaced = new Set([
    MANIFEST_FILE,
    ...STORED_CODINGS.map((c) => variantAsset(LANDING_ASSET, c).slice(1)),
  ]);
  return { manifest, added: added.map((a) => a.file), replaced, version };
}

// What the page says when there is no build to show: the problems' panel goes above it.
const NOTHING_BUILT = [
  "<!doctype html>",
  '<html lang="en">',
  "<head>",
  '<meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  "<title>Nothing built yet</title>",
  `<link rel="stylesheet" href="${STYLESHEET_PATH}">`,
  "</head>",
  "<body>",
  "<main>",
  "<h1>Nothing built yet</h1>",
  "<p>The content has not built since this preview started and there is no earlier build in the output folder, so every API path answers 503 for now. The first save without problems publishes.</p>",
  "</main>",
  "</body>",
  "</html>",
  "",
].join("\n");

/**
 * The preview when the content has never built (npm start on broken content, with no earlier
 * build to serve): the preview's page, with its stylesheet, showing `problems`, and nothing else.
 */
export function previewWithoutBuild(problems: readonly Diagnostic[]): PreviewOutput {
  // Its time is the moment it was made: there is no content time to give it.
  const ms = Math.floor(Date.now() / 1000) * 1000;
  const file = (path: string, mediaType: string, body: string) => {
    const bytes = Buffer.from(body, "utf8");
    const asset = path === LANDING_PATH ? "/index.html" : path;
    const entry: DocumentEntry = {
      path,
      mediaType,
      lastModified: new Date(ms).toUTCString(),
      lastModifiedMs: ms,
      variants: {
        identity: {
          asset,
          etag: `"${createHash("sha256").update(bytes).digest("hex")}"`,
          length: bytes.length,
        },
      },
    };
    return { entry, file: { path: asset.slice(1), bytes } };
  };
  const documents = [
    file(LANDING_PATH, "text/html; charset=utf-8", NOTHING_BUILT),
    file(STYLESHEET_PATH, "text/css; charset=utf-8", readFileSync(STYLESHEET_FILE, "utf8")),
  ];
  const manifest: Manifest = {
    formatVersion: MANIFEST_FORMAT_VERSION,
    datasets: [],
    documents: documents.map((d) => d.entry),
  };
  return previewOutput({ manifest, files: documents.map((d) => d.file) }, problems, [], false);
}
