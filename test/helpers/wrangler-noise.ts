/**
 * The one line of wrangler's output the tests drop (vitest.config.ts, `onConsoleLog`).
 *
 * wrangler 4.86's dev bundler always runs esbuild in watch mode, and stopping a bundle removes
 * its temporary folder before it disposes of the watcher (`bundleWorker`'s `stop` in
 * wrangler-dist/cli.js: `tmpDir.remove()`, then `ctx.dispose()`). When a test's Worker is
 * disposed, the watcher can see its entry file go and rebuild once from nothing, and wrangler logs
 * "Build failed with 1 error: Could not resolve ".../.wrangler/tmp/bundle-…/middleware-loader.
 * entry.ts"" after the file's tests have passed: in about one run in three, under a file whose
 * Worker worked. Only that message is dropped: a build failure with any other cause or more than
 * one error is printed, and a Worker that does not build fails its test anyway.
 */
import { stripVTControlCharacters } from "node:util";

const TEARDOWN_REBUILD =
  /^✘ \[ERROR\] Build failed with 1 error:\s+✘ \[ERROR\] Could not resolve "[^"]*[\\/]\.wrangler[\\/]tmp[\\/]bundle-[^"\\/]+[\\/]middleware-loader\.entry\.ts"\s*$/;

/** Whether `log` is only wrangler's report of the rebuild its own teardown causes. */
export function isTeardownRebuildNoise(log: string): boolean {
  return TEARDOWN_REBUILD.test(stripVTControlCharacters(log).trim());
}
