/**
 * The guard's baselines: which one each command uses, and the live deployment read over HTTP
 * from a server on loopback started here (no other address is ever contacted).
 */
import { readdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, assert, beforeAll, describe, expect, it } from "vitest";
import {
  chooseBaseline,
  fetchPublished,
  loadBaseline,
  type BaselineChoice,
} from "../../../build/guard/baseline.js";
import { DATASETS } from "../../../build/core/datasets.js";
import { DEFAULT_MAX_SHRINK, findShrinks, GuardUsageError } from "../../../build/guard/policy.js";
import type { Manifest, ManifestEntry } from "../../../contract/manifest.js";
import { branchBrand, buildFixture, sampleFixture, type Fixture } from "../../helpers/fixtures.js";
import { buildCommand, commitAll } from "../../helpers/cli.js";
import { warmCache } from "../../helpers/sample-build.js";

/** A manifest with the given TotalResults per data set (other fields do not matter here). */
function manifest(totals: Partial<Record<string, number>>): Manifest {
  return {
    formatVersion: 1,
    documents: [],
    datasets: DATASETS.map(
      (d) => ({ dataset: d.id, totalResults: totals[d.id] ?? 10 }) as unknown as ManifestEntry,
    ),
  };
}

describe("which baseline a run compares with", () => {
  const none = { publish: false };
  it.each<[string, BaselineChoice, ReturnType<typeof chooseBaseline>]>([
    ["a local build: the output it replaces", none, { kind: "output" }],
    [
      "a local build, even with a deployment URL set",
      { publish: false, deploymentUrl: "https://opendata.example" },
      { kind: "output" },
    ],
    [
      "a publication with a deployment URL: the live data sets",
      { publish: true, deploymentUrl: "https://opendata.example" },
      { kind: "url", url: "https://opendata.example" },
    ],
    ["a publication without one: the last commit", { publish: true }, { kind: "ref", ref: "HEAD" }],
    [
      "a publication with an empty URL: the last commit",
      { publish: true, deploymentUrl: " " },
      { kind: "ref", ref: "HEAD" },
    ],
    [
      "a revision given: that revision, even with a URL set",
      { publish: true, ref: "abc1234", deploymentUrl: "https://opendata.example" },
      { kind: "ref", ref: "abc1234" },
    ],
    [
      "a manifest given",
      { publish: false, file: "/tmp/m.json" },
      { kind: "file", file: "/tmp/m.json" },
    ],
    [
      "a URL given",
      { publish: false, url: "http://127.0.0.1:9" },
      { kind: "url", url: "http://127.0.0.1:9" },
    ],
  ])("%s", (_, choice, expected) => {
    expect(chooseBaseline(choice)).toEqual(expected);
  });

  it("refuses two baselines at once", () => {
    expect(() => chooseBaseline({ publish: true, ref: "HEAD", url: "https://x.example" })).toThrow(
      "give only one of --baseline-ref, --baseline-url",
    );
  });
});

