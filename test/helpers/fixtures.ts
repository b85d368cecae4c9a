/** Temporary content and output folders for build tests. */
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CONTENT_DIR } from "../../build/core/paths.js";
import { PREVIEW_COMPRESSION, type Compression } from "../../build/encode/variants.js";
import { runBuild, type BuildOptions, type BuildResult } from "../../build/pipeline.js";
import type { BuildProfile } from "../../build/core/profile.js";
import { PUBLISH } from "../../build/profiles.js";

export interface Fixture {
  readonly root: string;
  readonly content: string;
  readonly out: string;
  /** Writes (or, with null, deletes) files relative to the content folder. */
  put(files: Record<string, string | null>): Promise<void>;
  cleanup(): Promise<void>;
}

/** A copy of the sample content in a fresh temporary folder, with `files` laid over it. */
export async function sampleFixture(files: Record<string, string | null> = {}): Promise<Fixture> {
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-"));
  const content = join(root, "content");
  await cp(CONTENT_DIR, content, { recursive: true });
  const fixture: Fixture = {
    root,
    content,
    out: join(root, "dist"),
    async put(changes) {
      for (const [path, text] of Object.entries(changes)) {
        const target = join(content, path);
        if (text === null) await rm(target, { recursive: true, force: true });
        else {
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, text);
        }
      }
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
  await fixture.put(files);
  return fixture;
}

/** A fixed SOURCE_DATE_EPOCH (2026-09-21T14:13:20Z), so builds of a fixture do not read the clock. */
export const FIXTURE_EPOCH = "1790000000";

/**
 * A test's build profile: a publication's, at the preview's fast compression unless the test's
 * subject is the compressed bytes (brotli 11 was most of a cold build's time), and reading the
 * history only when asked: a build that writes reads it, a test's build in memory need not.
 */
export function testProfile(
  compression: Compression = PREVIEW_COMPRESSION,
  history = true,
): BuildProfile {
  return { ...PUBLISH, name: "test", compression, history };
}

/**
 * Builds a fixture's content into its out folder: no cache, a fixed LastUpdated, testProfile
 * (the history read when the build writes), `options` over that.
 */
export function buildFixture(fixture: Fixture, options: BuildOptions = {}): Promise<BuildResult> {
  return runBuild({
    contentDir: fixture.content,
    outDir: fixture.out,
    cwd: fixture.root,
    env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
    cacheDir: false,
    profile: testProfile(PREVIEW_COMPRESSION, options.write !== false),
    ...options,
  });
}

/** Every file under `dir`, relative path to bytes, for byte-for-byte comparisons. */
export async function snapshotFolder(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path.slice(dir.length + 1), await readFile(path));
    }
  }
  return files;
}

/**
 * Every file under `dir`, relative path to the SHA-256 of its bytes: for "byte for byte the same"
 * comparisons. Equal digests are equal bytes, a difference names the paths that differ, and
 * comparing two maps of short strings costs nothing, where comparing maps of Buffers element by
 * element is most of what such a test would spend.
 */
export async function digestFolder(dir: string): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  for (const [path, bytes] of await snapshotFolder(dir)) {
    digests.set(path, createHash("sha256").update(bytes).digest("hex"));
  }
  return digests;
}

/** A minimal valid branch brand file, one physical branch per identification given. */
export function branchBrand(brandName: string, ids: readonly string[]): string {
  return [
    `BrandName: ${brandName}`,
    "Branch:",
    ...ids.flatMap((id) => [
      `  - Identification: "${id}"`,
      '    SequenceNumber: "0"',
      "    Type: Physical",
      "    CustomerSegment: [Personal]",
      "    PostalAddress:",
      "      PostCode: ZZ1 1ZZ",
    ]),
    "",
  ].join("\n");
}
