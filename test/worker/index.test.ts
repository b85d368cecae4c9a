/**
 * Through the Worker's real entry point, with the build's real manifest (dist/manifest.json) and
 * the env from wrangler.toml. The pool's exports.default.fetch does not go through Workers Static
 * Assets, so ASSETS is replaced by a stand-in serving files of the manifest's lengths.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Manifest } from "../../contract/manifest.js";
import type { ConfigVar } from "../../contract/vars.js";
import { SPEC_PATHS } from "../helpers/spec-values.js";
import manifestJson from "../../dist/manifest.json" with { type: "json" };
import worker from "../../worker/index.js";
import { expectError } from "./support/assertions.js";
import { MemoryAssets } from "../fakes/platform.js";
import { ORIGIN } from "./support/fixture.js";

const manifest = manifestJson as Manifest;

// The [vars] and defaults docs/operations.md documents.
const DOCUMENTED_DEFAULTS: Record<ConfigVar, string> = {
  OPEN_DATA_LIMIT_PER_MINUTE: "145",
  SERVICE_METRICS_LIMIT_PER_MINUTE: "145",
  RATE_LIMIT_SYNC_SECONDS: "1",
  MAINTENANCE: "off",
  MAINTENANCE_RETRY_AFTER_SECONDS: "300",
};

/** The stand-in, typed as the binding it replaces (the Worker only calls fetch). */
function standInAssets(): Fetcher {
  const files = new Map<string, Uint8Array>();
  for (const entry of manifest.datasets) {
    for (const variant of Object.values(entry.variants))
      files.set(variant.asset, new Uint8Array(variant.length));
  }
  return new MemoryAssets(files) as unknown as Fetcher;
}

describe("the Worker's entry point", () => {
  it("is given wrangler.toml's [vars] as the documented defaults", () => {
    const fromToml = Object.fromEntries(
      (Object.keys(DOCUMENTED_DEFAULTS) as ConfigVar[]).map((name) => [name, env[name]]),
    );
    expect(fromToml).toEqual(DOCUMENTED_DEFAULTS);
  });

  it("serves exactly the data paths the build's manifest lists", () => {
    expect(manifest.datasets.map((d) => d.path).sort()).toEqual(Object.values(SPEC_PATHS).sort());
  });

  it("serves every data set of the manifest with its media type, ETag and Last-Modified", async () => {
    const assets = standInAssets();
    for (const entry of manifest.datasets) {
      const ctx = createExecutionContext();
      const response = await worker.fetch(
        new Request(ORIGIN + entry.path),
        { ...env, ASSETS: assets },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe(entry.mediaType);
      expect(response.headers.get("ETag")).toBe(entry.variants.identity.etag);
      expect(response.headers.get("Last-Modified")).toBe(entry.lastModified);
      expect((await response.arrayBuffer()).byteLength).toBe(entry.variants.identity.length);
    }
  });

  it("answers an unknown path with the 404 body through exports.default.fetch", async () => {
    await expectError(await exports.default.fetch(`${ORIGIN}/manifest.json`), 404);
  });
});
