/**
 * The wrangler output the tests drop (vitest.config.ts, `onConsoleLog`): one false error, and the
 * pointer to wrangler's log file that it leads to.
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

// What wrangler prints when its process exits having logged an error: where its log file is.
const LOG_POINTER = /^\u{1FAB5}\s+Logs were written to "[^"]+"$/u;

/**
 * A filter for the run's console output, true for what is shown: it drops the teardown rebuild's
 * report, and the pointer to wrangler's log file that the report makes wrangler print as its
 * process exits, as long as no other wrangler error has been printed. After any other error the
 * pointer is shown, since it says where the rest of that error is.
 */
export function wranglerNoiseFilter(): (log: string) => boolean {
  let otherError = false;
  return (log) => {
    if (isTeardownRebuildNoise(log)) return false;
    const text = stripVTControlCharacters(log).trim();
    if (LOG_POINTER.test(text)) return otherError;
    if (text.includes("[ERROR]")) otherError = true;
    return true;
  };
}
