/**
 * The live preview's rebuild: build the content through the cache, and publish the result as
 * the preview (previewOutput) in a new generation, in memory (generations.ts), which the Worker
 * serves from its next request on. A build with problems publishes the last good build again,
 * with the problems on its landing page, so every data path keeps answering with the last good
 * bodies; before any build succeeded, the last good build is the one in the output folder (from
 * an earlier `npm run build` or preview), and without one the page shows the problems and the
 * APIs answer 503 (previewWithoutBuild).
 *
 * Each good build is also written to the output folder, after it is published and out of its
 * way, so the output folder holds the last good build when the preview stops.
 */
import { readdir, readFile, realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { atFileStart, formatDiagnostic, type Diagnostic } from "../core/diagnostics.js";
import { CONTENT_DIR, DIST_DIR } from "../core/paths.js";
import { runBuild, type BuildOptions } from "../pipeline.js";
import { BuildMemory } from "../core/memory.js";
import { previewProfile } from "../profiles.js";
import { writeAtomically, type OutputFile } from "../write/atomic.js";
import { cacheMissLine } from "../cli/cache-note.js";
import { writesBehindDone } from "../core/cache.js";
import { MANIFEST_FILE, type Manifest } from "../../contract/manifest.js";
import { PREVIEW_VERSION_PATH } from "../documents/landing/preview.js";
import { previewOutput, previewWithoutBuild, type GoodBuild, type HostVersion } from "./output.js";
import { Generations } from "./generations.js";

/** What one rebuild did. */
export interface Rebuilt {
  /** The content as it is now builds. */
  readonly ok: boolean;
  readonly problems: readonly Diagnostic[];
  /** The preview's version now served. */
  readonly version: string;
  /** What each host serves at PREVIEW_VERSION_PATH now (output.ts, PreviewOutput.versions). */
  readonly versions: readonly HostVersion[];
  /** Whether a new generation was published (false when nothing served changed). */
  readonly published: boolean;
  /** From the start of the build to the new generation being served. */
  readonly ms: number;
}

export type PreviewBuildOptions = Pick<
  BuildOptions,
  "contentDir" | "outDir" | "cwd" | "env" | "cacheDir" | "threads"
>;

/** Rebuilds one after another (the caller runs one at a time), remembering the last good build. */
export class PreviewSession {
  /** What the Worker serves, through its PREVIEW binding. */
  readonly generations = new Generations();
  private good: GoodBuild | undefined;
  private outputRead = false;
  private version: string | undefined;
  private versions: readonly HostVersion[] = [];
  // What one rebuild keeps for the next (core/memory.ts): the check results of the files it did
  // not change, the cache entries it used (written behind), what git said, each record's bytes…
  private readonly profile = previewProfile(new BuildMemory());
  // The good build waiting to be written to the output folder, and the write under way.
  private unwritten: GoodBuild | undefined;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly options: PreviewBuildOptions,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Builds the content as it is now and serves the result. `superseded` says whether a newer save
   * is already waiting for its own rebuild: a build that fails then is neither shown nor printed,
   * since what it read may be a file half written (an editor that truncates and then writes gives
   * an empty file for a moment), and the next rebuild reports on the content as saved.
   */
  async rebuild(superseded: () => boolean = () => false): Promise<Rebuilt> {
    const started = performance.now();
    // A build that throws (a fault of the build, not of the content) is shown as one problem, on
    // the page and in one line here, over the last good build, like a content problem.
    let internal: Error | undefined;
    const result = await runBuild({
      ...this.options,
      write: false,
      // Nothing of a rebuild waits for the cache's writes (written() does), and what the last
      // build used is read from memory.
      profile: this.profile,
    }).catch((error: unknown) => {
      internal = error instanceof Error ? error : new Error(String(error));
      return internalFailure(internal, this.options.cwd ?? process.cwd(), this.contentDir());
    });
    if (!result.ok && this.version !== undefined && superseded()) {
      const ms = performance.now() - started;
      return {
        ok: false,
        problems: result.diagnostics,
        version: this.version,
        versions: this.versions,
        published: false,
        ms,
      };
    }
    if (result.cacheMiss) this.log(cacheMissLine(result.cacheMiss));
    if (result.ok) {
      this.good = { files: result.files, manifest: result.manifest };
      this.writeLater(this.good);
    } else if (!this.good && !this.outputRead) {
      // Until the content builds, the last good build is the one already in the output folder.
      this.outputRead = true;
      this.good = await this.readOutput();
    }
    const problems = result.ok ? [] : result.diagnostics;
    const output = this.good
      ? previewOutput(this.good, problems, result.quality.warnings)
      : previewWithoutBuild(problems);
    const published = output.version !== this.version;
    if (published) {
      this.generations.publish({ ...output, built: this.good !== undefined });
      this.version = output.version;
      this.versions = output.versions;
    }
    const ms = performance.now() - started;
    if (result.ok) {
      const warnings = result.quality.warnings.length;
      this.log(
        `Rebuilt in ${Math.round(ms)} ms${published ? "" : " (nothing served changed)"}` +
          (warnings
            ? `; ${warnings} data-quality ${warnings === 1 ? "warning" : "warnings"}, listed on the landing page`
            : ""),
      );
    } else if (internal) {
      this.log(
        `preview: ${problems[0]!.message}; ${this.good ? "still serving the last good build" : "nothing built to serve"}, with the error on the landing page.`,
      );
    } else {
      for (const problem of problems) this.log(formatDiagnostic(problem));
      const count = `${problems.length} ${problems.length === 1 ? "problem" : "problems"}`;
      this.log(
        this.good
          ? `${count}: still serving the last good build, with the problems on the landing page.`
          : `${count}, and no earlier build to serve: the landing page shows the problems and the APIs answer 503 until a save builds.`,
      );
    }
    return {
      ok: result.ok,
      problems,
      version: output.version,
      versions: output.versions,
      published,
      ms,
    };
  }

  private contentDir(): string {
    return this.options.contentDir ?? CONTENT_DIR;
  }

  /** Settles once every good build so far is written to the output folder, and its cache entries to the cache. */
  async written(): Promise<void> {
    while (this.writing) await this.writing;
    await writesBehindDone();
  }

  // Writes `good` to the output folder after the writes before it; of several good builds made
  // during one write, only the last is written next.
  private writeLater(good: GoodBuild): void {
    this.unwritten = good;
    if (this.writing) return;
    this.writing = (async () => {
      for (let next = this.unwritten; next; next = this.unwritten) {
        this.unwritten = undefined;
        const outDir = this.options.outDir ?? DIST_DIR;
        await writeAtomically(outDir, next.files, { linkUnchanged: true }).catch((error: unknown) =>
          this.log(`preview: writing ${outDir}: ${String(error)}`),
        );
      }
      this.writing = undefined;
    })();
  }

  /** The build in the output folder, if there is one the preview can serve. */
  private async readOutput(): Promise<GoodBuild | undefined> {
    const outDir = this.options.outDir ?? DIST_DIR;
    try {
      const build = await readBuild(outDir);
      // A folder written by an older preview holds its page and documents, not a build.
      if (build.manifest.documents.some((d) => d.path === PREVIEW_VERSION_PATH)) return undefined;
      return build;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        this.log(`preview: the build in ${outDir} cannot be served: ${String(error)}`);
      }
      return undefined;
    }
  }
}

