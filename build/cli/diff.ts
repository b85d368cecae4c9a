/**
 * `npm run diff -- <base-ref> [<head-ref>]`: prints a Markdown summary of what the content change
 * between two git revisions (the head defaulting to the work tree) does to the published data.
 * Exits 0 whenever it could compare or explain why not (a revision whose content does not build
 * is reported in the Markdown), 1 on a git problem, 2 on a usage error. Under GitHub Actions, a
 * data set the publication guard would refuse is also printed as a `::warning` annotation.
 */
import { exitAfterOutput } from "./exit.js";
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { CACHE_OPTIONS, chosenCache, parseCommandLine } from "./args.js";
import { parseMaxShrink } from "../guard/settings.js";
import { annotation, underGitHubActions } from "./annotations.js";
import { MAX_SHRINK_FLAG } from "../guard/flags.js";
import { describeShrink, GUARD_NAME, GuardUsageError } from "../guard/policy.js";
import { CONTENT_DIR } from "../core/paths.js";
import { RevisionError } from "../revision.js";
import { changeSummary } from "../diff/change-summary.js";

const USAGE = `usage: npm run diff -- <base-ref> [<head-ref>] [--content DIR] [--output FILE] [--${MAX_SHRINK_FLAG} SHARE]
       [--cache DIR | --no-cache]

  Compares the published data built from <base-ref>'s content with <head-ref>'s (default: the
  work tree, uncommitted edits included) and prints a Markdown summary: per data set the records
  added, removed and changed, and for each changed record the values before and after.
  --output FILE  write the Markdown to FILE instead of stdout
  --cache DIR    build cache folder for both sides' builds (default: .cache/build/)
  --no-cache     neither read nor write the build cache`;

async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      content: { type: "string" },
      output: { type: "string" },
      [MAX_SHRINK_FLAG]: { type: "string" },
      ...CACHE_OPTIONS,
      help: { type: "boolean", short: "h" },
    },
    USAGE,
  );
  if (!parsed) return 2;
  const { positionals, values } = parsed;
  if (values.help || positionals.length < 1 || positionals.length > 2) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const maxShrink = parseMaxShrink(values[MAX_SHRINK_FLAG]);
  const summary = await changeSummary({
    contentDir: values.content ? resolve(values.content) : CONTENT_DIR,
    base: positionals[0]!,
    head: positionals[1],
    cwd: process.cwd(),
    cacheDir: chosenCache(values, process.cwd()),
    maxShrink,
  });
  if (values.output) await writeFile(resolve(values.output), summary.markdown);
  else process.stdout.write(summary.markdown);
  if (underGitHubActions()) {
    // Workflow commands are read from stdout; when stdout carries the Markdown, stderr it is.
    const print = values.output ? console.log : console.error;
    for (const shrink of summary.shrinks) {
      const message = describeShrink(shrink, { maxShrink, baseline: summary.base.label });
      print(
        annotation(
          "warning",
          `${message}; the deploy after merging will refuse it without the override`,
          {
            title: GUARD_NAME,
          },
        ),
      );
    }
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => exitAfterOutput(code),
  (error: unknown) => {
    if (error instanceof RevisionError || error instanceof GuardUsageError) {
      console.error(`diff: ${error.message}`);
      exitAfterOutput(error instanceof RevisionError ? 1 : 2);
      return;
    }
    console.error(`diff failed: ${error instanceof Error ? error.stack : String(error)}`);
    exitAfterOutput(1);
  },
);
