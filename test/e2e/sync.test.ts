/**
 * The sync loops docs/consumers.md shows ("Keeping a copy in sync"), run as written against the
 * real Worker over a git history: the shell one (curl and jq) and the TypeScript one (type
 * checked strictly, then run). Each, from a copy of every past version, brings it to the newest
 * records; from no copy, or a copy too old to be kept, it falls back to the full list.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";
import {
  atmBrandFile,
  historyWorker,
  publishedVersions,
  siteYaml,
  type HistoryWorker,
  type PublishedVersion,
  type TestAtm,
  type TestVersion,
} from "../helpers/history.js";

// TypeScript 5.9's API, required rather than imported: an ESM import of its one CommonJS file
// runs Node's export lexer over 9 MB first (0.9 s of CPU against 0.4).
const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");

const run = promisify(execFile);

const atm = (id: string, town: string, amount = 10): TestAtm => ({ id, town, amount });
const steady = Array.from({ length: 12 }, (_, i) => atm(`S-${i}`, "Brackenfold"));
const T0 = 1_790_100_000;
// Four versions: an ATM changed and one added; one removed and a brand added; a brand gone.
const VERSIONS: TestVersion[] = [
  {
    seconds: T0,
    files: {
      "site.yaml": siteYaml(),
      "atms/fernbrook.yaml": atmBrandFile("Fernbrook Bank", [atm("F-1", "Wexbury"), ...steady]),
      "atms/ashgrove.yaml": atmBrandFile("Ashgrove Savings", [atm("A-1", "Lynmoor")]),
    },
  },
  {
    seconds: T0 + 600,
    files: {
      "atms/fernbrook.yaml": atmBrandFile("Fernbrook Bank", [
        atm("F-1", "Wexbury", 20),
        ...steady,
        atm("F-2", "Ottersey"),
      ]),
    },
  },
  {
    seconds: T0 + 1200,
    files: {
      "atms/fernbrook.yaml": atmBrandFile("Fernbrook Bank", [atm("F-1", "Wexbury", 20), ...steady]),
      "atms/kestrel.yaml": atmBrandFile("Kestrel Bank", [atm("K-1", "Pellingford")]),
    },
  },
  { seconds: T0 + 1800, files: { "atms/ashgrove.yaml": null } },
];

/** A fenced block of `language` under `heading` in a Markdown document. */
function blockUnder(markdown: string, heading: string, language: string): string {
  const after = markdown.slice(markdown.indexOf(`\n${heading}\n`));
  const match = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(after);
  if (!match) throw new Error(`no ${language} block under ${heading}`);
  return match[1]!;
}

