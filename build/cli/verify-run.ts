/**
 * `npm run verify -- <base URL>`, start to finish, with its surroundings passed in (working
 * folder, fetch, clock, output) so tests run it in-process: read the manifest of the build that
 * was deployed, ask the deployment for every path it lists until each is the same or the wait is
 * over (verify/verify.ts), print a line per path, and append the report to --summary's file.
 */
import { appendFile, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseCommandLine } from "./args.js";
import type { CommandIo } from "./io.js";
import { MANIFEST_FILE, MANIFEST_FORMAT_VERSION, type Manifest } from "../../contract/manifest.js";
import { DIST_DIR, displayPath } from "../core/paths.js";
import { pathChecks } from "../verify/checks.js";
import { parseDuration } from "../verify/duration.js";
import { markdownSummary, resultLines, summaryLine } from "../verify/report.js";
import { verifyDeployment } from "../verify/verify.js";
import { asPreviewServes, previewPublication } from "../verify/preview.js";
import { verifyTargets } from "../verify/sites.js";

export const DEFAULT_VERIFY_WAIT = "120s";
export const DEFAULT_VERIFY_INTERVAL = "10s";
export const DEFAULT_VERIFY_TIMEOUT = "10s";

export const VERIFY_USAGE = `usage: npm run verify -- <base URL> [--wait ${DEFAULT_VERIFY_WAIT}] [--interval ${DEFAULT_VERIFY_INTERVAL}] [--manifest FILE] [--summary FILE]

Asks a deployment (e.g. https://opendata.example.com) for every path the build's manifest lists:
each data set and its live-standard aliases, each document, one near-me query per data set with
an index. Each answer's status, ETag, Last-Modified and body SHA-256 must be what the build made
(asked for in identity; a W/ ETag counts as the same tag). Paths that differ are asked again
until the wait is over, since a deploy takes a while to reach every location. Prints one line
per path and exits 1 if any still differs or cannot be reached. Against npm start on this
machine, the preview's own landing page is expected where it says it made it from the build's.
With Sites in content/site.yaml, every site is asked at its own host (the URL's scheme and port
kept), each against its own part of the manifest.

  --wait DURATION      how long to keep asking (default: ${DEFAULT_VERIFY_WAIT}; 0: once)
  --interval DURATION  the pause between rounds (default: ${DEFAULT_VERIFY_INTERVAL})
  --timeout DURATION   how long one request may take (default: ${DEFAULT_VERIFY_TIMEOUT})
  --manifest FILE      the build's manifest (default: dist/manifest.json)
  --summary FILE       append the report as Markdown to FILE (in CI: $GITHUB_STEP_SUMMARY)

A DURATION is seconds (120), or a number with ms, s or m (500ms, 90s, 2m).`;

export interface VerifyIo extends CommandIo {
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Runs the check; resolves to the exit code (0 all the same, 1 not, 2 usage). */
export async function runVerify(argv: string[], io: VerifyIo): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      wait: { type: "string" },
      interval: { type: "string" },
      timeout: { type: "string" },
      manifest: { type: "string" },
      summary: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    VERIFY_USAGE,
    io.stderr,
  );
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(VERIFY_USAGE);
    return 0;
  }
  const usage = (problem: string) => {
    io.stderr(`verify: ${problem}\n\n${VERIFY_USAGE}`);
    return 2;
  };
  const options = verifyOptions(positionals, values, usage);
  if (typeof options === "number") return options;
  const { base, durations } = options;

  const manifestFile = values.manifest
    ? resolve(io.cwd, values.manifest)
    : join(DIST_DIR, MANIFEST_FILE);
  const manifestName = displayPath(io.cwd, manifestFile);
  const manifest = await readManifest(manifestFile, manifestName, io);
  if (!manifest) return 2;

  const fetchFn = io.fetch ?? fetch;
  // One publication, or each site at its own host (verify/sites.ts); every one must be the same.
  let allSame = true;
  for (const target of verifyTargets(base, manifest)) {
    let checks = pathChecks(target.manifest);
    // The live preview serves its own landing page; on loopback, it says so (verify/preview.ts).
    const publication = await previewPublication(target.base, {
      fetch: fetchFn,
      timeoutMs: durations.timeout!,
    });
    if (publication) {
      checks = asPreviewServes(checks, publication);
      io.stderr(
        `verify: ${target.base.origin} is the live preview: ${publication.replaced.map((r) => r.path).join(", ") || "no path"} compared with what it serves in place of the build's`,
      );
    }
    const results = await verifyDeployment({
      base: target.base,
      checks,
      fetch: fetchFn,
      now: io.now ?? Date.now,
      sleep: io.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms))),
      waitMs: durations.wait!,
      intervalMs: durations.interval!,
      timeoutMs: durations.timeout!,
      progress: io.stderr,
    });
    const where = { base: target.base.origin, manifest: manifestName };
    io.stdout([...resultLines(results), summaryLine(results, where)].join("\n"));
    if (values.summary) {
      await appendFile(resolve(io.cwd, values.summary), markdownSummary(results, where));
    }
    allSame &&= results.every((r) => r.kind === "same");
  }
  return allSame ? 0 : 1;
}

/** The manifest the deployment should serve, or undefined (said on stderr) when there is none. */
async function readManifest(
  file: string,
  name: string,
  io: VerifyIo,
): Promise<Manifest | undefined> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(file, "utf8")) as Manifest;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    io.stderr(
      missing
        ? `verify: there is no ${name}: build first (npm run build), or give --manifest`
        : `verify: ${name} is not JSON: ${(error as Error).message}`,
    );
    return undefined;
  }
  if (manifest?.formatVersion !== MANIFEST_FORMAT_VERSION || !Array.isArray(manifest.datasets)) {
    io.stderr(`verify: ${name} is not a manifest of format ${MANIFEST_FORMAT_VERSION}`);
    return undefined;
  }
  return manifest;
}

/** The base URL and the durations verify was given, or the exit code after saying what is wrong. */
function verifyOptions(
  positionals: readonly string[],
  values: { readonly wait?: string; readonly interval?: string; readonly timeout?: string },
  usage: (problem: string) => number,
): { base: URL; durations: Record<string, number> } | number {
  if (positionals.length !== 1) return usage("give the deployment's base URL, and only that");
  let base: URL;
  try {
    base = new URL(positionals[0]!);
  } catch {
    return usage(`not a URL: ${JSON.stringify(positionals[0])}`);
  }
  if (base.protocol !== "https:" && base.protocol !== "http:") {
    return usage(`the base URL must be http or https, not ${base.protocol}`);
  }
  const durations: Record<string, number> = {};
  for (const [flag, given, fallback, min] of [
    ["wait", values.wait, DEFAULT_VERIFY_WAIT, 0],
    ["interval", values.interval, DEFAULT_VERIFY_INTERVAL, 0],
    ["timeout", values.timeout, DEFAULT_VERIFY_TIMEOUT, 1],
  ] as const) {
    const ms = parseDuration(given ?? fallback);
    if (ms === undefined || ms < min || ms > 3_600_000) {
      return usage(
        `--${flag} takes a duration up to an hour (120, 90s, 2m, 500ms), not ${JSON.stringify(given)}`,
      );
    }
    durations[flag] = ms;
  }
  return { base, durations };
}
