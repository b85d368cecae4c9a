/**
 * Scratch git repositories whose history holds versions of small content written by the tests
 * (never a real feed): each commit at a time the test gives, so LastUpdated is known. Used by the
 * history tests (test/build/history/, test/e2e/changes.test.ts, test/e2e/sync.test.ts).
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { Manifest, ManifestEntry } from "../../contract/manifest.js";
import type { DatasetId } from "../../build/core/datasets.js";
import { runBuild } from "../../build/pipeline.js";
import { PREVIEW_COMPRESSION } from "../../build/encode/variants.js";
import { testProfile } from "./fixtures.js";
import { copyWorkerSources, startWorkerAt } from "./worker.js";

const run = promisify(execFile);

/** A site.yaml with the licence and terms real publishers use, and `extra` lines after them. */
export function siteYaml(extra = ""): string {
  return [
    'License: "https://www.openbanking.org.uk/open-licence"',
    'TermsOfUse: "https://www.openbanking.org.uk/terms"',
    extra,
  ].join("\n");
}

export interface ScratchRepo {
  /** The repository's top folder. */
  readonly root: string;
  /** Its content folder. */
  readonly content: string;
  /**
   * Writes `files` (paths under the content folder; null deletes) and commits them, author and
   * committer time `seconds`; returns the commit's hash.
   */
  commit(files: Record<string, string | null>, seconds: number): Promise<string>;
  /**
   * Commits each version in turn on main, as `commit` would, and leaves the work tree at the
   * last; returns the commits' hashes, oldest first. For a repository whose work tree is its
   * HEAD (or empty): one process for the whole history, where `commit` starts one per version.
   */
  commitAll(versions: readonly TestVersion[]): Promise<string[]>;
  git(...args: string[]): Promise<string>;
  cleanup(): Promise<void>;
}

/** A new repository with an empty content folder and no commit. */
export async function scratchRepo(): Promise<ScratchRepo> {
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-history-"));
  const content = join(root, "content");
  await mkdir(content);
  // No user or system configuration: no signing, no hooks, a fixed identity.
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Test",
    GIT_AUTHOR_EMAIL: "test@example.invalid",
    GIT_COMMITTER_NAME: "Test",
    GIT_COMMITTER_EMAIL: "test@example.invalid",
  };
  const git = async (...args: string[]) =>
    (await run("git", args, { cwd: root, env, maxBuffer: 1 << 26 })).stdout;
  await git("init", "-q", "-b", "main");
  let hasCommit = false;
  return {
    root,
    content,
    git,
    async commit(files, seconds) {
      for (const [path, text] of Object.entries(files)) {
        const target = join(content, path);
        if (text === null) await rm(target, { recursive: true, force: true });
        else {
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, text);
        }
      }
      // One process for the three git commands: each process the test worker starts costs it
      // tens of milliseconds, its memory being large.
      const date = `@${seconds} +0000`;
      const out = await run(
        "sh",
        [
          "-c",
          'git add -A content && git commit -q --allow-empty -m "$1" && git rev-parse HEAD',
          "sh",
          `version at ${seconds}`,
        ],
        { cwd: root, env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } },
      );
      hasCommit = true;
      return out.stdout.trim();
    },
    async commitAll(versions) {
      if (versions.length === 0) return [];
      const out = await withInput(
        // fast-import writes the commits; reset lays the last one down in the index and work tree.
        'git fast-import --quiet --date-format=raw && git reset -q --hard && git rev-list --first-parent -n "$1" HEAD',
        [String(versions.length)],
        fastImportStream(versions, hasCommit),
        { cwd: root, env },
      );
      hasCommit = true;
      return out.trim().split("\n").reverse();
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * A `git fast-import` stream committing `versions` on main, each as `commit` would make it: the
 * fixed identity, author and committer time the version's, message "version at <seconds>", the
 * content files written or (null) deleted, files or folders, on top of the commit before.
 */
function fastImportStream(versions: readonly TestVersion[], onExistingMain: boolean): Buffer {
  const parts: Buffer[] = [];
  const text = (line: string) => parts.push(Buffer.from(line, "utf8"));
  const data = (bytes: string) => {
    const buffer = Buffer.from(bytes, "utf8");
    text(`data ${buffer.length}\n`);
    parts.push(buffer);
    text("\n");
  };
  for (const [i, version] of versions.entries()) {
    const who = `Test <test@example.invalid> ${version.seconds} +0000`;
    text(`commit refs/heads/main\nauthor ${who}\ncommitter ${who}\n`);
    data(`version at ${version.seconds}\n`);
    // fast-import has the branch in memory before it reads `from`: ^0 names what is on disk.
    if (i === 0 && onExistingMain) text("from refs/heads/main^0\n");
    for (const [path, content] of Object.entries(version.files)) {
      if (content === null) text(`D content/${path}\n`);
      else {
        text(`M 100644 inline content/${path}\n`);
        data(content);
      }
    }
  }
  return Buffer.concat(parts);
}

/** Runs `sh -c script` with `args` and `input` on its standard input; its standard output. */
function withInput(
  script: string,
  args: readonly string[],
  input: Buffer,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", script, "sh", ...args], { ...options, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${script}: exit ${code}: ${stderr}`)),
    );
    child.stdin.end(input);
  });
}

/**
 * A new folder holding `files` under its content/ (paths under the content folder; null: left
 * out), as one version's content laid down alone, outside git. The caller removes it.
 */
export async function contentAlone(files: Record<string, string | null>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-version-"));
  for (const [path, text] of Object.entries(files)) {
    if (text === null) continue;
    await mkdir(dirname(join(root, "content", path)), { recursive: true });
    await writeFile(join(root, "content", path), text);
  }
  return root;
}

