/**
 * The live preview picks up a commit like a save (issue 45): in a scratch git repository, an edit
 * saved (served dated by the save, the work tree differing from HEAD), then committed with no save
 * after it, is served dated by the commit within 2 s, and the changes since the first version list
 * the ATM changed. The preview runs as npm start runs it (build/preview/serve.ts), on a scratch
 * copy of the Worker, on loopback.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPreview, type RunningPreview } from "../../build/preview/serve.js";
import { atmBrandFile, scratchRepo, siteYaml, type ScratchRepo } from "../helpers/history.js";
import { copyWorkerSources } from "../helpers/worker.js";
import { newClients, request, type RawResponse } from "./http.js";

process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

const ATMS = "/std/v2.2/atms";
const FIRST = 1_790_000_000; // 2026-09-21T14:13:20Z
const COMMITTED = 1_790_086_400; // 2026-09-22T14:13:20Z, a day later and long before the save
const atm = (amount: number) => ({ id: "ATM0001", town: "Leeds", amount });

let repo: ScratchRepo;
let preview: RunningPreview;

beforeAll(async () => {
  repo = await scratchRepo();
  await repo.commit(
    { "site.yaml": siteYaml(), "atms/pennyfold.yaml": atmBrandFile("Pennyfold", [atm(10)]) },
    FIRST,
  );
  const root = join(repo.root, "worker-copy");
  await copyWorkerSources(root);
  preview = await startPreview({
    root,
    contentDir: repo.content,
    outDir: join(root, "dist"),
    cwd: repo.root,
    env: {},
    cacheDir: join(root, "cache"),
    port: 0,
    persist: false,
    log: () => undefined,
  });
}, 120_000);

afterAll(async () => {
  await preview?.close();
  await repo?.cleanup();
});

// Each request from its own client address, so the rate limit never answers for the preview.
const fresh = newClients();
const get = (path: string): Promise<RawResponse> =>
  request(new URL(path, preview.url), { headers: fresh() });
const lastUpdated = (answer: RawResponse) =>
  (JSON.parse(answer.body.toString("utf8")) as { meta: { LastUpdated: string } }).meta.LastUpdated;

/** Asks until `done` holds of the answer at `path`, at most 200 times 50 ms apart (10 s). */
async function until(path: string, done: (r: RawResponse) => boolean): Promise<RawResponse> {
  let last: RawResponse | undefined;
  for (let i = 0; i < 200; i++) {
    last = await get(path);
    if (last.status === 200 && done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} never got there; last answer ${last?.status}: ${String(last?.body)}`);
}

describe("the live preview and git's HEAD", () => {
  it("serves a commit made with no save after it, dated by the commit, within 2 s", async () => {
    expect(lastUpdated(await get(ATMS))).toBe("2026-09-21T14:13:20Z");

    // A save: served dated by the save (the work tree differs from HEAD), long after both commits.
    await writeFile(
      join(repo.content, "atms", "pennyfold.yaml"),
      atmBrandFile("Pennyfold", [atm(20)]),
    );
    const saved = await until(ATMS, (r) => r.body.toString("utf8").includes('"20.00"'));
    expect(Date.parse(lastUpdated(saved))).toBeGreaterThan(COMMITTED * 1000);

    // The commit of what was saved, and nothing written under content/ after it.
    const started = Date.now();
    await repo.commit({}, COMMITTED);
    const committed = await until(ATMS, (r) => lastUpdated(r) === "2026-09-22T14:13:20Z");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(committed.headers.etag).not.toBe(saved.headers.etag);
    expect(committed.body.toString("utf8")).toContain('"20.00"');

    // The committed version is a version of the history: the changes since the first list the ATM,
    // and the changes since the committed one are the current version's (none).
    const since = (iso: string) => `/x-std/v2.2/atms/changes?since=${encodeURIComponent(iso)}`;
    const fromFirst = await get(since("2026-09-21T14:13:20Z"));
    expect(fromFirst.status).toBe(200);
    expect(fromFirst.body.toString("utf8")).toContain('"ATM0001"');
    expect((await get(since("2026-09-22T14:13:20Z"))).status).toBe(200);
  });
});
