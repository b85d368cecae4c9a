/**
 * Step 1's reading of each content file's text, through what the last build saw of it: a file
 * whose size, times and inode are what they were when a build last read it, long enough after it
 * was last written, is known by the hash of the text read then, and not read again (its check
 * result comes from the cache by that hash). A rebuild after one edit of a large publisher reads
 * one file instead of all of them (set P: 123 files, 26 MB).
 *
 * The times rule is git's "racily clean" one: a file written less than RACY_MS before a build
 * read it is read again by the next build, so two writes within one tick of a coarse file-system
 * clock (1 s on some, 2 s on FAT) can never leave a stale text behind; ctime, which no tool can
 * set back, is compared as well as mtime.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { BuildCache } from "../core/cache.js";
import type { ContentFile } from "./content.js";
import { CACHE_KINDS } from "../core/cache-kinds.js";

/** One file's text, or only its hash where the text was not read. */
export interface FileText {
  /** The SHA-256 of the text, hex: what the check's cache key holds of it. */
  readonly hash: string;
  /** The text, when this build read it. */
  readonly text: string | undefined;
}

interface Seen {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly hash: string;
  /** When it was read (the clock ContentTexts.open was given: Date.now()). */
  readonly readAt: number;
}

// Newer than this when read: read again next time.
const RACY_MS = 2_000;
// Where the index is kept in the cache (not under the code's fingerprint: it says what files
// hold, not what the build makes of them).
const INDEX = { key: "content-texts", kind: CACHE_KINDS.contentTexts } as const;

/** The hash of a text, as FileText.hash. */
export function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** What the last build saw of each file (by absolute path), and what this one sees. */
export class ContentTexts {
  private readonly next = new Map<string, Seen>();

  private constructor(
    private readonly seen: ReadonlyMap<string, Seen>,
    private readonly cache: BuildCache | undefined,
    private readonly now: () => number,
  ) {}

  /**
   * The index the cache holds; without a cache every file is read. `now` is the clock a read is
   * timed by (Date.now; a test passes a later one instead of waiting out RACY_MS).
   */
  static async open(
    cache: BuildCache | undefined,
    now: () => number = Date.now,
  ): Promise<ContentTexts> {
    const bytes = await cache?.get(INDEX.key, INDEX.kind);
    let seen = new Map<string, Seen>();
    try {
      if (bytes) seen = new Map(JSON.parse(bytes.toString("utf8")) as [string, Seen][]);
    } catch {
      // An unreadable index is no index: every file is read.
    }
    return new ContentTexts(seen, cache, now);
  }

  /** The file's text, or only its hash when it is what a build already read. */
  async read(file: ContentFile): Promise<FileText> {
    const before = this.seen.get(file.path);
    if (this.cache && before) {
      const now = await stat(file.path);
      const same =
        now.size === before.size &&
        now.mtimeMs === before.mtimeMs &&
        now.ctimeMs === before.ctimeMs &&
        now.ino === before.ino;
      const settled =
        before.mtimeMs < before.readAt - RACY_MS && before.ctimeMs < before.readAt - RACY_MS;
      if (same && settled) {
        this.next.set(file.path, before);
        return { hash: before.hash, text: undefined };
      }
    }
    // Times taken before the text, so a write while reading makes them differ next time.
    const info = this.cache ? await stat(file.path) : undefined;
    const readAt = this.now();
    const text = await readFile(file.path, "utf8");
    const hash = textHash(text);
    if (info) {
      const { size, mtimeMs, ctimeMs, ino } = info;
      this.next.set(file.path, { size, mtimeMs, ctimeMs, ino, hash, readAt });
    }
    return { hash, text };
  }

  /** Keeps what this build saw for the next one. */
  async save(): Promise<void> {
    await this.cache?.set(INDEX.key, INDEX.kind, JSON.stringify([...this.next]));
  }
}