/**
 * A build that threw, as a failed build with one problem at the content folder: what failed and
 * where in the build (the first frame of its stack, relative to `cwd`), on one line.
 */
function internalFailure(error: Error, cwd: string, contentDir: string) {
  const frame = error.stack
    ?.split("\n")
    .find((line) => /^\s+at /.test(line))
    ?.trim()
    .replace(/^at /, "")
    .replace(/file:\/\//, "");
  const where = frame ? ` (at ${frame.split(cwd + sep).join("")})` : "";
  const message = error.message.split("\n")[0] || error.name;
  const problem = atFileStart(
    relative(cwd, contentDir).split(sep).join("/") || ".",
    "internal",
    `internal error in the build, not a problem in the content: ${message}${where}`,
  );
  return {
    ok: false as const,
    diagnostics: [problem],
    quality: { warnings: [] as Diagnostic[] },
    cacheMiss: undefined,
  };
}

/** A build already written to `outDir` (by `npm run build` or a preview), read back. */
async function readBuild(outDir: string): Promise<GoodBuild> {
  const dir = await realpath(outDir);
  const files: OutputFile[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    files.push({ path: relative(dir, full).split(sep).join("/"), bytes: await readFile(full) });
  }
  const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), "utf8")) as Manifest;
  return { files, manifest };
}
