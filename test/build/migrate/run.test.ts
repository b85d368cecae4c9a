/**
 * `npm run migrate` over a content folder: every old-shape file rewritten in place, or, when one
 * file holds what 2.2.1 cannot say, no file written at all.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../build/core/diagnostics.js";
import { migrateContent } from "../../../build/migrate/run.js";
import { buildFixture, digestFolder, sampleFixture } from "../../helpers/fixtures.js";
import { NEW_PCA, OLD_PCA, oldPcaWith } from "../../helpers/old-shapes.js";
import { warmCache } from "../../helpers/sample-build.js";

const FILE = "content/personal-current-accounts/zed-bank.yaml";

describe("migrating a content folder", () => {
  it("rewrites old-shape files so that the sample content with them builds", async () => {
    const fixture = await sampleFixture({ "personal-current-accounts/zed-bank.yaml": OLD_PCA });
    const cacheDir = await warmCache();
    try {
      expect((await buildFixture(fixture, { write: false, cacheDir })).ok).toBe(false);
      const result = await migrateContent({
        contentDir: fixture.content,
        cwd: fixture.root,
        dryRun: false,
      });
      expect(result.refusals).toEqual([]);
      expect(result.files).toEqual([FILE]);
      expect(result.written).toBe(true);
      const written = await readFile(
        join(fixture.content, "personal-current-accounts/zed-bank.yaml"),
        "utf8",
      );
      expect(written).toBe(NEW_PCA);
      const built = await buildFixture(fixture, { write: false, cacheDir });
      expect(built.diagnostics.map(formatDiagnostic)).toEqual([]);
      expect(built.ok).toBe(true);
    } finally {
      await fixture.cleanup();
    }
  });

  it("writes no file at all when one file holds a refusal", async () => {
    const twoSchemes = oldPcaWith(
      22,
      22,
      '                - "Visa"',
      '                - "MasterCard"',
    );
    const fixture = await sampleFixture({
      "personal-current-accounts/zed-bank.yaml": OLD_PCA,
      "personal-current-accounts/zed-two.yaml": twoSchemes.replace("Zed Bank", "Zed Two"),
    });
    try {
      const before = await digestFolder(fixture.content);
      const result = await migrateContent({
        contentDir: fixture.content,
        cwd: fixture.root,
        dryRun: false,
      });
      expect(result.refusals.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual([
        "content/personal-current-accounts/zed-two.yaml:22:17",
      ]);
      expect(result.written).toBe(false);
      expect(await digestFolder(fixture.content)).toEqual(before);
    } finally {
      await fixture.cleanup();
    }
  });
});
