/**
 * Cloudflare's limits on Workers Static Assets, checked at build time so a body too large to
 * deploy fails at its data set, with what to do, rather than late in `wrangler deploy`. From
 * Cloudflare's documentation (Workers platform limits, "Static Assets"): 25 MiB per file and
 * 20,000 files per Worker version. Named once here; the build and its tests use these.
 */
import type { DatasetDefinition } from "../core/datasets.js";
import { atFileStart, type Diagnostic } from "../core/diagnostics.js";
import type { ContentCoding } from "../../contract/manifest.js";

// Largest static asset file Workers accept: 25 MiB.
const MAX_ASSET_FILE_BYTES = 25 * 1024 * 1024;
// Most static asset files one Worker version may have.
const MAX_ASSET_FILES = 20_000;
// The rule name limit problems carry.
const LIMIT_RULE = "limit";

export interface AssetLimits {
  readonly maxFileBytes: number;
  readonly maxFiles: number;
}

/** The platform's limits. */
export const PLATFORM_LIMITS: AssetLimits = {
  maxFileBytes: MAX_ASSET_FILE_BYTES,
  maxFiles: MAX_ASSET_FILES,
};

/** One file the build is about to write into the assets folder. */
export interface AssetFile {
  /** Path inside the output folder, `/`-separated. */
  readonly path: string;
  readonly bytes: number;
  /** The data set and coding it is a variant of; absent for other files (the manifest). */
  readonly variant?: { readonly dataset: DatasetDefinition; readonly coding: ContentCoding };
}

export interface LimitContext {
  /** The content folder as printed; a body's problem is reported at its data set's folder. */
  readonly contentDir: string;
  /** The output folder as printed; a count problem is reported there. */
  readonly outDir: string;
}

/**
 * One problem per file over `limits.maxFileBytes`, and one if there are more than
 * `limits.maxFiles` files. Exactly the limit is allowed.
 */
export function checkAssetLimits(
  files: readonly AssetFile[],
  where: LimitContext,
  limits: AssetLimits = PLATFORM_LIMITS,
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const file of files) {
    if (file.bytes <= limits.maxFileBytes) continue;
    const size = `${bytes(file.bytes)} (${mebibytes(file.bytes)})`;
    const limit = `${bytes(limits.maxFileBytes)} (${mebibytes(limits.maxFileBytes)})`;
    const variant = file.variant;
    problems.push(
      atFileStart(
        variant ? `${where.contentDir}/${variant.dataset.contentDir}` : `${where.outDir}`,
        LIMIT_RULE,
        variant
          ? `the ${CODING_NAMES[variant.coding]} of ${variant.dataset.title} (${variant.dataset.path}) ` +
              `would be ${size}, over Cloudflare's limit of ${limit} per static asset file, so it ` +
              `could not be deployed. ${ADVICE[variant.coding]}`
          : `${file.path} would be ${size}, over Cloudflare's limit of ${limit} per static asset file`,
      ),
    );
  }
  if (files.length > limits.maxFiles) {
    problems.push(
      atFileStart(
        where.outDir,
        LIMIT_RULE,
        `the build would write ${files.length.toLocaleString("en-GB")} files, over Cloudflare's ` +
          `limit of ${limits.maxFiles.toLocaleString("en-GB")} static asset files per Worker; ` +
          `publish fewer data sets or variants from this deployment`,
      ),
    );
  }
  return problems;
}

const CODING_NAMES: Record<ContentCoding, string> = {
  identity: "uncompressed body",
  br: "brotli variant",
  gzip: "gzip variant",
};

// What an editor or operator can do. The uncompressed body is what a client without
// Accept-Encoding gets, so it cannot be dropped; a compressed variant can
// (docs/operations.md#platform-limits).
const ADVICE: Record<ContentCoding, string> = {
  identity:
    "Split the brands: publish some of this data set's brands from a second deployment, so " +
    "each body stays under the limit.",
  br:
    "Split the brands across two deployments, or drop this variant (clients that accept gzip " +
    "get gzip).",
  gzip:
    "Split the brands across two deployments, or drop this variant (clients that accept only " +
    "gzip then get the uncompressed body).",
};

function bytes(n: number): string {
  return `${n.toLocaleString("en-GB")} bytes`;
}

function mebibytes(n: number): string {
  return `${Number((n / 1024 / 1024).toFixed(2))} MiB`;
}
