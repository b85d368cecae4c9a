/**
 * A content-addressed cache under .cache/build/: results of checking a file, keyed by the hash of
 * its text, its path and everything that could change the result (the schemas, the js-yaml, yaml and ajv
 * versions, the code that checks a file, this cache's format); each data set's published body,
 * keyed by its files' keys, its LastUpdated and the site settings; compressed variants, keyed by
 * the hash of the bytes compressed and the settings. A rebuild after one edit parses and validates one file and recompresses one
 * data set. Only what a successful run used is kept, so the cache never outgrows the content.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { extname, join } from "node:path";
import type { AnySchemaObject } from "ajv";
import { fileURLToPath } from "node:url";
import { moduleClosure } from "./code-fingerprint.js";
import { displayPath, PROJECT_ROOT } from "./paths.js";
import type { BuildMemory } from "./memory.js";
import { CACHE_KINDS } from "./cache-kinds.js";

// Bump when the shape of cached entries changes. 2: a body and what is known of it, a data set's
// answers and their summary, and a body's brotli and gzip are one entry each (framed).
const CACHE_FORMAT = 2;

/**
 * Parts in one entry, so what belongs together is read and written once: each part's length (4
 * bytes, big-endian) and then the part. A JSON text goes in as its UTF-8 bytes.
 */
export function framed(...parts: readonly (Uint8Array | string)[]): Buffer {
  const buffers = parts.map((part) =>
    typeof part === "string" ? Buffer.from(part, "utf8") : asBuffer(part),
  );
  const out = Buffer.allocUnsafe(buffers.reduce((n, b) => n + 4 + b.length, 0));
  let at = 0;
  for (const buffer of buffers) {
    at = out.writeUInt32BE(buffer.length, at);
    at += buffer.copy(out, at);
  }
  return out;
}

/**
 * The parts of a framed entry, as views of its bytes; undefined when it does not hold exactly
 * `count` whole parts (an entry cut short is a miss, never a wrong value).
 */
export function unframed(entry: Buffer, count: number): Buffer[] | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 4 <= entry.length && parts.length < count) {
    const length = entry.readUInt32BE(at);
    at += 4;
    if (at + length > entry.length) return undefined;
    parts.push(entry.subarray(at, at + length));
    at += length;
  }
  return parts.length === count && at === entry.length ? parts : undefined;
}