/** One ATM of the test feeds: enough fields to be valid, a Note to give it some weight. */
export interface TestAtm {
  readonly id: string;
  readonly town: string;
  readonly amount: number;
  readonly note?: string;
}

/** An ATM brand file, shaped like a real feed's (quoted text, the spec's field names). */
export function atmBrandFile(brandName: string, atms: readonly TestAtm[], comment = ""): string {
  return [
    `# ${comment || "test feed"}`,
    `BrandName: "${brandName}"`,
    "ATM:",
    ...atms.flatMap((atm) => [
      `  - Identification: "${atm.id}"`,
      "    SupportedCurrencies:",
      '      - "GBP"',
      `    MinimumPossibleAmount: "${atm.amount}.00"`,
      ...(atm.note ? ["    Note:", `      - "${atm.note}"`] : []),
      "    Location:",
      "      PostalAddress:",
      `        TownName: "${atm.town}"`,
      '        Country: "GB"',
    ]),
    "",
  ].join("\n");
}

/** A minimal branch brand file, shaped like a real feed's. */
export function branchBrandFile(brandName: string, branches: readonly TestAtm[]): string {
  return [
    `BrandName: "${brandName}"`,
    "Branch:",
    ...branches.flatMap((b) => [
      `  - Identification: "${b.id}"`,
      '    SequenceNumber: "0"',
      '    Type: "Physical"',
      "    CustomerSegment:",
      '      - "Personal"',
      "    PostalAddress:",
      `      TownName: "${b.town}"`,
      '      Country: "GB"',
      '      PostCode: "WX1 4AB"',
    ]),
    "",
  ].join("\n");
}

/** One version of a test feed: the content files it changes (null deletes) and its time. */
export interface TestVersion {
  readonly seconds: number;
  readonly files: Record<string, string | null>;
}

/** The Worker serving the build of a scratch repository's history, on loopback. */
export interface HistoryWorker {
  readonly repo: ScratchRepo;
  readonly base: URL;
  readonly manifest: Manifest;
  /** The built dist/ folder. */
  readonly dist: string;
  dispose(): Promise<void>;
}

/**
 * Commits `versions` to a scratch repository, builds it (history on, no cache) into a scratch
 * copy of the Worker (its sources, wrangler.toml, a dist/ of its own) and starts that Worker.
 */
export async function historyWorker(versions: readonly TestVersion[]): Promise<HistoryWorker> {
  const repo = await scratchRepo();
  await repo.commitAll(versions);
  const root = join(repo.root, "worker-copy");
  await copyWorkerSources(root);
  const dist = join(root, "dist");
  const built = await runBuild({
    contentDir: repo.content,
    outDir: dist,
    cwd: repo.root,
    cacheDir: false,
    // The tests decode what is served; the published settings' brotli 11 on every version's
    // answers was most of these builds' time (publishedVersions compresses alike).
    profile: testProfile(PREVIEW_COMPRESSION, true),
  });
  if (!built.ok)
    throw new Error(`the test feed does not build: ${JSON.stringify(built.diagnostics)}`);
  const worker = await startWorkerAt(join(root, "wrangler.toml"));
  return {
    repo,
    base: worker.base,
    manifest: built.manifest,
    dist,
    async dispose() {
      await worker.dispose();
      await repo.cleanup();
    },
  };
}

/** A body's text with its meta.LastUpdated's value left out (bodies start with it). */
function withoutDate(body: string): string {
  return body.replace(/^\{"meta":\{"LastUpdated":"[^"]*"/, "");
}

/** One version of a data set as its own build published it. */
export interface PublishedVersion {
  readonly seconds: number;
  readonly entry: ManifestEntry;
  /** The identity body, as text. */
  readonly body: string;
}

/**
 * The oracle for history tests: each version's content laid down alone and built outside git at
 * its commit time (SOURCE_DATE_EPOCH), so its body and ETags are exactly what the build of that
 * commit published. Newest first. A commit whose body, LastUpdated aside, is the one before's
 * (a comment, a field no body holds) is no version of the data set: it is left out.
 */
export async function publishedVersions(
  versions: readonly TestVersion[],
  dataset: DatasetId,
): Promise<PublishedVersion[]> {
  const scratch = await mkdtemp(join(tmpdir(), "opendata-edge-versions-"));
  try {
    const content = new Map<string, string>();
    const out: PublishedVersion[] = [];
    for (const [i, version] of versions.entries()) {
      for (const [path, text] of Object.entries(version.files)) {
        if (text === null) content.delete(path);
        else content.set(path, text);
      }
      const dir = join(scratch, String(i), "content");
      for (const [path, text] of content) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      }
      const built = await runBuild({
        contentDir: dir,
        cwd: join(scratch, String(i)),
        write: false,
        cacheDir: false,
        profile: testProfile(PREVIEW_COMPRESSION, false),
        env: { SOURCE_DATE_EPOCH: String(version.seconds) },
      });
      if (!built.ok)
        throw new Error(`version ${i} does not build: ${JSON.stringify(built.diagnostics)}`);
      const entry = built.manifest.datasets.find((d) => d.dataset === dataset)!;
      const file = built.files.find((f) => `/${f.path}` === entry.variants.identity.asset)!;
      const body = Buffer.from(file.bytes).toString("utf8");
      if (out[0] && withoutDate(out[0].body) === withoutDate(body)) continue;
      out.unshift({ seconds: version.seconds, entry, body });
    }
    return out;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
