/**
 * The curl polling loop the documents show scrapers (docs/consumers.md, "Polling with curl", and
 * the landing page), run as written against the real Worker: the first run keeps the data set,
 * the next costs a 304 and leaves it as it was.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST_DIR, PROJECT_ROOT } from "../../build/core/paths.js";
import { startWorker, type RunningWorker } from "../helpers/worker.js";
import { shellExamples } from "../helpers/page-examples.js";

const run = promisify(execFile);

/** The shell block under a heading of a Markdown document. */
function shellBlockUnder(markdown: string, heading: string): string {
  const after = markdown.slice(markdown.indexOf(`\n${heading}\n`));
  const match = /```sh\n([\s\S]*?)```/.exec(after);
  if (!match) throw new Error(`no sh block under ${heading}`);
  return match[1]!;
}

/** The poll() function of a loop, without the line that calls it forever. */
const pollFunction = (loop: string) => loop.slice(0, loop.indexOf("\n}\n") + 3);

let worker: RunningWorker;
let folder: string;
let documented: string;
beforeAll(async () => {
  worker = await startWorker();
  folder = await mkdtemp(join(tmpdir(), "opendata-edge-polling-"));
  const consumers = await readFile(join(PROJECT_ROOT, "docs", "consumers.md"), "utf8");
  documented = shellBlockUnder(consumers, "### Polling with curl");
}, 60_000);
afterAll(async () => {
  await worker?.dispose();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Runs the documented poll() once for `path`, keeping it in data.json; returns curl's status. */
async function pollOnce(path: string): Promise<string> {
  const script = `${pollFunction(documented)}poll "$1" data.json; printf '%s' "$status"`;
  const url = new URL(path, worker.base).href;
  const { stdout } = await run("bash", ["-c", script, "poll", url], { cwd: folder });
  return stdout;
}

describe("the documented polling loop", () => {
  it("keeps the data set on the first run and gets a 304 that changes nothing on the next", async () => {
    const path = "/std/v2.2/atms";
    const entry = worker.manifest.datasets.find((d) => d.path === path)!;
    const identity = await readFile(join(DIST_DIR, entry.variants.identity.asset));

    expect(await pollOnce(path)).toBe("200");
    expect((await readFile(join(folder, "data.json"))).equals(identity)).toBe(true);
    const etag = (await readFile(join(folder, "data.json.etag"), "utf8")).trim();
    expect(Object.values(entry.variants).map((v) => v.etag)).toContain(etag);

    expect(await pollOnce(path)).toBe("304");
    expect((await readFile(join(folder, "data.json"))).equals(identity)).toBe(true);
  });

  it("is the loop the landing page shows", async () => {
    const page = await readFile(join(DIST_DIR, "index.html"), "utf8");
    const shown = shellExamples(page).find((b) => b.includes("poll() {"));
    expect(shown).toBeDefined();
    expect(pollFunction(shown!.slice(shown!.indexOf("poll() {")))).toBe(pollFunction(documented));
  });
});
