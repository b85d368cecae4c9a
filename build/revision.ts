/**
 * Builds the content of one git revision without writing anything: the revision's content folder
 * is extracted with `git archive` into a temporary folder and run through the same steps as
 * `npm run validate` (runValidate): checked, and each data set's body made, but nothing compressed,
 * indexed or documented, which neither reader looks at. Used by the change summary
 * (`npm run diff`) and by the publication guard's `--baseline-ref`.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, sep } from "node:path";
import type { Envelope } from "./assemble/envelope.js";
import type { DatasetId } from "./core/datasets.js";
import type { Diagnostic } from "./core/diagnostics.js";
import { git, ObjectReader, type Repository } from "./core/git.js";
import { runValidate, type CheckOptions, type PublishedCountsOf } from "./pipeline.js";

/** One revision's content as the build sees it, built without writing. */
export interface BuiltRevision {
  /** What the reader calls it: the ref as given (or "work tree"), with the short commit id. */
  readonly label: string;
  /** Full commit id; undefined for the work tree. */
  readonly commit: string | undefined;
  /** False when the revision has no content folder at all (nothing was published from it). */
  readonly hasContent: boolean;
  /** Problems that stopped its build; empty when it built. */
  readonly problems: readonly Diagnostic[];
  /** Its data-quality warnings; empty when it did not build. */
  readonly warnings: readonly Diagnostic[];
  /** Each data set's record count; undefined when it has no content or did not build. */
  readonly counts: PublishedCountsOf | undefined;
  /** The published bodies by data set; empty when it has no content or did not build. */
  readonly bodies: ReadonlyMap<DatasetId, Envelope>;
}

/** A git problem worth a one-line message (unknown revision, not a repository, …). */
export class RevisionError extends Error {}

/**
 * The build cache a revision's build reads and writes, as the pipeline takes it: the caller's
 * (`--cache DIR` and `--no-cache` hold for the revisions a command builds, not only for its own
 * build).
 */
export type RevisionCache = CheckOptions["cacheDir"];

/** The work tree's own content folder, built as it is on disk (edits and untracked files too). */
export async function buildWorkTree(
  contentDir: string,
  cwd: string,
  cacheDir?: RevisionCache,
): Promise<BuiltRevision> {
  return build("work tree", undefined, contentDir, cwd, {}, cacheDir);
}

/**
 * The content folder as committed at `ref`. `contentDir` is the work tree's content folder: its
 * place in the repository says which folder to take from the revision.
 */
