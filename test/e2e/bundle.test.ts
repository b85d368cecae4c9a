/**
 * The deploy bundle, built offline the way `wrangler deploy` builds it, so a bundling break fails
 * the tests rather than a deploy.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";

// The Worker carries code and the manifest only; the data sets are static assets.
const BUNDLE_BUDGET_BYTES = 100 * 1024;

it("bundles with wrangler deploy --dry-run, small and free of ajv and new Function", async () => {
  const outdir = mkdtempSync(join(tmpdir(), "opendata-edge-bundle-"));
  try {
    await promisify(execFile)(
      process.execPath,
      [join(PROJECT_ROOT, "scripts", "wrangler.mjs"), "deploy", "--dry-run", "--outdir", outdir],
      { cwd: PROJECT_ROOT },
    );
    const bundle = readFileSync(join(outdir, "index.js"), "utf8");
    expect(Buffer.byteLength(bundle)).toBeLessThan(BUNDLE_BUDGET_BYTES);
    // The Workers runtime forbids code generation from strings (ajv's compiled validators use it).
    expect(bundle).not.toMatch(/new Function|\bajv\b/);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}, 60_000);
