/**
 * The published codings' settings and their ETags (build/encode/variants.ts), from
 * docs/decisions.md ("Compressed variants and ETags") and BENCHMARKS.md's brotli row.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  codedTag,
  PREVIEW_COMPRESSION,
  PUBLISHED_COMPRESSION,
  variantTags,
} from "../../../build/encode/variants.js";

const KiB = 1024;
const MiB = 1024 * KiB;

describe("the published brotli quality", () => {
  it.each([
    [1, 11],
    [64 * KiB, 11],
    [64 * KiB + 1, 10],
    [MiB, 10],
    [MiB + 1, 9],
    [30 * MiB, 9],
  ])("is, for a body of %i bytes, %i", (size, quality) => {
    expect(PUBLISHED_COMPRESSION.brotliQuality(size)).toBe(quality);
  });

  it("is 3 at any size in the preview, with gzip at 1; gzip is 9 when published", () => {
    expect(PREVIEW_COMPRESSION.brotliQuality(1)).toBe(3);
    expect(PREVIEW_COMPRESSION.brotliQuality(30 * MiB)).toBe(3);
    expect(PREVIEW_COMPRESSION.gzipLevel).toBe(1);
    expect(PUBLISHED_COMPRESSION.gzipLevel).toBe(9);
  });
});

describe("a compressed variant's ETag", () => {
  const identity = `"${"ab".repeat(32)}"`;
  const sha = (text: string) => `"${createHash("sha256").update(text).digest("hex")}"`;

  it("is the SHA-256 of the identity tag, the coding, its setting and the library's version", () => {
    expect(codedTag(identity, "br", 11)).toBe(
      sha(`${"ab".repeat(32)} br 11 ${process.versions.brotli}`),
    );
    expect(codedTag(identity, "gzip", 9)).toBe(
      sha(`${"ab".repeat(32)} gzip 9 ${process.versions.zlib}`),
    );
  });

  it("differs by coding and by setting, so two byte sequences never share one", () => {
    const tags = [
      identity,
      codedTag(identity, "br", 11),
      codedTag(identity, "br", 10),
      codedTag(identity, "gzip", 9),
      codedTag(identity, "gzip", 1),
    ];
    expect(new Set(tags).size).toBe(5);
  });

  it("follows the body's size through its brotli quality", () => {
    expect(variantTags(identity, 64 * KiB).br).toBe(codedTag(identity, "br", 11));
    expect(variantTags(identity, 64 * KiB + 1).br).toBe(codedTag(identity, "br", 10));
    expect(variantTags(identity, 10, PREVIEW_COMPRESSION)).toEqual({
      identity,
      br: codedTag(identity, "br", 3),
      gzip: codedTag(identity, "gzip", 1),
    });
  });
});