export function sha256(...parts: (string | Uint8Array)[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex");
}

/**
 * Everything outside a file that decides what checking it gives, or what body a data set gets,
 * each part hashed on its own so a rebuild can say which one changed: the cache's format, the
 * parsers' versions, the code of every module the build runs (pipeline.ts and what it imports,
 * so editing a message, a rule or the serialising can never let a rebuild reuse results made by
 * the old code), and the schemas.
 */
export interface FingerprintParts {
  readonly format: number;
  /** Package name to version. */
  readonly packages: Readonly<Record<string, string>>;
  /** Module path (relative to the project, `/`-separated) to the hash of its text. */
  readonly code: Readonly<Record<string, string>>;
  /** Schema name to the hash of its text. */
  readonly schemas: Readonly<Record<string, string>>;
}

// Per process, not per build (core/memory.ts): the code running cannot change while it runs.
let runningCode: [path: string, hash: string][] | undefined;

function fingerprintParts(schemas: ReadonlyMap<string, AnySchemaObject>): FingerprintParts {
  const require = createRequire(import.meta.url);
  const version = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;
  // The code running cannot change while the process runs: read it once.
  runningCode ??= moduleClosure(
    new URL(`../pipeline${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
  ).map(([path, text]) => [sourceName(displayPath(PROJECT_ROOT, path)), sha256(text)]);
  const packages = ["js-yaml", "yaml", "ajv", "ajv-formats", "postcode"];
  return {
    format: CACHE_FORMAT,
    packages: Object.fromEntries(packages.map((p) => [p, version(p)])),
    code: Object.fromEntries(runningCode),
    schemas: Object.fromEntries([...schemas].map(([name, s]) => [name, sha256(JSON.stringify(s))])),
  };
}

// The source file a compiled module comes from (.out/build/pipeline.js is build/pipeline.ts), as editors know it.
const sourceName = (path: string) => path.replace(/^\.out\/(.*)\.js$/, "$1.ts");

// Where the cache notes what its entries were made with, to say why a build could not use them.
const FINGERPRINT = { key: "fingerprint", kind: CACHE_KINDS.fingerprint } as const;

/**
 * Why a build can reuse none of the cache's entries (`previous`: what they were made with, or
 * undefined for an empty cache), in words for one line; undefined when nothing changed.
 */
export function cacheMissReason(
  previous: FingerprintParts | undefined,
  current: FingerprintParts,
): string | undefined {
  if (!previous) return "the cache is empty";
  if (previous.format !== current.format) return "the cache's format changed";
  // What differs between two name-to-hash tables: changed, added and removed names, sorted.
  const changed = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) =>
    [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
  const list = (names: string[]) =>
    names.length <= 3
      ? names.join(", ")
      : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;
  const reasons: string[] = [];
  const packages = changed(previous.packages, current.packages);
  if (packages.length > 0) {
    const was = (p: string) =>
      `${p} ${previous.packages[p] ?? "none"} to ${current.packages[p] ?? "none"}`;
    reasons.push(`a parser was updated (${packages.map(was).join(", ")})`);
  }
  const code = changed(previous.code, current.code);
  if (code.length > 0) reasons.push(`the build's code changed (${list(code)})`);
  const schemas = changed(previous.schemas, current.schemas);
  if (schemas.length > 0) reasons.push(`the schemas changed (${list(schemas)})`);
  return reasons.length > 0 ? reasons.join("; ") : undefined;
}

/**
 * The cache in `dir` for checks against these schemas, or none when `dir` is false. With a memory
 * kept between builds (the live preview's session's, BuildProfile.memory), its entries are held
 * there and written behind: see BuildCache's `memory`.
 */
export function openCache(
  dir: string | false,
  schemas: ReadonlyMap<string, AnySchemaObject>,
  memory?: BuildMemory,
): BuildCache | undefined {
  if (dir === false) return undefined;
  const parts = fingerprintParts(schemas);
  const entries = memory?.part("cache-entries", () => new Map<string, Buffer>());
  return new BuildCache(dir, sha256(JSON.stringify(parts)), parts, entries);
}

// Writes started by caches that write behind and not yet finished, by file name: a read of one
// gets its bytes from here, so no build ever misses an entry only because it is still being written.
// Per process, not per build (core/memory.ts): these are the files' state on their way to disk,
// which every cache of the process reading that folder must see, whichever build started them.
const writingBehind = new Map<
  string,
  { readonly bytes: Uint8Array | string; done: Promise<void> }
>();

/** Resolves when every entry written behind so far is on disk (the preview waits for it before it exits). */
export async function writesBehindDone(): Promise<void> {
  while (writingBehind.size > 0) await Promise.all([...writingBehind.values()].map((w) => w.done));
}

// Names the partial files of this process's writes apart from each other (set, below): per
// process, as the process id it goes with.
let nextPartial = 0;

export class BuildCache {
  private readonly used = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly fingerprint: string,
    /** What the fingerprint is made of; without it, the cache never says why it missed. */
    private readonly parts?: FingerprintParts,
    /**
     * Entries kept in memory between the builds of one process (the live preview's), by file
     * name: read from there before the disk, and written behind (see set). A set P rebuild read
     * about 15 MB of unchanged bodies and their variants back from disk each time. Holds what the
     * last build used (keepOnlyUsed). Entries are never changed once made, so sharing them is safe.
     */
    private readonly memory?: Map<string, Buffer>,
  ) {}

  /**
   * Why this build can reuse none of the entries (see cacheMissReason), or undefined when it can.
   * Reads what the cache's entries were made with; the next prune records the current parts.
   */
  async missReason(): Promise<string | undefined> {
    if (!this.parts) return undefined;
    let previous: FingerprintParts | undefined;
    try {
      previous = JSON.parse(
        await readFile(join(this.dir, `${FINGERPRINT.key}.${FINGERPRINT.kind}`), "utf8"),
      ) as FingerprintParts;
    } catch {
      previous = undefined;
    }
    return cacheMissReason(previous, this.parts);
  }

  key(...parts: (string | Uint8Array)[]): string {
    return sha256(this.fingerprint, ...parts);
  }

  /**
   * A key for what is made from immutable objects (git's blobs and trees, by their hashes) by a
   * form the caller names and versions itself: without the code's fingerprint, so an upgrade of
   * the build that does not change that form reuses it. The parsers' versions and the cache's
   * format are in it still: a new parser may read a file otherwise.
   */
  objectKey(...parts: (string | Uint8Array)[]): string {
    return sha256("object", String(this.objectBase), ...parts);
  }

  // The cache's format and the parsers' versions, from the fingerprint's parts (none: the code's).
  private get objectBase(): string {
    return this.parts ? JSON.stringify([this.parts.format, this.parts.packages]) : this.fingerprint;
  }

  async get(key: string, kind: string): Promise<Buffer | undefined> {
    const name = `${key}.${kind}`;
    const held = this.memory?.get(name);
    if (held) {
      this.used.add(name);
      return held;
    }
    const pending = writingBehind.get(join(this.dir, name));
    if (pending) {
      this.used.add(name);
      return Buffer.from(pending.bytes);
    }
    try {
      const bytes = await readFile(join(this.dir, name));
      this.used.add(name);
      this.memory?.set(name, bytes);
      return bytes;
    } catch {
      return undefined;
    }
  }

  /**
   * The entry at `key`, made by `make` (at once or in time) and stored when the cache does not
   * hold it yet.
   */
  async through(key: string, kind: string, make: () => Buffer | Promise<Buffer>): Promise<Buffer> {
    const hit = await this.get(key, kind);
    if (hit) return hit;
    const bytes = await make();
    await this.set(key, kind, bytes);
    return bytes;
  }

  /**
   * Stores an entry whole or not at all: written beside its name, then renamed over it, so a
   * build running at the same time on the same cache (`npm start` and `npm run build`, two CLIs
   * of a test run) reads an entry as it was or as it is, never half written. An entry lost to
   * that other build's prune is only a miss for the next build.
   */
  async set(key: string, kind: string, bytes: Uint8Array | string): Promise<void> {
    const name = `${key}.${kind}`;
    this.used.add(name);
    if (!this.memory) return this.write(name, bytes);
    this.memory.set(name, typeof bytes === "string" ? Buffer.from(bytes, "utf8") : asBuffer(bytes));
    // Written behind: the build goes on at once, rather than wait for its writes
    // (bench/results/2026-11-27-precompiled-validators-and-the-previews-rebuild.md, "The preview's cache"). A write that fails costs only a miss later.
    const path = join(this.dir, name);
    const entry = { bytes, done: Promise.resolve() };
    writingBehind.set(path, entry);
    entry.done = this.write(name, bytes)
      .catch(() => undefined)
      .finally(() => {
        if (writingBehind.get(path) === entry) writingBehind.delete(path);
      });
  }

  // The folder, made once per cache rather than asked for at every write.
  private made: Promise<unknown> | undefined;

  private async write(name: string, bytes: Uint8Array | string): Promise<void> {
    await (this.made ??= mkdir(this.dir, { recursive: true }).catch((error: unknown) => {
      this.made = undefined;
      throw error;
    }));
    const partial = join(this.dir, `${name}.${process.pid}-${(nextPartial++).toString(36)}.part`);
    try {
      await writeFile(partial, bytes);
      await rename(partial, join(this.dir, name));
    } catch (error) {
      await rm(partial, { force: true });
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  /**
   * Keeps an entry this run relies on without reading it (a later run may need it: the build
   * history's past versions), so prune does not remove it.
   */
  keep(key: string, kind: string): void {
    this.used.add(`${key}.${kind}`);
  }

  /** Notes what this run's entries are made with, for the next run's missReason. */
  async remember(): Promise<void> {
    if (!this.parts) return;
    await this.set(FINGERPRINT.key, FINGERPRINT.kind, JSON.stringify(this.parts));
  }

  /** Lets go of the entries held in memory that this run did not read or write. */
  keepOnlyUsed(): void {
    for (const name of this.memory?.keys() ?? [])
      if (!this.used.has(name)) this.memory!.delete(name);
  }

  /** Removes every entry this run did not read or write. */
  async prune(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    await Promise.all(
      names.filter((n) => !this.used.has(n)).map((n) => rm(join(this.dir, n), { force: true })),
    );
  }
}

// The same bytes as a Buffer, not copied.
const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
