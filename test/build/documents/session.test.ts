import { afterEach, assert, describe, expect, it } from "vitest";
import { BuildMemory } from "../../../build/core/memory.js";
import { previewProfile } from "../../../build/profiles.js";
import type { BuildResult } from "../../../build/pipeline.js";
import { branchBrand, buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";

let fixture: Fixture | undefined;
afterEach(() => fixture?.cleanup());

/** Each document's identity bytes (the landing page, /openapi.json, …), by its path. */
const documents = (result: BuildResult) => {
  assert(result.ok);
  const paths = new Set(result.manifest.documents.map((d) => d.variants.identity.asset.slice(1)));
  return new Map(result.files.filter((f) => paths.has(f.path)).map((f) => [f.path, f.bytes]));
};

describe("the documents in a live preview's session", () => {
  it("are taken whole from the build before while what they are made from is unchanged, and made again when a data set changes", async () => {
    fixture = await sampleFixture();
    const profile = previewProfile(new BuildMemory());
    const build = () => buildFixture(fixture!, { write: false, profile });
    const first = documents(await build());
    const again = documents(await build());
    expect(first.size).toBeGreaterThanOrEqual(6);
    // The same buffers: nothing was made again.
    for (const [path, bytes] of again) expect(bytes, path).toBe(first.get(path));
    await fixture.put({ "branches/session-test.yaml": branchBrand("Session Test Bank", ["ST-1"]) });
    const edited = documents(await build());
    // The directory entry lists every brand: the new one now.
    const store = "participant_store.json";
    expect(edited.get(store)).not.toBe(first.get(store));
    expect(Buffer.from(edited.get(store)!).toString("utf8")).toContain("Session Test Bank");
    expect(Buffer.from(first.get(store)!).toString("utf8")).not.toContain("Session Test Bank");
  });
});
