/**
 * A publisher's long history (issue 45): 150 daily versions of an ATM feed, as a real repository
 * has them: a few records changed each day (some back to what they were days before), records
 * added and removed, one brand's records split over two files, a comment-only commit now and then.
 * Every version is built alone, outside git, at its commit time (the build of that commit, the
 * oracle), and each answer the history keeps is compared byte for byte with the answer written
 * from the two published bodies by this test's own reference (what the history computed before
 * it kept facts instead of bodies); every version not kept answers 410 to each of its tokens.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, assert, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { runBuild, runValidate, type Built } from "../../../build/pipeline.js";
import { PREVIEW_COMPRESSION } from "../../../build/encode/variants.js";
import { testProfile } from "../../helpers/fixtures.js";
import { changesRoutes, selectChanges } from "../../../worker/changes/select.js";
import {
  atmBrandFile,
  contentAlone,
  scratchRepo,
  siteYaml,
  type TestAtm,
} from "../../helpers/history.js";
import { expectedAnswer } from "../../helpers/change-answers.js";

const DAYS = 150;
const DAY = 86_400;
const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

const fileText = (built: Built, asset: string) => {
  const file = built.files.find((f) => `/${f.path}` === asset);
  if (!file) throw new Error(`no file ${asset}`);
  return Buffer.from(file.bytes).toString("utf8");
};

/** Each day's content: the files of that day, every one written out (null: removed). */
function history(): { files: Record<string, string | null>; seconds: number }[] {
  const town = (n: number) => ["Wexbury", "Lynmoor", "Ottersey", "Ŵestbury"][n % 4]!;
  // Brand A: 120 ATMs over two files of its folder, all but the four that change each day with a
  // long note (so the answers since 150 versions fit within twice the body, and all are kept);
  // brand B: 30 in one file.
  const a: TestAtm[] = Array.from({ length: 120 }, (_, i) => ({
    id: `A-${i}`,
    town: town(i),
    amount: 10,
    note: i < 4 ? "" : `Inside the branch foyer. ${"Open while the branch is. ".repeat(30)}`,
  }));
  const b: TestAtm[] = Array.from({ length: 30 }, (_, i) => ({
    id: `B-${i}`,
    town: town(i),
    amount: 20,
  }));
  const days: { files: Record<string, string | null>; seconds: number }[] = [];
  let comment = 0;
  for (let day = 0; day < DAYS; day++) {
    if (day > 0) {
      // Four hot records change in turn, through three amounts: back to a past value often.
      const hot = a[(day * 7) % 4]!;
      a[(day * 7) % 4] = { ...hot, amount: hot.amount === 30 ? 10 : hot.amount + 10 };
      if (day % 5 === 0) b[0] = { ...b[0]!, town: town(day / 5) };
      // A record added one day and removed the next, now and then.
      if (day % 9 === 0) b.push({ id: `B-new-${day}`, town: "Lynmoor", amount: 40 });
      if (day % 9 === 1)
        b.splice(
          b.findIndex((atm) => atm.id.startsWith("B-new-")),
          1,
        );
      if (day % 23 === 0) comment++;
    }
    days.push({
      seconds: 1_790_000_000 + day * DAY,
      files: {
        "site.yaml": siteYaml("ChangeHistoryVersions: 120"),
        "atms/brand-a/north.yaml": atmBrandFile("Brand A", a.slice(0, 60), `north ${comment}`),
        "atms/brand-a/south.yaml": atmBrandFile("Brand A", a.slice(60)),
        "atms/brand-b.yaml": atmBrandFile("Brand B", b),
      },
    });
  }
  return days;
}

/**
 * One day's content checked and assembled alone, outside git, at its commit time (`npm run
 * validate`'s steps, which make the body a build would serve): what that build published, and
 * its tokens: its LastUpdated, its ETag, and its codings' (docs/decisions.md, "Compressed variants
 * and ETags": the SHA-256 of the identity ETag, the coding, the setting, the library's version; the
 * preview's settings here, brotli 3 and gzip 1, as the build under test compresses).
 */
