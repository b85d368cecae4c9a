/**
 * Past versions' content, read from git through the build cache: a tree's YAML files (keyed by
 * the tree's hash), and each file's facts (history/facts.ts; site.yaml's settings), keyed by its
 * blob's hash and the code that reads it (facts.ts, pastForm), not by the whole build's: a file's text never changes
 * under its hash, so a file that many versions share is parsed once, ever, and an upgrade that
 * does not change how records are published parses none again. A build whose history has not
 * moved reads none of it; a new commit parses only the files it changed. Files are parsed by
 * build/read/ as the build parses them, and never checked again
 * (docs/decisions.md#what-a-past-version-is). A file's records' texts are held for the build that
 * read it, for a past body's ETag (version.ts), and the file is read again only when one is wanted later.
 */
import { availableParallelism } from "node:os";
import { promisify } from "node:util";
import { gunzipSync, gzip } from "node:zlib";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BuildCache } from "../core/cache.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { PROJECT_ROOT } from "../core/paths.js";
import { ThreadPool } from "../core/thread-pool.js";
import type { SiteSettings } from "../read/site.js";
import {
  pastForm,
  readFileTask,
  type PastFileFacts,
  type FileReply,
  type FileTask,
} from "./facts.js";
import { ObjectReader, type Repository, type TreeFile } from "./git.js";
import type { BrandChange, BrandChanges } from "./records.js";
import { publicationForm, type BrandPublication, type BrandPublications } from "./publications.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";

// Below this much YAML, starting threads costs more than they save: a thread starts in about
// 30 ms, and the build's parser reads about 20 MB/s.
const PARALLEL_BYTES = 2 * 1024 * 1024;

// How much YAML is read and parsed at a time, and how many blobs one read asks git for: enough
// to keep every thread busy, little enough that a cold build of a group does not hold hundreds of
// megabytes of past files at once.
const BATCH_BYTES = 48 * 1024 * 1024;
const BLOBS_PER_READ = 16;

// A parse makes many short-lived objects: a thread's young generation as large as a check
// thread's (check/pool.ts) keeps the collector from running every few files.
const YOUNG_GENERATION_MB = 192;

// The worker thread's script (thread.ts). Compiled, it sits beside this file; when this module
// runs as TypeScript source (under vitest) the compiled copy in .out/ is used, as check/pool.ts's.
const THREAD_URL = import.meta.url.endsWith(".ts")
  ? pathToFileURL(join(PROJECT_ROOT, ".out", "build", "history", "thread.js"))
  : new URL("./thread.js", import.meta.url);

const TREE_KIND = CACHE_KINDS.historyTree;
const FACTS_KIND = CACHE_KINDS.historyFacts;

/** What is kept of a file: a brand file's facts, site.yaml's settings; undefined when unusable. */
export type Kept = PastFileFacts | SiteSettings | undefined;

// The facts of a brand file as kept: records as [id, hash, label] to keep the entries small.
interface KeptFacts {
  readonly b: string | undefined;
  readonly s: string;
  readonly r: readonly (readonly [string, string, string])[];
}

/**
 * What a store has read of git objects, by their hashes: a build's own, or the live preview
 * session's for all its rebuilds (core/memory.ts, "history-objects"), so a save reads no past
 * file's facts again, not even from the cache. Objects never change under their hashes.
 */
export interface HistoryObjects {
  readonly trees: Map<string, Promise<TreeFile[]>>;
  readonly made: Map<string, Kept>;
  /** What is made of objects alone (a version's facts, a brand's publication between two): see derived. */
  readonly derived: Map<string, unknown>;
  /**
   * Brands' changes since past versions (records.ts, BrandChanges): this build's, and the build
   * before's, which a build takes over as it uses them; older ones go, since each save makes its
   * edited brand's anew.
   */
  readonly changes: {
    current: Map<string, BrandChange | null>;
    previous: Map<string, BrandChange | null>;
  };
}

export const historyObjects = (): HistoryObjects => ({
  trees: new Map(),
  made: new Map(),
  derived: new Map(),
  changes: { current: new Map(), previous: new Map() },
});

