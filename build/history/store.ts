/**
 * Past versions' content, read from git through the build cache: a tree's YAML files (keyed by
 * the tree's hash), and each file's parsed value (keyed by its blob's hash, so a file that many
 * versions share is parsed once, ever). A build whose history has not moved reads none of it; a
 * new commit parses only the files it changed. Files are parsed by build/read/ as the build
 * parses them, and never checked again (docs/decisions.md#what-a-past-version-is).
 */
import type { BuildCache } from "../core/cache.js";
import { parseYaml } from "../read/yaml-source.js";
import { ObjectReader, type Repository, type TreeFile } from "./git.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";

const TREE_KIND = CACHE_KINDS.historyTree;
const BLOB_KIND = CACHE_KINDS.historyBlob;

/** A parsed file: its value as JSON text, or undefined when it does not parse. */
export type ParsedBlob = string | undefined;

export class HistoryStore {
  private readonly trees = new Map<string, Promise<TreeFile[]>>();
  private readonly blobs = new Map<string, ParsedBlob>();
  /** Cache entries this run relies on, kept from pruning (BuildCache.keep). */
  readonly entries = new Set<string>();
  /** What this run read from git: files parsed, and past bodies rebuilt (VersionReader). */
  readonly counts = { parsed: 0, rebuilt: 0 };

  /** Reads the trees and blobs no cache had, on one git process for the build. */
  private readonly objects: ObjectReader;

  constructor(
    repo: Repository,
    private readonly cache: BuildCache | undefined,
  ) {
    this.objects = new ObjectReader(repo);
  }

  /** Ends the git process, if one was started; the store reads nothing more from git. */
  close(): void {
    this.objects.close();
  }

  /** The regular files below `tree`, recursively. */
  files(tree: string): Promise<TreeFile[]> {
    let files = this.trees.get(tree);
    if (!files) {
      files = this.readTree(tree);
      this.trees.set(tree, files);
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

  /** Each blob's parsed value as JSON text (undefined: it does not parse), by hash. */
  async parsed(hashes: readonly string[]): Promise<Map<string, ParsedBlob>> {
    const wanted = [...new Set(hashes)];
    const missing: string[] = [];
    await Promise.all(
      wanted.map(async (hash) => {
        if (this.blobs.has(hash)) return;
        const key = this.cache?.key(BLOB_KIND, hash);
        if (key) {
          this.entries.add(`${key}\0${BLOB_KIND}`);
          const hit = await this.cache!.get(key, BLOB_KIND);
          if (hit) {
            this.blobs.set(hash, hit.length === 0 ? undefined : hit.toString("utf8"));
            return;
          }
        }
        missing.push(hash);
      }),
    );
    if (missing.length > 0) {
      const bytes = await this.objects.readBlobs(missing);
      this.counts.parsed += missing.length;
      for (const hash of missing) {
        const source = parseYaml(hash, bytes.get(hash)!.toString("utf8"));
        const json = source.diagnostics.length === 0 ? JSON.stringify(source.value) : undefined;
        this.blobs.set(hash, json);
        const key = this.cache?.key(BLOB_KIND, hash);
        if (key) await this.cache!.set(key, BLOB_KIND, json ?? "");
      }
    }
    return new Map(wanted.map((hash) => [hash, this.blobs.get(hash)]));
  }

  /** Keeps every entry this run read or made from the cache's pruning. */
  keepAll(): void {
    for (const entry of this.entries) {
      const [key, kind] = entry.split("\0");
      this.cache?.keep(key!, kind!);
    }
  }

  /** The entries to keep when a later run reuses this run's result without reading them. */
  list(): string[] {
    return [...this.entries];
  }

  /** Keeps entries a reused result names. */
  keepListed(entries: readonly string[]): void {
    for (const entry of entries) this.entries.add(entry);
  }
}
