/**
 * `npm start` as an editor runs it (package.json's script, then scripts/dev.mjs), in a scratch
 * copy of a fresh checkout (no dist/, no cache) whose content does not build: it starts anyway,
 * the page shows the problem, every API path answers the spec's 503, and the first good save
 * publishes. Then twenty valid saves in a row, each served, print no error line, and an invalid
 * save still prints its problem, and stopping it stops it whole. Everything the process writes,
 * stdout and stderr, is read.
 */
import { execSync, spawn, type ChildProcess } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_DIR } from "../../build/core/paths.js";
import { scratchProject } from "../helpers/preview.js";
import { specErrorBody } from "../helpers/spec-values.js";
import { request, type RawResponse } from "./http.js";

const BRANCH_FILE = join("branches", "pennyfold-building-society.yaml");
const BRANCHES = "/std/v2.2/branches";

let project: Awaited<ReturnType<typeof scratchProject>>;
let child: ChildProcess;
let exited: Promise<void>;
/** Every line the process wrote, stdout and stderr interleaved as they came. */
const output: string[] = [];
let url: URL;
let original: string;
let name: string;
let broken: string;
let place: string;
/** The process's own temporary folder (TMPDIR), to see what it leaves there. */
let tmp: string;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits, up to `ms`, for `done`; throws with what the process printed if it never holds. */
async function until<T>(
  what: string,
  done: () => Promise<T | undefined> | T | undefined,
  ms = 60_000,
): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    const value = await done();
    if (value !== undefined) return value;
    await wait(50);
  }
  throw new Error(`${what}: not within ${ms} ms; npm start printed:\n${output.join("\n")}`);
}

let client = 0;
// Each request from its own client address, so the rate limit never answers.
const get = (path: string): Promise<RawResponse> =>
  request(new URL(path, url), {
    headers: { "CF-Connecting-IP": `198.18.${client >> 8}.${client++ & 255}` },
  });

beforeAll(async () => {
  original = await readFile(join(CONTENT_DIR, BRANCH_FILE), "utf8");
  name = /^ {4}Name: "([^"]+)"$/m.exec(original)![1]!;
  broken = original.replace(`    Name: "${name}"`, "    Name: 12");
  const line = broken.slice(0, broken.indexOf("    Name: 12")).split("\n").length;
  place = `content/branches/pennyfold-building-society.yaml:${line}:11`;
  project = await scratchProject({ [BRANCH_FILE]: broken });
  tmp = join(project.root, "tmp");
  await mkdir(tmp);
  // Its own process group, so the shell and node under npm stop with it.
  child = spawn("npm", ["start"], {
    cwd: project.root,
    env: { ...process.env, PORT: "0", TMPDIR: tmp },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  exited = new Promise((resolve) => child.once("exit", () => resolve()));
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = "";
    stream.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString("utf8")).split("\n");
      rest = lines.pop()!;
      output.push(...lines);
    });
  }
  const origin = await until("the server's address", () => {
    if (child.exitCode !== null) throw new Error(`npm start exited:\n${output.join("\n")}`);
    return /Serving on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output.join("\n"))?.[1];
  });
  url = new URL(origin);
}, 120_000);

afterAll(async () => {
  // Still running (the test that stops it did not run, or failed): stop it.
  if (child?.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    process.kill(-child.pid, "SIGTERM");
    const stopped = await Promise.race([exited.then(() => true), wait(20_000).then(() => false)]);
    if (!stopped) process.kill(-child.pid, "SIGKILL");
  }
  await project?.cleanup();
}, 30_000);

describe("npm start on content that does not build, in a fresh checkout", () => {
  it("starts anyway, prints the problem, and the page shows it", async () => {
    expect(output.join("\n")).toContain(place);
    const page = await get("/");
    expect(page.status).toBe(200);
    expect(page.body.toString("utf8")).toContain(place);
  });

  it("answers an API path with the spec's 503 while nothing has built", async () => {
    const answer = await get(BRANCHES);
    expect(answer.status).toBe(503);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answer.body.toString("utf8"))).toEqual(specErrorBody(503));
  });

  it("publishes the first save that builds", async () => {
    await writeFile(join(project.content, BRANCH_FILE), original);
    const served = await until("the fixed content served", async () => {
      const answer = await get(BRANCHES);
      return answer.status === 200 ? answer : undefined;
    });
    expect(served.body.toString("utf8")).toContain(`"Name":"${name}"`);
    const page = await get("/");
    expect(page.body.toString("utf8")).not.toContain(place);
  });

  it("prints no error line over twenty valid saves in a row, each served", async () => {
    const from = output.length;
    for (let i = 1; i <= 20; i++) {
      await writeFile(
        join(project.content, BRANCH_FILE),
        original.replace(`Name: "${name}"`, `Name: "${name} ${i}"`),
      );
      await until(`save ${i} served`, async () =>
        (await get(BRANCHES)).body.toString("utf8").includes(`"Name":"${name} ${i}"`)
          ? true
          : undefined,
      );
    }
    // Every rebuild is said, and nothing else but the preview's own lines.
    await until("the last rebuild said", () =>
      output.slice(from).filter((l) => l.startsWith("Rebuilt in")).length >= 20 ? true : undefined,
    );
    const errors = output.slice(from).filter((l) => /error|✘|could not resolve/i.test(l));
    expect(errors).toEqual([]);
  }, 180_000);

  it("still prints the problem an invalid save makes", async () => {
    const from = output.length;
    await writeFile(join(project.content, BRANCH_FILE), broken);
    await until("the problem printed", () =>
      output.slice(from).some((l) => l.startsWith(place)) ? true : undefined,
    );
  });
});

describe("stopping", () => {
  it("stops npm start whole: no process left, and nothing left in its temporary folder", async () => {
    const from = output.length;
    // To the whole process group (npm, the shell, node, workerd), as a terminal's Ctrl+C or a
    // service manager stops it. SIGTERM here: a test worker's children inherit SIGINT ignored,
    // as a shell's background jobs do; wrangler, which handles both in the process, alike.
    process.kill(-child.pid!, "SIGTERM");
    // npm itself exits at once; the group is gone once the preview has closed and node exited.
    // (Signal 0 only asks whether any process of the group is left.)
    await until(
      "every process of the group gone",
      () => {
        try {
          process.kill(-child.pid!, 0);
          return undefined;
        } catch {
          return true;
        }
      },
      20_000,
    ).catch((error: Error) => {
      const ps = execSync(`ps -eo pid,pgid,stat,args | awk '$2==${child.pid}'`).toString();
      throw new Error(`${error.message.split("\n")[0]}\n${ps}\n${output.slice(from).join("\n")}`);
    });
    // Nothing of it is left in its temporary folder (the preview's empty assets folder is kept
    // under .wrangler/; wrangler removes its own on the way out).
    expect(await readdir(tmp)).toEqual([]);
    expect(output.slice(from).filter((l) => /error|✘/i.test(l))).toEqual([]);
  }, 30_000);
});