export async function buildRevision(
  contentDir: string,
  ref: string,
  cwd: string,
  cacheDir?: RevisionCache,
): Promise<BuiltRevision> {
  const repo = await repositoryOf(contentDir);
  const { commit, time, hasContent } = await lookUp(repo.top, ref, repo.prefix);
  const short = commit.slice(0, 7);
  const label = commit.startsWith(ref.toLowerCase()) ? short : `${ref} (${short})`;
  if (!hasContent) {
    return {
      label,
      commit,
      hasContent: false,
      problems: [],
      warnings: [],
      counts: undefined,
      bodies: new Map(),
    };
  }
  const temp = await mkdtemp(join(tmpdir(), "opendata-edge-revision-"));
  try {
    // Laid out as in the repository, so problems are reported at the paths the editor knows.
    const extracted = join(temp, ...repo.prefix.split("/"));
    await mkdir(extracted, { recursive: true });
    await extract(repo.top, `${commit}:${repo.prefix}`, extracted);
    const displayFrom = join(temp, relative(repo.top, await realpath(cwd)));
    // Outside a git work tree the build dates data sets by SOURCE_DATE_EPOCH: the commit's time.
    // The build cache is keyed by the printed path (content/…) and the text, so the files a
    // revision shares with the work tree are not parsed again.
    return await build(
      label,
      commit,
      extracted,
      displayFrom,
      { SOURCE_DATE_EPOCH: time },
      cacheDir,
    );
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function build(
  label: string,
  commit: string | undefined,
  contentDir: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  cacheDir: RevisionCache,
): Promise<BuiltRevision> {
  const result = await runValidate({ contentDir, cwd, env, cacheDir });
  const bodies = new Map<DatasetId, Envelope>();
  for (const { dataset, identity } of result.ok ? result.datasets : []) {
    const body = JSON.parse(identity.toString("utf8")) as Envelope;
    const before = bodies.get(dataset);
    bodies.set(dataset, before ? everyBrand(before, body) : body);
  }
  return {
    label,
    commit,
    hasContent: true,
    problems: result.diagnostics,
    warnings: result.quality.warnings,
    // Each body's count (a ValidatedBody is one), each site's with Sites.
    counts: result.ok ? result.published : undefined,
    bodies,
  };
}

/** The repository holding the content folder, which is never its top (the prefix is never ""). */
async function repositoryOf(contentDir: string): Promise<Pick<Repository, "top" | "prefix">> {
  // Real paths on both sides: git reports the top folder with symbolic links resolved.
  const from = await realpath(dirname(contentDir));
  const content = join(from, basename(contentDir));
  let top: string;
  try {
    top = (await git(from, ["rev-parse", "--show-toplevel"])).trim();
  } catch {
    throw new RevisionError(`${from} is not inside a git repository, so it has no revisions`);
  }
  const prefix = relative(top, content).split(sep).join("/");
  if (prefix === "" || prefix.startsWith("..")) {
    throw new RevisionError(`the content folder ${contentDir} is not inside the repository ${top}`);
  }
  return { top, prefix };
}

/**
 * The commit `ref` names, its committer time (as `%ct` gives it) and whether it has the content
 * folder, from one `git cat-file --batch` (ObjectReader): the commit object and
 * `<commit>:<prefix>`. Where four processes (rev-parse --verify, cat-file -e, show -s) asked the
 * same.
 */
async function lookUp(
  top: string,
  ref: string,
  prefix: string,
): Promise<{ commit: string; time: string; hasContent: boolean }> {
  const notACommit = () =>
    new RevisionError(
      `"${ref}" is not a commit in this repository (in CI, check out with full history: fetch-depth: 0)`,
    );
  if (ref.startsWith("-")) throw new RevisionError(`"${ref}" is not a revision`);
  const reader = new ObjectReader({ top });
  try {
    const found = await reader.find(`${ref}^{commit}`).catch(() => undefined);
    if (found?.type !== "commit") throw notACommit();
    // The committer line, "committer <name> <<email>> <seconds> <zone>", is before the message.
    const headers = found.bytes.toString("utf8").split("\n\n", 1)[0]!;
    const committer = /^committer .* (\d+) [+-]\d{4}$/m.exec(headers);
    if (!committer) throw notACommit();
    const folder = await reader.find(`${found.hash}:${prefix}`);
    return { commit: found.hash, time: committer[1]!, hasContent: folder !== undefined };
  } finally {
    reader.close();
  }
}

/** `git archive <tree> | tar -x -C <into>`, without a shell. */
function extract(top: string, tree: string, into: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const archive = spawn("git", ["archive", "--format=tar", tree], {
      cwd: top,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const untar = spawn("tar", ["-x", "-f", "-", "-C", into], {
      stdio: ["pipe", "ignore", "pipe"],
    });
    let errors = "";
    archive.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    untar.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    archive.stdout.pipe(untar.stdin);
    let pending = 2;
    let failed = false;
    const done = (name: string) => (code: number | null) => {
      if (code !== 0 && !failed) {
        failed = true;
        reject(new RevisionError(`${name} of ${tree} failed: ${errors.trim() || `exit ${code}`}`));
      }
      if (--pending === 0 && !failed) resolve();
    };
    archive.on("error", reject);
    untar.on("error", reject);
    archive.on("close", done("git archive"));
    untar.on("close", done("tar"));
  });
}

/**
 * With site.yaml's Sites a data set has a body per site, and a brand may be in several (its own
 * site's and the group's): the revision is compared as the content is, each brand once, in the
 * order the sites first publish them.
 */
function everyBrand(a: Envelope, b: Envelope): Envelope {
  const brands = [...a.data, ...b.data].flatMap((d) => d.Brand);
  const seen = new Set<unknown>();
  const unique = brands.filter((brand) => !seen.has(brand.BrandName) && seen.add(brand.BrandName));
  return { meta: a.meta, data: unique.length === 0 ? [] : [{ Brand: unique }] };
}