/** A stand-in deployment on 127.0.0.1: answers each data path as `answers` says. */
type Answer = { status: number; body?: string } | "hang";
let server: Server;
let origin: string;
let answers: Map<string, Answer>;
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? "");
    const answer = answers.get(req.url ?? "") ?? { status: 404, body: "{}" };
    if (answer === "hang") return; // never answers; the client's timeout must end it
    res.writeHead(answer.status, { "Content-Type": "application/json" });
    res.end(answer.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const envelope = (total: number) => JSON.stringify({ meta: { TotalResults: total }, data: [] });
const pathOf = (id: string) => DATASETS.find((d) => d.id === id)!.path;

describe("the live deployment as baseline", () => {
  it("reads each data set's meta.TotalResults from the path the deployment serves it on", async () => {
    answers = new Map(DATASETS.map((d, i) => [d.path, { status: 200, body: envelope(10 + i) }]));
    const baseline = await fetchPublished(origin, fetch);
    expect(baseline.name).toBe(`the live data sets at ${origin}`);
    expect(baseline.manifest?.datasets).toEqual(
      DATASETS.map((d, i) => ({ dataset: d.id, totalResults: 10 + i })),
    );
  });

  it("treats a data set the deployment answers 404 for as not yet published", async () => {
    answers = new Map([[pathOf("atms"), { status: 200, body: envelope(7) }]]);
    const baseline = await fetchPublished(origin, fetch);
    expect(baseline.manifest?.datasets).toEqual([{ dataset: "atms", totalResults: 7 }]);
    answers = new Map();
    expect((await fetchPublished(origin, fetch)).manifest).toBeUndefined();
  });

  it.each<[string, Answer, RegExp]>([
    ["a 503", { status: 503, body: "{}" }, /it answered 503/],
    ["a body that is not JSON", { status: 200, body: "<html>" }, /its body is not JSON/],
    ["a body without TotalResults", { status: 200, body: '{"data":[]}' }, /no meta\.TotalResults/],
    ["no answer in time", "hang", /cannot read http:\/\/127\.0\.0\.1:\d+\/std\/v2\.2\/branches/],
  ])("stops, naming the address and what to do, on %s", async (_, answer, message) => {
    answers = new Map([[pathOf("branches"), answer]]);
    const reading = fetchPublished(origin, fetch, 300);
    await expect(reading).rejects.toThrow(GuardUsageError);
    await expect(reading).rejects.toThrow(message);
    await expect(reading).rejects.toThrow(/OPENDATA_DEPLOYMENT_URL.*--baseline-ref <commit>/);
  });

  it("refuses an address that is not http(s)", async () => {
    await expect(fetchPublished("opendata.example", fetch)).rejects.toThrow(
      /must be the deployment's http\(s\) address/,
    );
  });
});

describe("npm run deploy's build against the live deployment", () => {
  let fixture: Fixture;
  afterEach(async () => fixture?.cleanup());

  it("refuses to publish when the deployment serves more records than the content has", async () => {
    fixture = await sampleFixture({
      "branches/zed-bank.yaml": branchBrand("Zed Bank", ["Z1"]),
    });
    answers = new Map([[pathOf("branches"), { status: 200, body: envelope(100) }]]);
    const env = { OPENDATA_DEPLOYMENT_URL: origin };
    const cache = await warmCache();
    const args = ["build", "--content", "content", "--out", "dist", "--cache", cache];
    const published = await buildCommand([...args, "--publish"], { cwd: fixture.root, env });
    expect(published.code).toBe(1);
    expect(published.stderr).toMatch(
      new RegExp(
        `^content/branches:1:1: /: Branches would shrink from 100 to \\d+ records .* against the live data sets at ${origin.replace(/\./g, "\\.")}\\.`,
        "m",
      ),
    );
    // Without --publish the same deployment URL is not even read: a local build compares with dist/.
    requested.length = 0;
    const local = await buildCommand(args, { cwd: fixture.root, env });
    expect(local.code).toBe(0);
    expect(requested).toEqual([]);
  });
});

describe("the last published manifest", () => {
  let fixture: Fixture;
  afterEach(async () => fixture?.cleanup());

  it("is by default the manifest.json in the output folder being replaced", async () => {
    fixture = await sampleFixture();
    const built = await buildFixture(fixture, { cacheDir: await warmCache() });
    assert(built.ok);
    const baseline = await loadBaseline({
      source: { kind: "output" },
      outDir: fixture.out,
      contentDir: fixture.content,
      cwd: fixture.root,
    });
    expect(baseline.name).toBe("dist/manifest.json");
    expect(baseline.manifest).toEqual(built.manifest);
  });

  it("is nothing on a first build, when there is no output folder yet", async () => {
    fixture = await sampleFixture();
    const baseline = await loadBaseline({
      source: { kind: "output" },
      outDir: fixture.out,
      contentDir: fixture.content,
      cwd: fixture.root,
    });
    expect(baseline).toEqual({ manifest: undefined, name: "dist/manifest.json (none yet)" });
  });

  it("can be a manifest file given explicitly, which must be a build manifest", async () => {
    fixture = await sampleFixture();
    const file = join(fixture.root, "deployed.json");
    await writeFile(file, JSON.stringify(manifest({ atms: 3 })));
    const baseline = await loadBaseline({
      source: { kind: "file", file },
      outDir: fixture.out,
      contentDir: fixture.content,
      cwd: fixture.root,
    });
    expect(baseline.name).toBe("deployed.json");
    expect(baseline.manifest?.datasets.find((d) => d.dataset === "atms")?.totalResults).toBe(3);
    await writeFile(file, '{"data": []}');
    await expect(
      loadBaseline({
        source: { kind: "file", file },
        outDir: fixture.out,
        contentDir: fixture.content,
        cwd: fixture.root,
      }),
    ).rejects.toThrow(/deployed\.json is not a build manifest/);
  });

  it("can be a git revision, whose content is built to compare with, with the cache given", async () => {
    fixture = await sampleFixture({
      "branches/zed-bank.yaml": branchBrand("Zed Bank", ["Z1", "Z2", "Z3", "Z4"]),
    });
    const deployed = await commitAll(fixture.root, "deployed");
    await fixture.put({ "branches/zed-bank.yaml": branchBrand("Zed Bank", ["Z1"]) });
    const cacheDir = join(fixture.root, "revision-cache");
    const baseline = await loadBaseline({
      source: { kind: "ref", ref: deployed },
      outDir: fixture.out,
      contentDir: fixture.content,
      cwd: fixture.root,
      cacheDir,
    });
    expect(baseline.name).toBe(`the content of ${deployed.slice(0, 7)}`);
    // The revision was checked with the build cache the command was given, not the project's.
    expect(await readdir(cacheDir)).toContain("fingerprint.json");
    const now = await buildFixture(fixture, { cacheDir: await warmCache() });
    assert(now.ok);
    const shrinks = findShrinks(baseline.manifest, now.manifest, DEFAULT_MAX_SHRINK);
    const before = baseline.manifest!.datasets.find((d) => d.dataset === "branches")!.totalResults;
    expect(shrinks).toMatchObject([{ dataset: "branches", before, after: before - 3 }]);
  });
});
