import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BuildCache,
  cacheMissReason,
  framed,
  unframed,
  writesBehindDone,
  type FingerprintParts,
} from "../../../build/core/cache.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";

const parts: FingerprintParts = {
  format: 1,
  packages: { yaml: "2.9.1", ajv: "8.20.0" },
  code: { "build/pipeline.ts": "a", "build/check/one-file.ts": "b" },
  schemas: { "branch.schema.json": "c", "atm.schema.json": "d" },
};

describe("an entry of several parts", () => {
  it("gives back each part, a text as its UTF-8 bytes, an empty part as empty", () => {
    const entry = framed('{"etag":"é"}', Buffer.from([1, 2, 3]), new Uint8Array(0));
    // Each part after its length, four bytes big-endian: 13 bytes of text, 3, none.
    expect(entry.length).toBe(4 + 13 + 4 + 3 + 4);
    expect([...entry.subarray(0, 4)]).toEqual([0, 0, 0, 13]);
    const parts = unframed(entry, 3);
    expect(parts?.map((p) => [...p])).toEqual([
      [...Buffer.from('{"etag":"é"}', "utf8")],
      [1, 2, 3],
      [],
    ]);
  });

  it("is a miss when cut short, longer than its parts, or holding another count of parts", () => {
    const entry = framed("summary", Buffer.from("body"));
    expect(unframed(entry.subarray(0, entry.length - 1), 2)).toBeUndefined();
    expect(unframed(Buffer.concat([entry, Buffer.from([0])]), 2)).toBeUndefined();
    expect(unframed(entry, 3)).toBeUndefined();
    expect(unframed(entry, 1)).toBeUndefined();
    expect(unframed(Buffer.alloc(0), 2)).toBeUndefined();
  });
});

describe("why a build could not use its cache", () => {
  const cases: [string, FingerprintParts | undefined, FingerprintParts, string | undefined][] = [
    ["nothing changed", parts, parts, undefined],
    ["an empty cache", undefined, parts, "the cache is empty"],
    ["another cache format", parts, { ...parts, format: 2 }, "the cache's format changed"],
    [
      "one module edited",
      parts,
      { ...parts, code: { ...parts.code, "build/check/one-file.ts": "B" } },
      "the build's code changed (build/check/one-file.ts)",
    ],
    [
      "a module added",
      parts,
      { ...parts, code: { ...parts.code, "build/new.ts": "n" } },
      "the build's code changed (build/new.ts)",
    ],
    [
      "five modules edited",
      { ...parts, code: { a: "1", b: "1", c: "1", d: "1", e: "1" } },
      { ...parts, code: { a: "2", b: "2", c: "2", d: "2", e: "2" } },
      "the build's code changed (a, b, c and 2 more)",
    ],
    [
      "a schema edited",
      parts,
      { ...parts, schemas: { ...parts.schemas, "atm.schema.json": "D" } },
      "the schemas changed (atm.schema.json)",
    ],
    [
      "a parser updated and a schema edited",
      parts,
      { ...parts, packages: { ...parts.packages, yaml: "2.9.2" }, schemas: { x: "1" } },
      "a parser was updated (yaml 2.9.1 to 2.9.2); the schemas changed (atm.schema.json, branch.schema.json, x)",
    ],
  ];
  for (const [name, previous, current, expected] of cases) {
    it(`names ${name} as ${expected === undefined ? "no reason" : `"${expected}"`}`, () => {
      expect(cacheMissReason(previous, current)).toBe(expected);
    });
  }
});

describe("a build's cache note", () => {
  let fixture: Fixture | undefined;
  let cacheDir: string | undefined;
  afterEach(async () => {
    await fixture?.cleanup();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it("says the cache is empty on the first build and nothing on the next", async () => {
    fixture = await sampleFixture();
    cacheDir = await mkdtemp(join(tmpdir(), "opendata-edge-cache-"));
    const first = await buildFixture(fixture, { cacheDir });
    expect(first.cacheMiss).toBe("the cache is empty");
    const second = await buildFixture(fixture, { cacheDir });
    expect(second.ok).toBe(true);
    expect(second.cacheMiss).toBeUndefined();
  });
});

// Cache folders of the tests below, removed after each test.
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function cacheFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "opendata-edge-cache-"));
  folders.push(dir);
  return dir;
}

