import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheMissReason, type FingerprintParts } from "../../../build/core/cache.js";
import { buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";

const parts: FingerprintParts = {
  format: 1,
  packages: { yaml: "2.9.1", ajv: "8.20.0" },
  code: { "build/pipeline.ts": "a", "build/check/one-file.ts": "b" },
  schemas: { "branch.schema.json": "c", "atm.schema.json": "d" },
};

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
