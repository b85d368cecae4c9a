/**
 * The publication feed over a long history, through the real Worker: a scratch git repository
 * with 120 publications of its ATMs (each changing one ATM), and commits between them that change
 * nothing an ATM body holds. The feed lists at most 100 entries, newest first, one per
 * publication, each dated by a version the changes path accepts, with its counts right.
 */
import { DOMParser, type Element } from "@xmldom/xmldom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  atmBrandFile,
  historyWorker,
  siteYaml,
  type HistoryWorker,
  type TestAtm,
  type TestVersion,
} from "../helpers/history.js";
import { newClients, request } from "./http.js";

const ATOM = "http://www.w3.org/2005/Atom";
const T0 = 1_790_000_000;
const PUBLICATIONS = 120;

// Publication i sets the first ATM's amount to 10 + i; 250 more never change, so that a hundred
// answers of one ATM each stay within the bound (twice the full list). Every tenth publication
// is followed by a commit that changes only a comment, which is no publication.
const steady: TestAtm[] = Array.from({ length: 250 }, (_, k) => ({
  id: `F-${100 + k}`,
  town: "Lynmoor",
  amount: 10,
}));
const atms = (i: number): TestAtm[] => [{ id: "F-1", town: "Wexbury", amount: 10 + i }, ...steady];
const VERSIONS: TestVersion[] = [];
for (let i = 0; i < PUBLICATIONS; i++) {
  VERSIONS.push({
    seconds: T0 + i * 3600,
    files: {
      ...(i === 0 ? { "site.yaml": siteYaml() } : {}),
      "atms/fernbrook.yaml": atmBrandFile("Fernbrook Bank", atms(i)),
    },
  });
  if (i % 10 === 5) {
    VERSIONS.push({
      seconds: T0 + i * 3600 + 1800,
      files: { "atms/fernbrook.yaml": atmBrandFile("Fernbrook Bank", atms(i), `checked ${i}`) },
    });
  }
}
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.000Z$/, "Z");
/** Publication i's LastUpdated. */
const dated = (i: number) => iso(T0 + i * 3600);

let worker: HistoryWorker;
let entries: Element[];
beforeAll(async () => {
  worker = await historyWorker(VERSIONS);
  const feed = await get("/x-std/changes.atom");
  expect(feed.status).toBe(200);
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => errors.push(`${level}: ${message}`),
  }).parseFromString(feed.body.toString("utf8"), "application/xml");
  expect(errors).toEqual([]);
  entries = Array.from(doc.getElementsByTagNameNS(ATOM, "entry"));
}, 300_000);
afterAll(async () => {
  await worker?.dispose();
});

const fresh = newClients();
const get = (path: string) => request(new URL(path, worker.base), { headers: fresh() });
const text = (e: Element, name: string) =>
  e.getElementsByTagNameNS(ATOM, name)[0]?.textContent ?? "";

describe("the feed of a history of 120 publications", () => {
  it("has 100 entries, the newest publications, newest first", () => {
    expect(entries).toHaveLength(100);
    const updated = entries.map((e) => text(e, "updated"));
    // Publications 119 down to 20: every one of ATMs (the other data sets' one publication is
    // the oldest of all).
    expect(updated).toEqual(Array.from({ length: 100 }, (_, k) => dated(PUBLICATIONS - 1 - k)));
    expect(entries.every((e) => text(e, "title") === "ATMs: 1 changed")).toBe(true);
  });

  it("dates each entry by a version the changes path accepts, and links changes the Worker answers", async () => {
    for (const e of entries) {
      const since = text(e, "updated");
      const answer = await get(`/x-std/v2.2/atms/changes?since=${since}`);
      expect(answer.status, since).toBe(200);
      expect(
        (JSON.parse(answer.body.toString("utf8")) as { meta: { Since: string } }).meta.Since,
      ).toBe(since);
      const link = e.getElementsByTagNameNS(ATOM, "link")[0]!.getAttribute("href")!;
      expect((await get(link)).status, link).toBe(200);
    }
  }, 120_000);

  it("answers 410 for the publications older than the hundred kept, and for a comment-only commit's time", async () => {
    for (const since of [dated(0), dated(18), iso(T0 + 115 * 3600 + 1800)]) {
      expect((await get(`/x-std/v2.2/atms/changes?since=${since}`)).status, since).toBe(410);
    }
    // The oldest kept: 19 publications before the hundredth entry's.
    expect((await get(`/x-std/v2.2/atms/changes?since=${dated(19)}`)).status).toBe(200);
  });
});
