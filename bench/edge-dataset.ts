/**
 * What the edge benchmarks serve: the project's sample content and a synthetic set whose ATM feed
 * is about 600 KB (a real large bank's ATM feed is about 630 KB compact), each built with the real build into a temporary folder.
 *
 * The Worker imports `../dist/manifest.json` at bundle time, relative to worker/index.ts. To bundle
 * it against the synthetic set's manifest without touching the project's own dist/, the synthetic
 * set is built into a temporary copy of the project's layout: `<root>/dist` (the build's output)
 * beside `<root>/worker` (a verbatim copy of worker/ with its sub-folders). Bundling `<root>/worker/index.ts` then
 * resolves the import to the temporary manifest, and the code bundled is the project's own, byte
 * for byte. The Worker imports nothing from build/ (test/project/stage-order.test.ts).
 */
import { copyFile, mkdir, readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Manifest } from "../contract/manifest.js";
import { CONTENT_DIR, PROJECT_ROOT, WORKER_SOURCE_FOLDERS } from "../build/core/paths.js";
import { runBuild } from "../build/pipeline.js";
import { generateContent, type Sizes } from "./generate.js";

/**
 * About 1,100 ATMs make an ATM feed of about 600 KB of JSON, the size the edge targets are set
 * for. The other data sets are kept small: only the ATM feed is served under load.
 */
export const EDGE_SET_SIZES: Sizes = { branches: 20, atms: 1100, products: 10, metricsBrands: 1 };
/** The data set served under load. */
export const EDGE_DATASET = "atms";

/** A fixed LastUpdated, so builds outside git are reproducible (the build reads it from here). */
const BUILD_ENV = { SOURCE_DATE_EPOCH: "1790000000" };

export interface BuiltSet {
  readonly manifest: Manifest;
  /** The build's output folder (the Worker's static assets). */
  readonly distDir: string;
}

export interface EdgeLayout extends BuiltSet {
  /** worker/index.ts of the copy, whose ../dist is `distDir`. */
  readonly entrypoint: string;
}

async function build(contentDir: string, outDir: string): Promise<BuiltSet> {
  const result = await runBuild({
    contentDir,
    outDir,
    cwd: contentDir,
    cacheDir: false,
    env: BUILD_ENV,
  });
  if (!result.ok || !result.manifest) {
    throw new Error(
      `benchmark build of ${contentDir} failed: ${result.diagnostics.length} problems`,
    );
  }
  return { manifest: result.manifest, distDir: outDir };
}

/** The project's sample content (content/), built into `<root>/sample-dist`. */
export function buildSample(root: string): Promise<BuiltSet> {
  return build(CONTENT_DIR, join(root, "sample-dist"));
}

/** The synthetic set, built into a temporary project layout under `root` (see above). */
export async function buildEdgeLayout(root: string): Promise<EdgeLayout> {
  const content = join(root, "content");
  await generateContent(content, EDGE_SET_SIZES);
  const set = await build(content, join(root, "dist"));
  // Sources only: worker/tsconfig.json extends a file outside the copy, and bundling needs none.
  for (const folder of WORKER_SOURCE_FOLDERS) {
    // Recursive: worker/ has sub-folders by concern (http/, rate-limit/, near/).
    for (const entry of await readdir(join(PROJECT_ROOT, folder), { recursive: true })) {
      const name = String(entry);
      if (!name.endsWith(".ts")) continue;
      await mkdir(dirname(join(root, folder, name)), { recursive: true });
      await copyFile(join(PROJECT_ROOT, folder, name), join(root, folder, name));
    }
  }
  return { ...set, entrypoint: join(root, "worker", "index.ts") };
}

/** The manifest entry of a data set. */
export function entryOf(manifest: Manifest, dataset: string) {
  const entry = manifest.datasets.find((d) => d.dataset === dataset);
  if (!entry) throw new Error(`no ${dataset} in the manifest`);
  return entry;
}

/** A size in kilobytes (1,000 bytes), for tables. */
export function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`;
}

/** The bytes of one stored variant. */
export function readVariant(distDir: string, asset: string): Promise<Buffer> {
  return readFile(join(distDir, ...asset.slice(1).split("/")));
}
