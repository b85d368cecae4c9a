/**
 * What a version of a data set is (build/history/data-versions.ts): a commit where its published
 * Data (its body without meta.LastUpdated) changed. A commit that changes nothing a body holds (a
 * site.yaml field no body carries, a comment, a file moved with the same records) leaves every
 * data set's LastUpdated, ETags and change answers as they were; a record edit moves its own data
 * set's alone. Uncommitted edits count by their modification time, only when they change the Data.
 * Built with and without the build cache: both must say the same.
 */
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, assert, beforeAll, describe, expect, it } from "vitest";
import { runBuild } from "../../../build/pipeline.js";
import { PREVIEW_COMPRESSION } from "../../../build/encode/variants.js";
import type { Manifest } from "../../../contract/manifest.js";
import { testProfile } from "../../helpers/fixtures.js";
import {
  atmBrandFile,
  branchBrandFile,
  scratchRepo,
  siteYaml,
  type ScratchRepo,
} from "../../helpers/history.js";

const T0 = 1_790_000_000;
const atm = (id: string, amount = 10) => ({ id, town: "Wexbury", amount });
const contact = (name: string) =>
  `Contact:\n  Name: "${name}"\n  Email: "opendata@example.invalid"\n`;

let repo: ScratchRepo;
let cacheDir: string;
beforeAll(async () => {
  repo = await scratchRepo();
  cacheDir = await mkdtemp(join(tmpdir(), "opendata-edge-versions-cache-"));
  await repo.commit(
    {
      "site.yaml": siteYaml(contact("Open data team")),
      "atms/fernbrook.yaml": atmBrandFile("Fernbrook Bank", [atm("F-1"), atm("F-2")]),
      "branches/fernbrook.yaml": branchBrandFile("Fernbrook Bank", [atm("FB-1")]),
    },
    T0,
  );
}, 60_000);
afterAll(async () => {
  await repo?.cleanup();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

/** Each data set's LastUpdated, ETags and change answers' ETags, through the cache or not. */
async function published(cache: boolean): Promise<Record<string, unknown>> {
  const built = await runBuild({
    profile: testProfile(PREVIEW_COMPRESSION, true),
    contentDir: repo.content,
    cwd: repo.root,
    write: false,
    cacheDir: cache ? cacheDir : false,
  });
  expect(built.diagnostics).toEqual([]);
  assert(built.ok);
  return facts(built.manifest);
}

function facts(manifest: Manifest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const d of manifest.datasets) {
    out[d.dataset] = {
      lastUpdated: d.lastUpdated,
      etags: Object.values(d.variants).map((v) => v.etag),
    };
  }
  for (const c of manifest.changes ?? []) {
    out[`${c.dataset} changes`] = c.answers.map((a) => [a.since, a.variants.identity.etag]);
  }
  return out;
}

/** Builds through the cache and without it; both must give the same. */
async function both(): Promise<Record<string, unknown>> {
  const cached = await published(true);
  expect(await published(false)).toEqual(cached);
  return cached;
}

describe("a version of a data set", () => {
  let first: Record<string, unknown>;
  beforeAll(async () => {
    first = await both();
  }, 120_000);

  it("is dated by the commit that published its Data", () => {
    expect(first.atms).toMatchObject({ lastUpdated: "2026-09-21T14:13:20Z" });
  });

  it("is not made by a commit that changes only Contact in site.yaml, which no body holds", async () => {
    await repo.commit({ "site.yaml": siteYaml(contact("Data desk")) }, T0 + 3600);
    expect(await both()).toEqual(first);
  }, 120_000);

  it("is not made by a commit that changes only a comment", async () => {
    await repo.commit(
      {
        "atms/fernbrook.yaml": atmBrandFile("Fernbrook Bank", [atm("F-1"), atm("F-2")], "checked"),
      },
      T0 + 7200,
    );
    expect(await both()).toEqual(first);
  }, 120_000);

  it("is not made by a commit that moves a brand's file into its folder with the same records", async () => {
    await repo.commit(
      {
        "atms/fernbrook.yaml": null,
        "atms/fernbrook/all.yaml": atmBrandFile("Fernbrook Bank", [atm("F-1"), atm("F-2")]),
      },
      T0 + 10_800,
    );
    expect(await both()).toEqual(first);
  }, 120_000);

  it("is made by a record edit: that data set's LastUpdated, ETags and changes move, no other's", async () => {
    await repo.commit(
      { "atms/fernbrook/all.yaml": atmBrandFile("Fernbrook Bank", [atm("F-1"), atm("F-2", 20)]) },
      T0 + 14_400,
    );
    const now = await both();
    expect(now.atms).toMatchObject({ lastUpdated: "2026-09-21T18:13:20Z" });
    const etags = (facts: Record<string, unknown>) => (facts.atms as { etags: string[] }).etags;
    for (const tag of etags(now)) expect(etags(first)).not.toContain(tag);
    // The changes since the first version: the one ATM changed, and nothing since the current.
    expect((now["atms changes"] as unknown[]).map((a) => (a as string[])[0])).toEqual([
      "2026-09-21T18:13:20Z",
      "2026-09-21T14:13:20Z",
    ]);
    const { atms, "atms changes": _a, ...others } = now;
    const { atms: _b, "atms changes": _c, ...before } = first;
    expect(others).toEqual(before);
  }, 120_000);

  it("is the work tree's when an uncommitted edit changes the Data, dated by the edit; not when it changes a comment", async () => {
    const committed = await both();
    const file = join(repo.content, "atms/fernbrook/all.yaml");
    await writeFile(
      file,
      atmBrandFile("Fernbrook Bank", [atm("F-1"), atm("F-2", 20)], "a comment, edited"),
    );
    await utimes(file, T0 + 20_000, T0 + 20_000);
    expect(await both()).toEqual(committed);

    await writeFile(file, atmBrandFile("Fernbrook Bank", [atm("F-1", 30), atm("F-2", 20)]));
    await utimes(file, T0 + 20_000, T0 + 20_000);
    const edited = await both();
    expect(edited.atms).toMatchObject({ lastUpdated: "2026-09-21T19:46:40Z" });
    expect(edited.branches).toEqual(committed.branches);
    await repo.git("checkout", "--", "content");
  }, 120_000);
});

describe("the publications of a data set with more versions than kept", () => {
  let own: ScratchRepo;
  afterAll(async () => {
    await own?.cleanup();
  });

  it("tell the oldest kept version's publication against the one before it, and no older one", async () => {
    own = await scratchRepo();
    await own.commitAll(
      [0, 1, 2, 3, 4].map((i) => ({
        seconds: T0 + i * 3600,
        files: {
          ...(i === 0 ? { "site.yaml": siteYaml("ChangeHistoryVersions: 2\n") } : {}),
          "atms/fernbrook.yaml": atmBrandFile("Fernbrook Bank", [atm("F-1", 10 + i), atm("F-2")]),
        },
      })),
    );
    const built = await runBuild({
      profile: testProfile(PREVIEW_COMPRESSION, true),
      contentDir: own.content,
      cwd: own.root,
      write: false,
      cacheDir: false,
    });
    assert(built.ok);
    const accepted = built.manifest.changes!.find((c) => c.dataset === "atms")!.answers;
    expect(accepted.map((a) => a.since)).toEqual([
      "2026-09-21T18:13:20Z",
      "2026-09-21T17:13:20Z",
      "2026-09-21T16:13:20Z",
    ]);
    const feed = Buffer.from(
      built.files.find((f) => f.path === "x-std/changes.atom")!.bytes,
    ).toString("utf8");
    const atms = [...feed.matchAll(/<title>ATMs: ([^<]*)<\/title><updated>([^<]*)</g)].map((m) => [
      m[2],
      m[1],
    ]);
    expect(atms).toEqual([
      ["2026-09-21T18:13:20Z", "1 changed"],
      ["2026-09-21T17:13:20Z", "1 changed"],
      ["2026-09-21T16:13:20Z", "1 changed"],
    ]);
    // The oldest kept version's entry links the data set: the one before it is not kept.
    expect(feed).toContain(
      '<updated>2026-09-21T16:13:20Z</updated><link rel="alternate" type="application/prs.std.opendata.v2.2+json" href="/std/v2.2/atms"/>',
    );
  }, 120_000);
});
