import { afterEach, assert, describe, expect, it, vi } from "vitest";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { coalesce, isContentChange, watchContent } from "../../build/preview/watch.js";
import {
  previewPage,
  previewScript,
  problemsPanel,
} from "../../build/documents/landing/preview.js";
import { previewOutput, previewVersion } from "../../build/preview/output.js";
import { Generations } from "../../build/preview/generations.js";
import { PreviewSession } from "../../build/preview/session.js";
import type { CurrentGeneration } from "../../contract/preview.js";
import { buildFixture, FIXTURE_EPOCH, sampleFixture, type Fixture } from "../helpers/fixtures.js";
import type { Diagnostic } from "../../build/core/diagnostics.js";
import type { Manifest } from "../../contract/manifest.js";
import { DECIDED } from "../helpers/spec-values.js";
import { parseJson } from "../helpers/json.js";

describe("which changes under content/ the preview rebuilds for", () => {
  const cases: [path: string, rebuilds: boolean][] = [
    ["site.yaml", true],
    ["branches/pennyfold.yaml", true],
    ["atms/big-bank/part-0001.yml", true],
    ["branches/.pennyfold.yaml.swp", false],
    ["branches/.pennyfold.yaml.swx", false],
    ["branches/pennyfold.yaml~", false],
    ["branches/4913", false],
    [".git/index", false],
    [".git/refs/heads/main.yaml", false],
    ["branches/notes.txt", false],
    ["postcode-centroids.csv", true],
    ["branches/postcode-centroids.csv", false],
    ["branches", false],
  ];
  for (const [path, rebuilds] of cases) {
    it(`${rebuilds ? "rebuilds" : "does not rebuild"} for a change at ${JSON.stringify(path)}`, () => {
      expect(isContentChange(path)).toBe(rebuilds);
    });
  }
});