describe("one cache folder shared by builds running at the same time", () => {
  it("gives a reader an entry whole, as it was or as it is, while another build rewrites it", async () => {
    const dir = await cacheFolder();
    const writer = new BuildCache(dir, "fingerprint");
    const reader = new BuildCache(dir, "fingerprint");
    const key = writer.key("entry");
    // Large enough that a write takes more than one system call.
    const values = ["a", "b"].map((letter) => letter.repeat(4 * 1024 * 1024));
    let writing = true;
    const seen = new Set<string>();
    const reads = (async () => {
      while (writing) {
        const bytes = await reader.get(key, "text");
        seen.add(
          bytes === undefined
            ? "none"
            : bytes.toString("utf8") === values[0]
              ? "a"
              : bytes.toString("utf8") === values[1]
                ? "b"
                : "torn",
        );
      }
    })();
    for (let i = 0; i < 20; i++) await writer.set(key, "text", values[i % 2]!);
    writing = false;
    await reads;
    expect(seen.has("torn")).toBe(false);
    expect(seen.has("a") || seen.has("b")).toBe(true);
    expect(await readdir(dir)).toEqual([`${key}.text`]);
  });

  it("takes the loss of an entry to another build's prune as a miss, not a failure", async () => {
    const dir = await cacheFolder();
    const writer = new BuildCache(dir, "fingerprint");
    // The other build used nothing: its prune removes whatever it finds, partial files too.
    const other = new BuildCache(dir, "fingerprint");
    const writes = Array.from({ length: 20 }, (_, i) =>
      writer.set(writer.key(`entry ${i}`), "text", "x".repeat(256 * 1024)),
    );
    const prunes = Array.from({ length: 20 }, () => other.prune());
    await expect(Promise.all([...writes, ...prunes])).resolves.toBeDefined();
    expect((await readdir(dir)).filter((name) => name.endsWith(".part"))).toEqual([]);
  });
});

describe("a cache held in memory and written behind the build (the live preview's)", () => {
  it("goes on before an entry is on disk, answers it from memory meanwhile, and says when all are written", async () => {
    const dir = await cacheFolder();
    const cache = new BuildCache(dir, "fingerprint", undefined, new Map());
    const key = cache.key("entry");
    const bytes = "x".repeat(8 * 1024 * 1024);
    await cache.set(key, "text", bytes);
    // The folder is made by the write itself, which has not run yet.
    await expect(readdir(dir)).resolves.not.toContain(`${key}.text`);
    const other = new BuildCache(dir, "fingerprint");
    expect((await other.get(key, "text"))?.toString("utf8")).toBe(bytes);
    await writesBehindDone();
    expect(await readdir(dir)).toEqual([`${key}.text`]);
    expect((await readFile(join(dir, `${key}.text`), "utf8")) === bytes).toBe(true);
  });

  it("takes a write that fails as a miss for a later build, not a failure of this one", async () => {
    const dir = await cacheFolder();
    // A file where the cache's folder should be: every write fails.
    const blocked = join(dir, "cache");
    await writeFile(blocked, "not a folder");
    const cache = new BuildCache(blocked, "fingerprint", undefined, new Map());
    await expect(cache.set(cache.key("entry"), "text", "x")).resolves.toBeUndefined();
    await expect(writesBehindDone()).resolves.toBeUndefined();
    expect(await new BuildCache(blocked, "fingerprint").get(cache.key("entry"), "text")).toBe(
      undefined,
    );
  });

  it("reads what the last build used from memory, and lets go of what it did not use", async () => {
    const dir = await cacheFolder();
    const memory = new Map<string, Buffer>();
    const first = new BuildCache(dir, "fingerprint", undefined, memory);
    const [kept, dropped, read] = ["kept", "dropped", "read"].map((k) => first.key(k));
    await first.set(kept!, "text", "kept");
    await first.set(dropped!, "text", "dropped");
    await new BuildCache(dir, "fingerprint").set(read!, "text", "read from disk");
    expect((await first.get(read!, "text"))?.toString()).toBe("read from disk");
    await writesBehindDone();
    // What the next build finds in memory needs no disk: the files are gone.
    await rm(dir, { recursive: true });
    const second = new BuildCache(dir, "fingerprint", undefined, memory);
    expect((await second.get(kept!, "text"))?.toString()).toBe("kept");
    expect((await second.get(read!, "text"))?.toString()).toBe("read from disk");
    second.keepOnlyUsed();
    const third = new BuildCache(dir, "fingerprint", undefined, memory);
    expect(await third.get(dropped!, "text")).toBe(undefined);
    expect((await third.get(kept!, "text"))?.toString()).toBe("kept");
  });
});
