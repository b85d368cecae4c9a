/**
 * Runs once before the node project's tests (vitest.config.ts, `globalSetup`): brings the
 * compiled CLIs up to date (scripts/compile.mjs compiles only when a source changed) and builds
 * the project's dist/ unless npm test just did (the end-to-end tests serve it); meanwhile builds
 * the sample content twice, cold, as it is and with `OpenBankingPaths: true`, for the tests that
 * read a built sample without changing it (`sampleBuild` in sample-build.ts). The cache those two
 * builds filled is kept as well: a test file's builds of the sample with an edit start from a copy
 * of it (`warmCache`), so they take whatever the edit did not touch from it, as a rebuild after
 * one edit does, instead of compressing every body again. Everything lives in one temporary
 * folder, removed when the run ends.
 */
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { CONTENT_DIR } from "../../build/core/paths.js";
import { PUBLISHED_COMPRESSION } from "../../build/encode/variants.js";
import { ensureCompiled } from "./cli.js";
import { ensureDist } from "./worker.js";
import { cacheStamps, testMarks } from "./project-cache.js";
import { removeMemoryScratch } from "./scratch.js";
import { buildFixture, sampleFixture, testProfile, type Fixture } from "./fixtures.js";
import type { SampleRun, SampleVariant } from "./sample-build.js";

/** What each variant lays over the sample content. */
async function variantFiles(variant: SampleVariant): Promise<Record<string, string>> {
  if (variant === "plain") return {};
  const site = await readFile(join(CONTENT_DIR, "site.yaml"), "utf8");
  return { "site.yaml": `${site}OpenBankingPaths: true\n` };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), "opendata-edge-run-"));
  const fixtures: Fixture[] = [];
  // When the project's build cache was last written, once dist/ is built (project-cache.ts).
  let projectCache: string | undefined;
  const teardown = async () => {
    for (const fixture of fixtures) await fixture.cleanup();
    await rm(folder, { recursive: true, force: true });
    // Last: the run's scratch folder, which holds the folder above (vitest.config.ts).
    removeMemoryScratch();
    if (projectCache !== undefined && (await cacheStamps()) !== projectCache) {
      const marks = await testMarks(tmpdir());
      if (marks.length > 0) {
        // A teardown's error is printed but leaves vitest's exit status 0: set it here.
        process.exitCode = 1;
        console.error(
          `\nFAIL a test wrote to the project's build cache (.cache/build/): ` +
            `${marks.join("; ")}. A test that builds or runs a CLI gives it a folder of its ` +
            "own (--cache DIR, or cacheDir).",
        );
      }
    }
  };
  try {
    // Then the project's dist/, which the end-to-end tests serve, if npm test has not just built
    // it (npm run build compiles too: one after the other, never two compilers at once).
    const prepared = ensureCompiled().then(() => ensureDist());
    const variants: SampleVariant[] = ["plain", "live"];
    const builds = await Promise.all(
      variants.map(async (variant) => {
        const fixture = await sampleFixture(await variantFiles(variant));
        fixtures.push(fixture);
        // Each build fills a cache of its own: a build prunes what it did not use.
        const cacheDir = join(folder, `cache-${variant}`);
        const result = await buildFixture(fixture, {
          cacheDir,
          profile: testProfile(PUBLISHED_COMPRESSION, true),
        });
        if (!result.ok) {
          const problems = result.diagnostics.map((d) => `${d.file}:${d.line}: ${d.message}`);
          throw new Error(
            `the sample content (${variant}) does not build:\n${problems.join("\n")}`,
          );
        }
        return [variant, { root: fixture.root, content: fixture.content, out: fixture.out }];
      }),
    );
    // One cache holding what both builds made: the compressed bodies are the same, the documents
    // differ.
    const cache = join(folder, "cache");
    for (const variant of variants) {
      await cp(join(folder, `cache-${variant}`), cache, { recursive: true });
    }
    await prepared;
    projectCache = await cacheStamps();
    const run: SampleRun = {
      folder,
      cache,
      builds: Object.fromEntries(builds) as SampleRun["builds"],
    };
    project.provide("sampleRun", run);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