describe("watching the content folder", () => {
  interface Watched {
    readonly dir: string;
    /** Changes reported so far. */
    count(): number;
    /** Waits, a bounded time, until more than `seen` changes were reported; the count then. */
    after(seen: number): Promise<number>;
    /** Waits long enough for any report to arrive (the watcher's own delays included); the count then. */
    quiet(): Promise<number>;
  }
  let open: { close(): Promise<void> | void; dir: string } | undefined;
  afterEach(async () => {
    await open?.close();
    if (open) await rm(open.dir, { recursive: true, force: true });
    open = undefined;
  });

  const wait = (ms: number) => new Promise((wake) => setTimeout(wake, ms));
  /** A content folder with one branch file, watched. */
  async function watched(): Promise<Watched> {
    const dir = await mkdtemp(join(tmpdir(), "opendata-edge-watch-"));
    await mkdir(join(dir, "branches"));
    await writeFile(join(dir, "branches", "pennyfold.yaml"), "BrandName: Pennyfold\n");
    let changes = 0;
    const watcher = await watchContent(dir, () => void changes++);
    open = { close: () => watcher.close(), dir };
    return {
      dir,
      count: () => changes,
      async after(seen) {
        for (let waited = 0; waited < 5_000 && changes <= seen; waited += 20) await wait(20);
        return changes;
      },
      async quiet() {
        await wait(500);
        return changes;
      },
    };
  }
  const run = promisify(execFile);

  it("reports every save that replaces a file by renaming a new one over it, not only the first", async () => {
    const w = await watched();
    // How vim, many IDEs and git write a file: a new file, renamed over the old one.
    for (let save = 1; save <= 3; save++) {
      const seen = w.count();
      const temp = join(w.dir, "branches", `.pennyfold.yaml.${save}.tmp`);
      await writeFile(temp, `BrandName: Pennyfold ${save}\n`);
      await rename(temp, join(w.dir, "branches", "pennyfold.yaml"));
      expect(await w.after(seen), `save ${save}`).toBeGreaterThan(seen);
    }
  });

  it("reports saves made by sed -i and git checkout, which rename or rewrite the file", async () => {
    const w = await watched();
    const file = join(w.dir, "branches", "pennyfold.yaml");
    for (let edit = 1; edit <= 2; edit++) {
      const seen = w.count();
      await run("sed", ["-i", `s/Pennyfold.*/Pennyfold ${edit}/`, file]);
      expect(await w.after(seen), `sed -i ${edit}`).toBeGreaterThan(seen);
    }
    const git = (...args: string[]) =>
      run("git", ["-c", "user.name=Editor", "-c", "user.email=editor@example.invalid", ...args], {
        cwd: w.dir,
      });
    await git("init", "-q");
    await git("add", "-A");
    await git("commit", "-q", "-m", "content");
    await writeFile(file, "BrandName: Edited\n");
    const seen = await w.quiet();
    await git("checkout", "--", "branches/pennyfold.yaml");
    expect(await w.after(seen), "git checkout").toBeGreaterThan(seen);
    expect(await readFile(file, "utf8")).toBe("BrandName: Pennyfold 2\n");
  });

  it("reports a file removed, and one added, deleted and written again", async () => {
    const w = await watched();
    let seen = w.count();
    await writeFile(join(w.dir, "branches", "second.yaml"), "BrandName: Second\n");
    seen = await w.after(seen);
    await rm(join(w.dir, "branches", "second.yaml"));
    expect(await w.after(seen), "removed").toBeGreaterThan(seen);
    seen = await w.quiet();
    await writeFile(join(w.dir, "branches", "second.yaml"), "BrandName: Second again\n");
    expect(await w.after(seen), "written again").toBeGreaterThan(seen);
  });

  it("watches a brand folder made after the start, and one removed and made again", async () => {
    const w = await watched();
    let seen = w.count();
    await mkdir(join(w.dir, "atms", "big-bank"), { recursive: true });
    await writeFile(join(w.dir, "atms", "big-bank", "part-1.yaml"), "BrandName: Big\n");
    seen = await w.after(seen);
    expect(seen, "new folders and their file").toBeGreaterThan(0);
    seen = await w.quiet();
    await writeFile(join(w.dir, "atms", "big-bank", "part-1.yaml"), "BrandName: Bigger\n");
    expect(await w.after(seen), "a save in the new folder").toBeGreaterThan(seen);
    seen = await w.quiet();
    await rm(join(w.dir, "atms", "big-bank"), { recursive: true });
    expect(await w.after(seen), "the folder removed").toBeGreaterThan(seen);
    seen = await w.quiet();
    await mkdir(join(w.dir, "atms", "big-bank"));
    await writeFile(join(w.dir, "atms", "big-bank", "part-1.yaml"), "BrandName: Back\n");
    expect(await w.after(seen), "the folder made again").toBeGreaterThan(seen);
    seen = await w.quiet();
    await writeFile(join(w.dir, "atms", "big-bank", "part-1.yaml"), "BrandName: Back again\n");
    expect(await w.after(seen), "a save in the folder made again").toBeGreaterThan(seen);
  });

  it("watches a brand folder moved in with its files", async () => {
    const w = await watched();
    const outside = join(w.dir, "..", `${basename(w.dir)}-outside`);
    await mkdir(outside);
    try {
      await writeFile(join(outside, "a.yaml"), "BrandName: Moved\n");
      let seen = await w.quiet();
      await rename(outside, join(w.dir, "branches", "moved-bank"));
      expect(await w.after(seen), "the folder moved in").toBeGreaterThan(seen);
      seen = await w.quiet();
      await writeFile(join(w.dir, "branches", "moved-bank", "a.yaml"), "BrandName: Moved on\n");
      expect(await w.after(seen), "a save in the moved folder").toBeGreaterThan(seen);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("reports nothing for an editor's swap and backup files, vim's 4913, .git or other files", async () => {
    const w = await watched();
    const seen = await w.quiet();
    const branches = join(w.dir, "branches");
    await writeFile(join(branches, ".pennyfold.yaml.swp"), "x");
    await writeFile(join(branches, ".pennyfold.yaml.swx"), "x");
    await writeFile(join(branches, "pennyfold.yaml~"), "x");
    // vim writes and removes a file named 4913 to test that it may write in the folder.
    await writeFile(join(branches, "4913"), "");
    await rm(join(branches, "4913"));
    await writeFile(join(branches, "notes.txt"), "x");
    await mkdir(join(w.dir, ".git", "refs"), { recursive: true });
    await writeFile(join(w.dir, ".git", "index"), "x");
    await writeFile(join(w.dir, ".git", "refs", "main.yaml"), "x");
    expect(await w.quiet()).toBe(seen);
    // And the watcher is still there: a save is reported.
    await writeFile(join(branches, "pennyfold.yaml"), "BrandName: Pennyfold again\n");
    expect(await w.after(seen)).toBeGreaterThan(seen);
  });
});

describe("coalescing saves into rebuilds", () => {
  afterEach(() => vi.useRealTimers());

  it("makes one run of several pokes within the quiet time", async () => {
    vi.useFakeTimers();
    let runs = 0;
    const c = coalesce(() => {
      runs++;
      return Promise.resolve();
    }, 30);
    for (let i = 0; i < 5; i++) {
      c.poke();
      await vi.advanceTimersByTimeAsync(10);
    }
    await vi.advanceTimersByTimeAsync(30);
    await c.idle();
    expect(runs).toBe(1);
  });

  it("runs once more after a run during which saves arrived, never two at once", async () => {
    vi.useFakeTimers();
    let running = 0;
    let most = 0;
    let runs = 0;
    let finish: (() => void) | undefined;
    const c = coalesce(async () => {
      runs++;
      most = Math.max(most, ++running);
      await new Promise<void>((resolve) => (finish = resolve));
      running--;
    }, 30);
    c.poke();
    await vi.advanceTimersByTimeAsync(30);
    expect(runs).toBe(1);
    c.poke();
    await vi.advanceTimersByTimeAsync(30);
    c.poke();
    await vi.advanceTimersByTimeAsync(30);
    expect(runs).toBe(1);
    finish!();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    finish!();
    await c.idle();
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });

  it("starts nothing once closed", async () => {
    vi.useFakeTimers();
    let runs = 0;
    const c = coalesce(() => {
      runs++;
      return Promise.resolve();
    }, 30);
    c.poke();
    await c.close();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(0);
  });
});

const problem: Diagnostic = {
  file: "content/branches/a&b.yaml",
  line: 7,
  column: 11,
  pointer: "/Branch/0/Name",
  message: 'must be text, but YAML read the number 12; put it in quotes: <"12">',
  rule: "type",
};
const warning: Diagnostic = {
  file: "content/atms/a&b.yaml",
  line: 57,
  column: 13,
  pointer: "/ATM/0/Location/PostalAddress/GeoLocation/GeographicCoordinates",
  message: "Latitude -1.73411 and Longitude 54.12372 look swapped <here>",
  rule: "coordinates-swapped",
  severity: "warning",
};
const at = (line: number): Diagnostic => ({ ...warning, line });
const page =
  "<!doctype html>\n<html>\n<head>\n<title>t</title>\n</head>\n<body>\n<main></main>\n</body>\n</html>\n";

describe("the preview's landing page", () => {
  it("loads the preview's script and carries its version in the head", () => {
    const html = previewPage(page, { version: "abc", problems: [] });
    expect(html).toContain(`<script src="${DECIDED.preview.scriptPath}" defer></script>\n</head>`);
    expect(html).toContain('<meta name="preview-version" content="abc">');
    expect(html).not.toContain("problems");
  });

  it("puts the problems last in the body, after the page, each with its file, line, column and pointer, escaped", () => {
    const html = previewPage(page, { version: "abc", problems: [problem] });
    const body = html.slice(html.indexOf("<body>"));
    // Last, so the reload that shows it moves nothing the reader was looking at.
    expect(body.indexOf('class="problems"')).toBeGreaterThan(body.indexOf("</main>"));
    expect(body.indexOf('class="problems"')).toBeLessThan(body.indexOf("</body>"));
    expect(html).toContain("content/branches/a&amp;b.yaml:7:11</code>");
    expect(html).toContain("/Branch/0/Name</code>");
    expect(html).toContain('&lt;"12"&gt;');
  });

  it("counts the problems in the panel's heading", () => {
    expect(problemsPanel([problem])).toContain("1 problem:");
    expect(problemsPanel([problem, problem])).toContain("2 problems:");
  });

  it("lists the data-quality warnings, each with its file, line, column, message and rule, escaped", () => {
    const html = previewPage(page, { version: "abc", problems: [], warnings: [warning] });
    expect(html).not.toContain('class="problems"');
    const panel = html.slice(html.indexOf('<details class="warnings"'), html.indexOf("</details>"));
    expect(panel).toContain("<summary>1 data-quality warning");
    expect(panel).toContain("content/atms/a&amp;b.yaml:57:13</code>");
    expect(panel).toContain("look swapped &lt;here&gt;");
    expect(panel).toContain("coordinates-swapped");
  });

  it("shows a few warnings open and folds many behind their count", () => {
    const three = previewPage(page, { version: "abc", problems: [], warnings: [1, 2, 3].map(at) });
    expect(three).toMatch(/<details class="warnings" id="warnings" open>/);
    const four = previewPage(page, {
      version: "abc",
      problems: [],
      warnings: [1, 2, 3, 4].map(at),
    });
    expect(four).toMatch(/<details class="warnings" id="warnings">/);
    expect(four).toContain("<summary>4 data-quality warnings");
    for (const line of [1, 2, 3, 4]) expect(four).toContain(`content/atms/a&amp;b.yaml:${line}:13`);
  });

  it("has a script that writes the page's own origin into the examples and drops the line about setting it", () => {
    const script = previewScript();
    expect(script).toContain('document.querySelectorAll(".origin")');
    expect(script).toContain("location.origin");
    expect(script).toContain('document.querySelectorAll(".origin-note")');
  });
});

const etag = (c: string) => `"${c.repeat(64)}"`;
const manifest: Manifest = {
  formatVersion: 1,
  datasets: [
    {
      dataset: "branches",
      path: "/std/v2.2/branches",
      mediaType: "application/prs.std.opendata.v2.2+json",
      lastModified: "Mon, 21 Sep 2026 14:13:20 GMT",
      lastModifiedMs: 1790000000000,
      lastUpdated: "2026-09-21T14:13:20Z",
      totalResults: 1,
      brands: 1,
      aliases: [],
      variants: { identity: { asset: "/std/v2.2/branches.json", etag: etag("a"), length: 2 } },
    },
  ],
  documents: [
    {
      path: "/",
      mediaType: "text/html; charset=utf-8",
      lastModified: "Mon, 21 Sep 2026 14:13:20 GMT",
      lastModifiedMs: 1790000000000,
      variants: {
        identity: { asset: "/index.html", etag: etag("b"), length: page.length },
        br: { asset: "/index.html.br", etag: etag("c"), length: 1 },
      },
    },
  ],
};
const files = [
  { path: "manifest.json", bytes: JSON.stringify(manifest) },
  { path: "std/v2.2/branches.json", bytes: "{}" },
  { path: "index.html", bytes: page },
  { path: "index.html.br", bytes: "x" },
];

describe("what the preview publishes", () => {
  it("keeps every data set's bytes and replaces the page with the preview's, identity only", () => {
    const out = previewOutput({ files, manifest }, [problem]);
    expect(out.files.find((f) => f.path === "std/v2.2/branches.json")?.bytes).toBe("{}");
    expect(out.files.map((f) => f.path)).not.toContain("index.html.br");
    const landing = out.manifest.documents.find((d) => d.path === "/")!;
    expect(Object.keys(landing.variants)).toEqual(["identity"]);
    const html = String(out.files.find((f) => f.path === "index.html")!.bytes);
    expect(html).toContain('class="problems"');
    expect(out.manifest.datasets).toEqual(manifest.datasets);
  });

  it("shows the warnings it is given, and a change in them makes a new version", () => {
    const plain = previewOutput({ files, manifest }, []);
    const warned = previewOutput({ files, manifest }, [], [warning]);
    const html = (out: typeof plain) =>
      String(out.files.find((f) => f.path === "index.html")!.bytes);
    expect(html(plain)).not.toContain('class="warnings"');
    expect(html(warned)).toContain('class="warnings"');
    expect(html(warned)).toContain("content/atms/a&amp;b.yaml:57:13");
    expect(warned.version).not.toBe(plain.version);
  });

  it("serves the version and the script as documents of the manifest", () => {
    const out = previewOutput({ files, manifest }, []);
    const paths = out.manifest.documents.map((d) => d.path);
    expect(paths).toContain(DECIDED.preview.versionPath);
    expect(paths).toContain(DECIDED.preview.scriptPath);
    const written = parseJson(String(out.files.find((f) => f.path === "manifest.json")!.bytes));
    expect(written).toEqual(out.manifest);
  });

  it("changes the version with the data or the problems, and only then", () => {
    const same = previewVersion(manifest, []);
    expect(previewVersion(manifest, [])).toBe(same);
    expect(previewVersion(manifest, [problem])).not.toBe(same);
    const edited: Manifest = {
      ...manifest,
      datasets: [
        {
          ...manifest.datasets[0]!,
          variants: { identity: { ...manifest.datasets[0]!.variants.identity, etag: etag("d") } },
        },
      ],
    };
    expect(previewVersion(edited, [])).not.toBe(same);
  });
});

describe("the generations the preview's Worker reads (contract/preview.ts)", () => {
  const files = (text: string) => [{ path: "std/v2.2/branches.json", bytes: text }];
  const current = (generations: Generations, have = "") =>
    generations.answer(new Request(`http://preview.invalid/current?have=${have}`));
  const file = (generations: Generations, id: string, asset: string) =>
    generations.answer(
      new Request(`http://preview.invalid/files/${encodeURIComponent(id)}${asset}`),
    );

  it("names the current generation, sends its manifest only to a reader that has not seen it", async () => {
    const generations = new Generations();
    expect(current(generations).status).toBe(503);
    const id = generations.publish({ manifest, files: files("{}"), built: true });
    const first = current(generations);
    expect(first.status).toBe(200);
    expect(first.headers.get("Preview-Generation")).toBe(id);
    expect(await first.json()).toEqual({ id, built: true, manifest });
    const again = current(generations, id);
    expect(again.status).toBe(204);
    expect(again.headers.get("Preview-Generation")).toBe(id);
  });

  it("keeps serving a generation's files after a newer one is published, each its own bytes", async () => {
    const generations = new Generations();
    const old = generations.publish({ manifest, files: files("{}"), built: true });
    const next = generations.publish({ manifest, files: files("[]"), built: true });
    expect(next).not.toBe(old);
    const bytes = async (id: string) => {
      const answer = file(generations, id, "/std/v2.2/branches.json");
      expect(answer.headers.get("Content-Length")).toBe("2");
      return answer.text();
    };
    expect(await bytes(old)).toBe("{}");
    expect(await bytes(next)).toBe("[]");
    expect(file(generations, next, "/nothing.json").status).toBe(404);
    expect(file(generations, "never", "/std/v2.2/branches.json").status).toBe(404);
  });
});

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