export class HistoryStore {
  private readonly trees: Map<string, Promise<TreeFile[]>>;
  /** Cache entries this run relies on, kept from pruning (BuildCache.keep). */
  readonly entries = new Set<string>();
  /** What this run read from git: files parsed, and past bodies rebuilt (VersionReader). */
  readonly counts = { parsed: 0, rebuilt: 0 };

  /** Reads the trees and blobs no cache had, on one git process for the build. */
  private readonly objects: ObjectReader;

  constructor(
    repo: Repository,
    private readonly cache: BuildCache | undefined,
    /** What was read before (a preview session's); default: this store's own. */
    objects: HistoryObjects = historyObjects(),
    /** Worker threads for reading many past files at once; default: the cores available. */
    private readonly threads = availableParallelism(),
  ) {
    this.objects = new ObjectReader(repo);
    this.trees = objects.trees;
    this.made = objects.made;
    this.derivedValues = objects.derived;
    // A new build: what the last one worked out stays for this one to take, no longer.
    objects.changes.previous = objects.changes.current;
    objects.changes.current = new Map();
    const { changes } = objects;
    this.brandChanges = {
      get: (key) => {
        if (changes.current.has(key)) return changes.current.get(key);
        if (!changes.previous.has(key)) return undefined;
        const change = changes.previous.get(key)!;
        changes.current.set(key, change);
        return change;
      },
      set: (key, change) => void changes.current.set(key, change),
    };
  }

  /** Brands' changes since past versions, for every site and the build after (records.ts). */
  readonly brandChanges: BrandChanges;

  /**
   * Brands' parts of publications between two past versions (publications.ts), for every site:
   * held as derived values are, and kept in the cache, by the parts' form (publicationForm), so
   * a build after an edit tells the past publications without comparing their versions again.
   */
  readonly brandPublications: BrandPublications = {
    through: (key, make) =>
      this.derived(`publication\0${key}`, async () => {
        const entry = this.cache?.objectKey(FACTS_KIND, publicationForm(), key);
        if (!entry) return make();
        this.entries.add(`${entry}\0${FACTS_KIND}`);
        const hit = await this.cache!.get(entry, FACTS_KIND);
        if (hit) return JSON.parse(hit.toString("utf8")) as BrandPublication;
        const part = make();
        await this.cache!.set(entry, FACTS_KIND, JSON.stringify(part));
        return part;
      }),
  };

  private readonly derivedValues: Map<string, unknown>;

