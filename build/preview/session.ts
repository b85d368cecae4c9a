/**
 * The live preview's rebuild: build the content through the cache, and publish the result as
 * the preview (previewOutput) in a new generation of the output folder. A build with problems
 * publishes the last good build again, with the problems on its landing page, so every data path
 * keeps answering with the last good bodies.
 */
import { readdir, readFile, realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { formatDiagnostic, type Diagnostic } from "../core/diagnostics.js";
import { DIST_DIR } from "../core/paths.js";
import { runBuild, type BuildOptions } from "../pipeline.js";
import { writeAtomically, type OutputFile } from "../write/atomic.js";
import { cacheMissLine } from "../cli/cache-note.js";
import { MANIFEST_FILE, type Manifest } from "../../contract/manifest.js";
import { previewOutput, type GoodBuild } from "./output.js";

/** What one rebuild did. */
export interface Rebuilt {
  /** The content as it is now builds. */
  readonly ok: boolean;
  readonly problems: readonly Diagnostic[];
  /** The preview's version now served, once published. */
  readonly version: string;
  /** The generation folder written, or undefined when nothing served changed. */
  readonly generation: string | undefined;
  readonly ms: number;
}

export type PreviewBuildOptions = Pick<
  BuildOptions,
  "contentDir" | "outDir" | "cwd" | "env" | "cacheDir" | "threads"
>;

/** Rebuilds one after another (the caller runs one at a time), remembering the last good build. */
export class PreviewSession {
  private good: GoodBuild | undefined;
  private version: string | undefined;

  constructor(
    private readonly options: PreviewBuildOptions,
    private readonly log: (line: string) => void,
  ) {}

  async rebuild(): Promise<Rebuilt> {
    const started = performance.now();
    const result = await runBuild({ ...this.options, write: false, preview: true });
    if (result.cacheMiss) this.log(cacheMissLine(result.cacheMiss));
    if (result.ok) this.good = { files: result.files, manifest: result.manifest };
    // The first build of a session can only fail if the content changed since `npm run build`
    // wrote the output folder: that output is then the last good build.
    this.good ??= await readBuild(this.options.outDir ?? DIST_DIR);
    const problems = result.ok ? [] : result.diagnostics;
    const output = previewOutput(this.good, problems, result.quality.warnings);
    let generation: string | undefined;
    if (output.version !== this.version) {
      generation = (await writeAtomically(this.options.outDir ?? DIST_DIR, output.files))
        .generation;
      this.version = output.version;
    }
    const ms = performance.now() - started;
    if (result.ok) {
      const warnings = result.quality.warnings.length;
      this.log(
        `Rebuilt in ${Math.round(ms)} ms${generation ? "" : " (nothing served changed)"}` +
          (warnings
            ? `; ${warnings} data-quality ${warnings === 1 ? "warning" : "warnings"}, listed on the landing page`
            : ""),
      );
    } else {
      for (const problem of problems) this.log(formatDiagnostic(problem));
      this.log(
        `${problems.length} ${problems.length === 1 ? "problem" : "problems"}: still serving the last good build, with the problems on the landing page.`,
      );
    }
    return { ok: result.ok, problems, version: output.version, generation, ms };
  }
}

/** A build already written to `outDir` (by `npm run build`), read back. */
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
