/**
 * The live preview (`npm start`) end to end: the real watcher, the real build through a cache and
 * the real Worker in workerd, on a scratch copy of the Worker (its sources, wrangler.toml and a
 * dist/ of its own) so the project's dist/ is left alone. An edit, an invalid edit and its fix,
 * while a client keeps asking: every answer is a 200 or a 304.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningPreview } from "../../build/preview/serve.js";
import type { Rebuilt } from "../../build/preview/session.js";
import type { Fixture } from "../helpers/fixtures.js";
import { startScratchPreview, type ScratchPreview } from "../helpers/preview.js";
import { DECIDED } from "../helpers/spec-values.js";
import { request, type RawResponse } from "./http.js";

const BRANCHES = "/std/v2.2/branches";

// The preview runs wrangler in this process and leaves its environment alone, so the process sets
// what scripts/dev.mjs sets that matters here: no metrics, no fetch of the cf object. The banner
// setting is left unset, to show that starting the preview sets nothing.
process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
const bannerSetting = process.env.WRANGLER_HIDE_BANNER;
// What the test compares of the environment: the names (never the values, which a failure would
// print) and wrangler's settings.
const seen = () => ({
  names: Object.keys(process.env).sort(),
  wrangler: Object.entries(process.env).filter(([k]) => /^(WRANGLER|CLOUDFLARE)_/.test(k)),
});
let environment: { before: ReturnType<typeof seen>; after: ReturnType<typeof seen> };

let scratch: ScratchPreview;
let content: Fixture;
let preview: RunningPreview;
let rebuilds: Rebuilt[];
let logged: string[];
// The branch file edited, as the sample has it, and the name in it that is changed.
let file: string;
let original: string;
let name: string;

beforeAll(async () => {
  // Longer than npm start's quiet time, so five saves in a row fall within it on a loaded machine.
  delete process.env.WRANGLER_HIDE_BANNER;
  const before = seen();
  scratch = await startScratchPreview(250);
  environment = { before, after: seen() };
  ({ content, preview, rebuilds, logged } = scratch);
  file = join(content.content, "branches", "pennyfold-building-society.yaml");
  original = await readFile(file, "utf8");
  name = /^ {4}Name: "([^"]+)"$/m.exec(original)![1]!;
}, 120_000);

afterAll(async () => {
  await scratch?.dispose();
  if (bannerSetting !== undefined) process.env.WRANGLER_HIDE_BANNER = bannerSetting;
});

let nextAddress = 0;
// Each request from its own client address, so the rate limit never answers for the preview.
const get = (path: string, headers: Record<string, string> = {}): Promise<RawResponse> =>
  request(new URL(path, preview.url), {
    headers: {
      ...headers,
      "CF-Connecting-IP": `198.18.${nextAddress >> 8}.${nextAddress++ & 255}`,
    },
  });

/** Asks until `done` holds of the answer at `path`, at most 300 times 50 ms apart. */
async function until(path: string, done: (r: RawResponse) => boolean): Promise<RawResponse> {
  let last: RawResponse | undefined;
  for (let i = 0; i < 300; i++) {
    last = await get(path);
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} never got there; last answer ${last?.status}: ${String(last?.body)}`);
}

const panel = (page: RawResponse) => page.body.toString("utf8").includes('class="problems"');

describe("the live preview", () => {
  it("leaves the process's environment as it found it: wrangler's settings are the caller's", () => {
    expect(environment.after).toEqual(environment.before);
    expect(environment.after.names).not.toContain("WRANGLER_HIDE_BANNER");
  });

  it("serves a landing page that loads the preview's script under a policy that allows only it", async () => {
    const page = await get("/");
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toBe(DECIDED.preview.policy);
    expect(page.body.toString("utf8")).toContain(`<script src="${DECIDED.preview.scriptPath}"`);
    expect(panel(page)).toBe(false);
    const script = await get(DECIDED.preview.scriptPath);
    expect(script.status).toBe(200);
    expect(script.body.toString("utf8")).toContain(DECIDED.preview.versionPath);
  });

  it("follows an edit, an invalid edit and its fix, answering every request meanwhile with 200 or 304", async () => {
    const statuses = new Map<number, number>();
    let asking = true;
    // A client asking all along, conditionally and not: bounded in count, stopped at the end.
    const client = (async () => {
      let etag = "";
      for (let i = 0; asking && i < 5_000; i++) {
        const answer = await get(
          i % 3 === 0 ? "/" : BRANCHES,
          etag ? { "If-None-Match": etag } : {},
        );
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 200 && i % 3 !== 0) etag = answer.headers.etag ?? "";
      }
    })();
    try {
      const before = await get(BRANCHES);
      const oldEtag = before.headers.etag;

      // 1. An edit: the new data is served, under a new ETag.
      await writeFile(file, original.replace(`Name: "${name}"`, `Name: "${name} Green"`));
      const edited = await until(BRANCHES, (r) => r.headers.etag !== oldEtag);
      expect(edited.body.toString("utf8")).toContain(`"${name} Green"`);

      // 2. An invalid edit: the last good data stays, the page shows the problem with its place.
      const invalid = original.replace(`    Name: "${name}"`, "    Name: 12");
      const line = invalid.slice(0, invalid.indexOf("    Name: 12")).split("\n").length;
      await writeFile(file, invalid);
      const page = await until("/", panel);
      expect(page.body.toString("utf8")).toContain(
        `content/branches/pennyfold-building-society.yaml:${line}:11`,
      );
      const kept = await get(BRANCHES);
      expect(kept.headers.etag).toBe(edited.headers.etag);
      expect(kept.body.equals(edited.body)).toBe(true);
      expect(logged.join("\n")).toContain(
        `content/branches/pennyfold-building-society.yaml:${line}:11`,
      );

      // 3. The fix: the panel goes, and the same content gives the same bytes as before.
      await writeFile(file, original);
      await until("/", (r) => r.status === 200 && !panel(r));
      expect(
        (await until(BRANCHES, (r) => r.headers.etag === oldEtag)).body.equals(before.body),
      ).toBe(true);
    } finally {
      asking = false;
      await client;
    }
    const answered = [...statuses].map(([status, count]) => `${status} x${count}`);
    expect(answered.filter((a) => !/^(200|304) /.test(a))).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(0);
  }, 120_000);

  it("rebuilds nothing for an editor's swap file, vim's 4913 or a .git change", async () => {
    await preview.idle();
    const count = rebuilds.length;
    await writeFile(join(content.content, "branches", ".pennyfold-building-society.yaml.swp"), "x");
    await writeFile(join(content.content, "branches", "pennyfold-building-society.yaml~"), "x");
    await writeFile(join(content.content, "branches", "4913"), "");
    await rm(join(content.content, "branches", "4913"));
    await mkdir(join(content.content, ".git"), { recursive: true });
    await writeFile(join(content.content, ".git", "index"), "x");
    // Longer than the quiet time a save waits for, then nothing under way.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await preview.idle();
    expect(rebuilds.length).toBe(count);
  });

  it("makes one rebuild of the latest state from several saves in quick succession", async () => {
    await preview.idle();
    const count = rebuilds.length;
    for (let i = 1; i <= 5; i++) {
      await writeFile(file, original.replace(`Name: "${name}"`, `Name: "${name} ${i}"`));
    }
    await until(BRANCHES, (r) => r.body.toString("utf8").includes(`"${name} 5"`));
    await preview.idle();
    expect(rebuilds.length - count).toBe(1);
    await writeFile(file, original);
    await until(BRANCHES, (r) => r.body.toString("utf8").includes(`"${name}"`));
  }, 60_000);
});