  /**
   * The value `make` gives for `key`, made once per store (or preview session): for what depends
   * only on git objects named in the key, which never change under their hashes.
   */
  async derived<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (this.derivedValues.has(key)) return this.derivedValues.get(key) as T;
    const value = await make();
    this.derivedValues.set(key, value);
    return value;
  }

  /** Ends the git process and the threads, if started; the store reads nothing more from git. */
  close(): void {
    this.objects.close();
    this.threadPool?.close();
  }

  /** The regular files below `tree`, recursively. */
  files(tree: string): Promise<TreeFile[]> {
    let files = this.trees.get(tree);
    if (!files) {
      files = this.readTree(tree);
      this.trees.set(tree, files);
      // A failed read is not kept: the next build asks git again.
      files.catch(() => this.trees.delete(tree));
    }
    return files;
  }

  private async readTree(tree: string): Promise<TreeFile[]> {
    const key = this.cache?.key(TREE_KIND, tree);
    if (key) {
      this.entries.add(`${key}\0${TREE_KIND}`);
      const hit = await this.cache!.get(key, TREE_KIND);
      if (hit) return JSON.parse(hit.toString("utf8")) as TreeFile[];
    }
    const files = await this.objects.treeFiles(tree);
    if (key) await this.cache!.set(key, TREE_KIND, JSON.stringify(files));
    return files;
  }

  /**
   * Each blob's facts for `dataset` (facts.ts), by hash; undefined where the file does not
   * parse or could not have been published.
   */
  async facts(
    dataset: DatasetDefinition,
    hashes: readonly string[],
  ): Promise<Map<string, PastFileFacts | undefined>> {
    const kind = { recordsKey: dataset.recordsKey };
    const kept = await this.kept(dataset.id, kind, hashes);
    return kept as Map<string, PastFileFacts | undefined>;
  }

  /** site.yaml's settings at a blob: what a body's meta takes of it (License, TermsOfUse). */
  async siteSettings(hash: string): Promise<SiteSettings | undefined> {
    const kept = await this.kept("site", "site", [hash]);
    return kept.get(hash) as SiteSettings | undefined;
  }

  /**
   * Each blob's records' JSON texts, in order, joined (facts.ts, ReadFile): held from this build's
   * reading of the file, or read again (a file whose facts a build before kept).
   */
  async joined(
    dataset: DatasetDefinition,
    hashes: readonly string[],
  ): Promise<Map<string, Buffer | undefined>> {
    const wanted = [...new Set(hashes)];
    const missing = wanted.filter((hash) => !this.held.has(hash));
    if (missing.length > 0)
      await this.read(dataset.id, { recordsKey: dataset.recordsKey }, missing);
    return new Map(wanted.map((hash) => [hash, this.held.get(hash)]));
  }

  // Records' texts by blob, held for this build only: a past body's bytes are wanted once.
  private readonly held = new Map<string, Buffer | undefined>();
  private readonly made: Map<string, Kept>;

  // What is kept of each blob for `name` (a data set's id, or "site"), from this build, the
  // cache, or reading it.
  private async kept(
    name: string,
    kind: FileTask["kind"],
    hashes: readonly string[],
  ): Promise<Map<string, Kept>> {
    const wanted = [...new Set(hashes)];
    const id = (hash: string) => `${name}\0${hash}`;
    // Each blob is worked out by the first caller to want it; another caller (another site)
    // waits for that, rather than read it again.
    const waits: Promise<void>[] = [];
    const mine: string[] = [];
    for (const hash of wanted) {
      if (this.made.has(id(hash))) continue;
      const other = this.reading.get(id(hash));
      if (other) waits.push(other);
      else mine.push(hash);
    }
    if (mine.length > 0) {
      const work = this.keepNew(name, kind, mine, id);
      for (const hash of mine) this.reading.set(id(hash), work);
      try {
        await work;
      } finally {
        for (const hash of mine) this.reading.delete(id(hash));
      }
    }
    await Promise.all(waits);
    return new Map(wanted.map((hash) => [hash, this.made.get(id(hash))]));
  }

  // What is kept of blobs not made yet: from the cache, or read, and kept in the cache.
  private async keepNew(
    name: string,
    kind: FileTask["kind"],
    hashes: readonly string[],
    id: (hash: string) => string,
  ): Promise<void> {
    const missing: string[] = [];
    await Promise.all(
      hashes.map(async (hash) => {
        const key = this.cache?.objectKey(FACTS_KIND, pastForm(), KEPT_FORM, name, hash);
        if (key) {
          this.entries.add(`${key}\0${FACTS_KIND}`);
          const hit = await this.cache!.get(key, FACTS_KIND);
          if (hit) {
            this.made.set(id(hash), hit.length === 0 ? undefined : decodeKept(name, hit));
            return;
          }
        }
        missing.push(hash);
      }),
    );
    if (missing.length === 0) return;
    const read = await this.read(name, kind, missing);
    // Written together: one after another, a cold build's hundred entries took seconds.
    await Promise.all(
      [...read].map(([hash, kept]) => {
        this.made.set(id(hash), kept);
        const key = this.cache?.objectKey(FACTS_KIND, pastForm(), KEPT_FORM, name, hash);
        return key
          ? (kept ? encodeKept(name, kept) : Promise.resolve(Buffer.alloc(0))).then((bytes) =>
              this.cache!.set(key, FACTS_KIND, bytes),
            )
          : Promise.resolve();
      }),
    );
  }

  // Reads under way, by what they are kept as: each blob's read, until its facts are made.
  private readonly reading = new Map<string, Promise<void>>();

  // Reads blobs from git and parses them, a few megabytes of YAML at a time so that what is held
  // at once stays small (a cold build of a group reads hundreds of megabytes): on worker threads
  // when a batch is large enough to repay them (a cold build's past versions), else on this
  // thread. Records' texts are held.
  private async read(
    name: string,
    kind: FileTask["kind"],
    hashes: readonly string[],
  ): Promise<Map<string, Kept>> {
    this.counts.parsed += hashes.length;
    const out = new Map<string, Kept>();
    // The next batch is read from git while the threads parse this one: git's inflating and the
    // parsing overlap, and neither waits for the other.
    let next = this.batchAt(hashes, 0, kind);
    for (;;) {
      const { batch, tasks, size, end } = await next;
      if (tasks.length === 0) break;
      next = this.batchAt(hashes, end, kind);
      const threads = Math.min(this.threads, tasks.length);
      const replies =
        threads > 1 && size >= PARALLEL_BYTES
          ? await this.pool().run(tasks)
          : tasks.map(readFileTask);
      replies.forEach((reply, i) => {
        const hash = batch[i]!;
        if ("settings" in reply) out.set(hash, reply.settings);
        else {
          out.set(hash, reply.facts);
          // A thread's buffer arrives as a plain Uint8Array: the same bytes, viewed as a Buffer.
          const joined = reply.joined;
          this.held.set(
            hash,
            joined && Buffer.from(joined.buffer, joined.byteOffset, joined.byteLength),
          );
        }
      });
    }
    return out;
  }

  // The blobs from `from` on, read from git until they hold BATCH_BYTES of YAML (their sizes are
  // known only once read), as tasks; `end` is where the next batch starts.
  private async batchAt(hashes: readonly string[], from: number, kind: FileTask["kind"]) {
    const batch: string[] = [];
    const tasks: FileTask[] = [];
    let size = 0;
    let end = from;
    while (end < hashes.length && size < BATCH_BYTES) {
      const chunk = hashes.slice(end, end + BLOBS_PER_READ);
      end += chunk.length;
      const bytes = await this.objects.readBlobs(chunk);
      for (const hash of chunk) {
        const text = bytes.get(hash)!.toString("utf8");
        size += text.length;
        batch.push(hash);
        tasks.push({ text, name: hash, kind });
      }
    }
    return { batch, tasks, size, end };
  }

  private threadPool: ThreadPool<FileTask, FileReply> | undefined;

  // The threads, started when first wanted and kept until close().
  private pool(): ThreadPool<FileTask, FileReply> {
    this.threadPool ??= new ThreadPool<FileTask, FileReply>({
      script: THREAD_URL,
      threads: this.threads,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    return this.threadPool;
  }

  /** The entries to keep when a later run reuses this run's result without reading them. */
  list(): string[] {
    return [...this.entries];
  }
}

// How a blob's facts are stored: gzipped JSON. A group's past files' facts are most of its cache
// (28.6 MB of JSON for 388 files in the group repository of bench/group-repo.ts, 14.2 MB gzipped
// at level 1, which costs under 1 ms a file, on libuv's threads); read back only for versions a
// build does not hold in memory.
const KEPT_FORM = "gzip-1";
const gzipped = promisify(gzip);

async function encodeKept(name: string, kept: NonNullable<Kept>): Promise<Buffer> {
  if (name === "site") return gzipped(JSON.stringify(kept), { level: 1 });
  const facts = kept as PastFileFacts;
  const value: KeptFacts = {
    b: facts.brandName,
    s: facts.shell,
    r: facts.records.map((r) => [r.id, r.hash, r.label ?? ""] as const),
  };
  return gzipped(JSON.stringify(value), { level: 1 });
}

function decodeKept(name: string, bytes: Buffer): Kept {
  const value = JSON.parse(gunzipSync(bytes).toString("utf8")) as unknown;
  if (name === "site") return value as SiteSettings;
  const { b, s, r } = value as KeptFacts;
  return {
    brandName: b ?? undefined,
    shell: s,
    records: r.map(([id, hash, label]) => ({ id, hash, label })),
  };
}
