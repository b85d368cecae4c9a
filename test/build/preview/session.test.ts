import { afterEach, assert, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PreviewSession } from "../../../build/preview/session.js";
import type { CurrentGeneration } from "../../../contract/preview.js";
import {
  buildFixture,
  FIXTURE_EPOCH,
  sampleFixture,
  type Fixture,
} from "../../helpers/fixtures.js";
import type { Manifest } from "../../../contract/manifest.js";
import { DECIDED } from "../../helpers/spec-values.js";

describe("a preview session", () => {
  const BRANCH_FILE = "branches/pennyfold-building-society.yaml";
  const sessions: { fixture: Fixture }[] = [];
  afterEach(async () => {
    for (const { fixture } of sessions.splice(0)) await fixture.cleanup();
  });
  const broken = async (fixture: Fixture) => {
    const text = await readFile(join(fixture.content, BRANCH_FILE), "utf8");
    await fixture.put({ [BRANCH_FILE]: text.replace(/^( {4}Name: )"[^"]+"$/m, "$1 12") });
    return text;
  };
  const session = (fixture: Fixture, log: string[] = []) => {
    sessions.push({ fixture });
    return new PreviewSession(
      {
        contentDir: fixture.content,
        outDir: fixture.out,
        cwd: fixture.root,
        env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
        cacheDir: false,
      },
      (line) => log.push(line),
    );
  };
  const served = async (s: PreviewSession) =>
    (await s.generations
      .answer(new Request("http://preview.invalid/current"))
      .json()) as CurrentGeneration;

  it("neither shows nor prints a failed build when a newer save already waits, and reports the next", async () => {
    const fixture = await sampleFixture();
    const log: string[] = [];
    const s = session(fixture, log);
    const first = await s.rebuild();
    assert(first.ok);
    const lines = log.length;
    const before = await served(s);
    // As an editor that truncates before it writes: the build read the file half saved.
    await fixture.put({ [BRANCH_FILE]: "" });
    const superseded = await s.rebuild(() => true);
    expect(superseded).toMatchObject({ ok: false, published: false, version: first.version });
    expect(log).toHaveLength(lines);
    expect(await served(s)).toEqual(before);
    // Nothing newer waiting: the same content is reported, at its file.
    const reported = await s.rebuild(() => false);
    expect(reported).toMatchObject({ ok: false, published: true });
    expect(log.slice(lines).join("\n")).toContain(BRANCH_FILE);
    expect((await served(s)).id).not.toBe(before.id);
    await s.written();
  });

  it("started on content that does not build, serves the build already in the output folder", async () => {
    const fixture = await sampleFixture();
    const before = await buildFixture(fixture);
    assert(before.ok);
    await broken(fixture);
    const s = session(fixture);
    const rebuilt = await s.rebuild();
    expect(rebuilt.ok).toBe(false);
    const { built, manifest: now } = await served(s);
    expect(built).toBe(true);
    expect(now.datasets).toEqual(before.manifest.datasets);
  });

  it("without one, serves only the page with the problems, then publishes the first save that builds", async () => {
    const fixture = await sampleFixture();
    const original = await broken(fixture);
    const log: string[] = [];
    const s = session(fixture, log);
    await s.rebuild();
    const first = await served(s);
    expect(first.built).toBe(false);
    expect(first.manifest.datasets).toEqual([]);
    const page = first.manifest.documents.find((d) => d.path === "/")!;
    const html = await s.generations
      .answer(
        new Request(
          `http://preview.invalid/files/${encodeURIComponent(first.id)}${page.variants.identity.asset}`,
        ),
      )
      .text();
    expect(html).toContain(`content/${BRANCH_FILE}:`);
    // The page claims no last good build where there is none.
    expect(html).toContain("nothing is published until a save builds");
    expect(html).not.toContain("still serve the last good build");
    expect(log.join("\n")).toContain("no earlier build to serve");
    await fixture.put({ [BRANCH_FILE]: original });
    expect((await s.rebuild()).ok).toBe(true);
    const second = await served(s);
    expect(second.built).toBe(true);
    expect(second.manifest.datasets.map((d) => d.path)).toContain("/std/v2.2/branches");
    // The good build is written to the output folder too, as a build (no preview documents).
    await s.written();
    const written = JSON.parse(
      await readFile(join(fixture.out, "manifest.json"), "utf8"),
    ) as Manifest;
    expect(written.datasets).toEqual(second.manifest.datasets);
    expect(written.documents.map((d) => d.path)).not.toContain(DECIDED.preview.versionPath);
  });
});