async function buildAlone(files: Record<string, string | null>, seconds: number) {
  const root = await contentAlone(files);
  folders.push(root);
  const built = await runValidate({
    contentDir: join(root, "content"),
    cwd: root,
    cacheDir: false,
    threads: 1,
    env: { SOURCE_DATE_EPOCH: String(seconds) },
  });
  assert(built.ok);
  const identity = built.datasets.find((d) => d.dataset === "atms")!.identity;
  const hex = sha256(identity);
  const body = identity.toString("utf8");
  const lastUpdated = (JSON.parse(body) as { meta: { LastUpdated: string } }).meta.LastUpdated;
  const tokens = [
    lastUpdated,
    hex,
    sha256(`${hex} br 3 ${process.versions.brotli}`),
    sha256(`${hex} gzip 1 ${process.versions.zlib}`),
  ];
  return { body, tokens };
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

const withoutDate = (body: string) => body.replace(/^\{"meta":\{"LastUpdated":"[^"]*"/, "");

describe("a history of 150 daily versions", () => {
  // A hundred and fifty versions each checked and assembled alone: the longest test of the build.
  it(
    "answers every kept version exactly as the two published bodies say, and 410 for the rest",
    { timeout: 120_000 },
    async () => {
      const days = history();
      const repo = await scratchRepo();
      folders.push(repo.root);
      await repo.commitAll(days);
      const cache = await mkdtemp(join(tmpdir(), "opendata-edge-long-cache-"));
      folders.push(cache);
      const build = () =>
        runBuild({
          profile: testProfile(PREVIEW_COMPRESSION, true),
          contentDir: repo.content,
          cwd: repo.root,
          write: false,
          cacheDir: cache,
        });
      const built = await build();
      expect(built.diagnostics).toEqual([]);
      assert(built.ok);
      const route = changesRoutes(built.manifest).get("/x-std/v2.2/atms/changes")!;
      const currentEntry = built.manifest.datasets.find((d) => d.dataset === "atms")!;
      const currentBody = fileText(built, currentEntry.variants.identity.asset);

      // The oracle, newest first: each day built alone; a comment-only day is no version.
      const alone: Awaited<ReturnType<typeof buildAlone>>[] = [];
      for (const day of [...days].reverse()) alone.push(await buildAlone(day.files, day.seconds));
      const versions = alone.filter(
        (v, i) =>
          alone[i + 1] === undefined || withoutDate(alone[i + 1]!.body) !== withoutDate(v.body),
      );
      expect(versions[0]!.body).toBe(currentBody);
      expect(versions.length).toBeGreaterThan(140);

      let kept = 0;
      let gone = 0;
      let reverted = 0;
      for (const version of versions) {
        const answers = version.tokens.map((since) =>
          selectChanges(route, new URLSearchParams({ since })),
        );
        if (answers[0]!.status === 410) {
          gone++;
          for (const answer of answers) expect(answer.status).toBe(410);
          continue;
        }
        // Each token of a kept version (LastUpdated, and the ETag of each coding) names one answer.
        expect(gone).toBe(0);
        const expected = expectedAnswer(version.body, currentBody);
        for (const answer of answers) {
          assert(answer.status === 200);
          expect(fileText(built, answer.file.variants.identity.asset)).toBe(expected);
        }
        // A hot record whose amount went round lists nothing since a version that had it so.
        const hot = /"Identification":"A-[0-3]"/g;
        if ((expected.match(hot) ?? []).length < 4) reverted++;
        kept++;
      }
      // The current version and the 120 past ones site.yaml keeps; the older ones are gone.
      expect(kept).toBe(121);
      expect(gone).toBe(versions.length - 121);
      expect(gone).toBeGreaterThan(20);
      expect(reverted).toBeGreaterThan(10);

      // Built again through the cache: the same answers.
      const again = await build();
      assert(again.ok);
      expect(again.manifest.changes).toEqual(built.manifest.changes);
    },
  );
});