let worker: HistoryWorker;
let published: PublishedVersion[]; // newest first
let folder: string;
let shell: string;
let typescript: string;
beforeAll(async () => {
  worker = await historyWorker(VERSIONS);
  published = await publishedVersions(VERSIONS, "atms");
  folder = await mkdtemp(join(tmpdir(), "opendata-edge-sync-"));
  const consumers = await readFile(join(PROJECT_ROOT, "docs", "consumers.md"), "utf8");
  shell = blockUnder(consumers, "## Keeping a copy in sync", "sh");
  typescript = blockUnder(consumers, "## Keeping a copy in sync", "ts");
}, 180_000);
afterAll(async () => {
  await worker?.dispose();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Records by brand, each record's JSON, sorted: what "the same records" means. */
function records(body: string): [string, string[]][] {
  const parsed = JSON.parse(body) as { data: { Brand: { BrandName: string; ATM: unknown[] }[] }[] };
  return parsed.data
    .flatMap((d) => d.Brand)
    .map((b): [string, string[]] => [b.BrandName, b.ATM.map((r) => JSON.stringify(r)).sort()])
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/** What a synced copy must be: the newest records, its LastUpdated, its count. */
function expectNewest(copy: string): void {
  const newest = published[0]!;
  const parsed = JSON.parse(copy) as { meta: { LastUpdated: string; TotalResults: number } };
  expect(records(copy)).toEqual(records(newest.body));
  expect(parsed.meta.LastUpdated).toBe(newest.entry.lastUpdated);
  expect(parsed.meta.TotalResults).toBe(newest.entry.totalResults);
}

/** A copy whose LastUpdated no version has: older than any kept. */
const tooOld = () =>
  published.at(-1)!.body.replace(/"LastUpdated":"[^"]+"/, '"LastUpdated":"2020-01-01T00:00:00Z"');

describe("the documented shell sync loop (curl and jq)", () => {
  /** Runs the documented sync() once on copy.json (none when `copy` is undefined); curl's status. */
  async function syncOnce(copy: string | undefined): Promise<{ status: string; copy: string }> {
    const file = join(folder, "copy.json");
    await rm(file, { force: true });
    if (copy !== undefined) await writeFile(file, copy);
    const functions = shell.slice(0, shell.indexOf("\nwhile :;"));
    const script = `${functions}\nsync "$1" /std/v2.2/atms copy.json; printf '%s' "$status"`;
    const { stdout } = await run("bash", ["-c", script, "sync", worker.base.origin], {
      cwd: folder,
    });
    return { status: stdout, copy: await readFile(file, "utf8") };
  }

  it.each([1, 2, 3])("brings a copy of the version %i back to the newest records", async (age) => {
    const { status, copy } = await syncOnce(published[age]!.body);
    expect(status).toBe("200");
    expectNewest(copy);
  });

  it("leaves a copy of the newest version as it is", async () => {
    const { status, copy } = await syncOnce(published[0]!.body);
    expect(status).toBe("200");
    expectNewest(copy);
  });

  it("fetches the full list when it has no copy yet", async () => {
    const { copy } = await syncOnce(undefined);
    expect(copy).toBe(published[0]!.body);
  });

  it("fetches the full list when the copy is too old to be kept (410)", async () => {
    const { status, copy } = await syncOnce(tooOld());
    expect(status).toBe("410");
    expect(copy).toBe(published[0]!.body);
  });
});

describe("the documented TypeScript sync loop", () => {
  type Body = { meta: { LastUpdated: string } };
  let sync: (origin: string, path: string, key: string, copy?: Body) => Promise<Body>;
  beforeAll(async () => {
    const source = join(folder, "sync.ts");
    await writeFile(source, typescript);
    await writeFile(join(folder, "package.json"), '{"type":"module"}');
    // Type-checked as `npm test` type-checks the project: TypeScript 7 (scripts/tsc.mjs), strict.
    const tsc = join(
      dirname(createRequire(import.meta.url).resolve("typescript-native/package.json")),
      "bin",
      "tsc",
    );
    const checked = await run(
      process.execPath,
      [
        tsc,
        "--noEmit",
        "--pretty",
        "false",
        "--strict",
        "--noUncheckedIndexedAccess",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "--types",
        "node",
        "--typeRoots",
        join(PROJECT_ROOT, "node_modules", "@types"),
        source,
      ],
      { cwd: folder },
    ).then(
      ({ stdout }) => stdout,
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    expect(checked).toBe("");
    // Its functions only: the loop after them runs forever.
    const functions = typescript.slice(0, typescript.indexOf("// Every five minutes"));
    const js = ts.transpileModule(functions, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    await writeFile(join(folder, "sync.mjs"), js);
    ({ sync } = (await import(pathToFileURL(join(folder, "sync.mjs")).href)) as {
      sync: typeof sync;
    });
  }, 60_000);

  it.each([0, 1, 2, 3])(
    "brings a copy of the version %i back to the newest records",
    async (age) => {
      const copy = JSON.parse(published[age]!.body) as Body;
      expectNewest(JSON.stringify(await sync(worker.base.origin, "/std/v2.2/atms", "ATM", copy)));
    },
  );

  it("fetches the full list when it has no copy, and when its copy is too old (410)", async () => {
    for (const copy of [undefined, JSON.parse(tooOld()) as Body]) {
      const synced = await sync(worker.base.origin, "/std/v2.2/atms", "ATM", copy);
      expect(JSON.stringify(synced)).toBe(published[0]!.body);
    }
  });
});
