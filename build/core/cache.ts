/**
 * A content-addressed cache under .cache/build/: results of checking a file, keyed by the hash of
 * its text, its path and everything that could change the result (the schemas, the yaml and ajv
 * versions, the code that checks a file, this cache's format); each data set's published body,
 * keyed by its files' keys, its LastUpdated and the site settings; compressed variants, keyed by
 * the hash of the bytes compressed and the settings. A rebuild after one edit parses and validates one file and recompresses one
 * data set. Only what a successful run used is kept, so the cache never outgrows the content.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { extname, join } from "node:path";
import type { AnySchemaObject } from "ajv";
import { fileURLToPath } from "node:url";
import { moduleClosure } from "./code-fingerprint.js";

// Bump when the shape of cached entries changes.
const CACHE_FORMAT = 1;

export function sha256(...parts: (string | Uint8Array)[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex");
}

// Everything outside a file that decides what checking it gives, or what body a data set gets:
// the parsers' versions, the schemas, and the code of every module the build runs (pipeline.ts
// and what it imports), so editing a message, a rule or the serialising can never let a rebuild
// reuse results made by the old code.
function cacheFingerprint(schemaTexts: readonly string[]): string {
  const require = createRequire(import.meta.url);
  const version = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;
  const code = moduleClosure(
    new URL(`../pipeline${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
  );
  return sha256(
    String(CACHE_FORMAT),
    version("yaml"),
    version("ajv"),
    version("ajv-formats"),
    version("postcode"),
    ...code.map(([, text]) => text),
    ...schemaTexts,
  );
}

/** The cache in `dir` for checks against these schemas, or none when `dir` is false. */
export function openCache(
  dir: string | false,
  schemas: ReadonlyMap<string, AnySchemaObject>,
): BuildCache | undefined {
  if (dir === false) return undefined;
  return new BuildCache(dir, cacheFingerprint([...schemas.values()].map((s) => JSON.stringify(s))));
}

export class BuildCache {
  private readonly used = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly fingerprint: string,
  ) {}

  key(...parts: (string | Uint8Array)[]): string {
    return sha256(this.fingerprint, ...parts);
  }

  async get(key: string, kind: string): Promise<Buffer | undefined> {
    try {
      const bytes = await readFile(join(this.dir, `${key}.${kind}`));
      this.used.add(`${key}.${kind}`);
      return bytes;
    } catch {
      return undefined;
    }
  }

  /** The entry at `key`, made by `make` and stored when the cache does not hold it yet. */
  async through(key: string, kind: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const hit = await this.get(key, kind);
    if (hit) return hit;
    const bytes = await make();
    await this.set(key, kind, bytes);
    return bytes;
  }

  async set(key: string, kind: string, bytes: Uint8Array | string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeFile(join(this.dir, `${key}.${kind}`), bytes);
    this.used.add(`${key}.${kind}`);
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
