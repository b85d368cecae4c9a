/**
 * /openapi.json under the linters consumers run on the documents they depend on: Redocly CLI's
 * recommended rules and Spectral's spectral:oas ruleset, both pinned in package.json. Each runs as
 * its own process, offline, once; a finding fails with its rule, path and message. Redocly reads
 * the document the build wrote with the live standard's paths on, and a copy it must find fault
 * with. Spectral (about 3 s of CPU per document here) reads only the copy it must find fault
 * with, the same document less its contact: of spectral:oas's recommended rules only info-contact
 * reads the contact (contact-properties is not one of them), so anything else it finds there it
 * would find in the document as built. The document without the live standard's paths is the
 * same document less the alias paths, which the first test checks, so what the linters find in
 * it they would find in the larger one.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join, resolve as resolvePath } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";
import { objectAt, parseJson, pointer } from "../helpers/json.js";
import { sampleBuild } from "../helpers/sample-build.js";

const run = promisify(execFile);
const resolve = createRequire(import.meta.url).resolve;
const REDOCLY = join(resolve("@redocly/cli/package.json"), "..", "bin", "cli.js");
const SPECTRAL = join(resolve("@stoplight/spectral-cli/package.json"), "..", "dist", "index.js");
const SPECTRAL_RULESET = join(PROJECT_ROOT, "test", "fixtures", "lint", "spectral.yaml");

// No telemetry, no update check: the tests make no network call.
const OFFLINE = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
};

/** What a linter wrote to its standard output: it exits non-zero when it finds something. */
async function lintOutput(args: readonly string[]): Promise<string> {
  try {
    return (await run(process.execPath, args, { env: OFFLINE })).stdout;
  } catch (error) {
    // execFile's error carries the process's output (Node's child_process.execFile).
    const { stdout } = error as { stdout?: unknown };
    if (typeof stdout === "string") return stdout;
    throw error;
  }
}

/** Redocly's findings in each file, as "rule at pointer: message", from one run over them all. */
async function redocly(files: readonly string[]): Promise<Map<string, string[]>> {
  // --max-problems: every finding (Redocly stops at 100 by default, fewer than the operations).
  const args = [REDOCLY, "lint", ...files, "--extends", "recommended", "--format", "json"];
  args.push("--max-problems", "10000");
  const stdout = await lintOutput(args);
  // One report per file, in the order given, written one after another.
  const reports = stdout
    .trim()
    .split(/(?<=^\})(?=\{$)/m)
    .map(
      (text) =>
        JSON.parse(text) as {
          problems: {
            ruleId: string;
            message: string;
            location: { pointer: string; source: { ref: string } }[];
          }[];
        },
    );
  expect(reports).toHaveLength(files.length);
  return new Map(
    files.map((file, i) => {
      const problems = reports[i]!.problems;
      // Redocly names each file relative to its working folder, this process's.
      for (const p of problems) expect(resolvePath(p.location[0]!.source.ref)).toBe(file);
      return [file, problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)];
    }),
  );
}

/** Spectral's findings (every severity) in each file, as "rule at path: message", from one run. */
async function spectral(files: readonly string[]): Promise<Map<string, string[]>> {
  const args = [SPECTRAL, "lint", ...files, "--ruleset", SPECTRAL_RULESET, "--format", "json"];
  const stdout = await lintOutput(args);
  // The JSON array, then (when there is no error) a sentence on the same line.
  const json = stdout.slice(stdout.indexOf("["), stdout.lastIndexOf("]") + 1);
  const findings = JSON.parse(json) as {
    code: string;
    path: string[];
    message: string;
    source: string;
  }[];
  for (const f of findings) expect(files).toContain(f.source);
  return new Map(
    files.map((file) => [
      file,
      findings
        .filter((f) => f.source === file)
        .map((f) => `${f.code} at /${f.path.join("/")}: ${f.message}`),
    ]),
  );
}

// The documents the run built from the sample content (test/helpers/global-setup.ts), without
// and with the live standard's paths, and two the linters must find fault with, made from the
// second: the first without its statement that the data needs no credentials, the second
// without a contact.
const PLAIN = join(sampleBuild("plain").out, "openapi.json");
const LIVE = join(sampleBuild("live").out, "openapi.json");
let folder: string;
let noSecurity: string;
let noContact: string;
let operations: number;
/** Each linter's findings by file, each linter run once over its files. */
const findings = new Map<string, Map<string, string[]>>();

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "opendata-edge-lint-"));
  const doc = objectAt(parseJson(await readFile(LIVE, "utf8")), "");
  const paths = objectAt(doc, "/paths");
  operations = Object.keys(paths).flatMap((path) =>
    Object.keys(objectAt(paths, pointer(path))),
  ).length;
  const { security: _security, ...withoutSecurity } = doc;
  noSecurity = join(folder, "no-security.json");
  await writeFile(noSecurity, JSON.stringify(withoutSecurity));
  const { contact: _contact, ...info } = objectAt(doc, "/info");
  noContact = join(folder, "no-contact.json");
  await writeFile(noContact, JSON.stringify({ ...doc, info }));
  const [redoclyFindings, spectralFindings] = await Promise.all([
    redocly([LIVE, noSecurity]),
    spectral([noContact]),
  ]);
  findings.set("redocly", redoclyFindings);
  findings.set("spectral", spectralFindings);
}, 60_000);
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe("the document without the live standard's paths", () => {
  it("is the document with them less its alias paths: every other path and member the same", async () => {
    const plain = objectAt(parseJson(await readFile(PLAIN, "utf8")), "");
    const live = objectAt(parseJson(await readFile(LIVE, "utf8")), "");
    const { paths: _plainPaths, ...plainRest } = plain;
    const { paths: _livePaths, ...liveRest } = live;
    expect(plainRest).toEqual(liveRest);
    const livePathItems = objectAt(live, "/paths");
    const plainPathItems = objectAt(plain, "/paths");
    expect(Object.keys(plainPathItems).length).toBeGreaterThan(0);
    expect(Object.keys(livePathItems).length).toBeGreaterThan(Object.keys(plainPathItems).length);
    for (const [path, item] of Object.entries(plainPathItems)) {
      expect(livePathItems[path], path).toEqual(item);
    }
  });
});

describe("Redocly CLI (recommended)", () => {
  it("reports nothing on the document built from the sample content, the live standard's paths served too", () => {
    expect(findings.get("redocly")!.get(LIVE)).toEqual([]);
  });
});

describe("Spectral (spectral:oas)", () => {
  it("reports nothing on the document built from the sample content, the live standard's paths served too, but the contact taken out of it", () => {
    const found = findings.get("spectral")!.get(noContact)!;
    expect(found.filter((f) => !f.startsWith("info-contact "))).toEqual([]);
  });
});

describe("the linters are really looking", () => {
  it("Redocly reports every operation once the document stops saying it needs no credentials", () => {
    const found = findings.get("redocly")!.get(noSecurity)!;
    expect(found.filter((f) => f.startsWith("security-defined"))).toHaveLength(operations);
    expect(operations).toBeGreaterThan(0);
  });

  it("Spectral reports info-contact once site.yaml names no contact", () => {
    expect(findings.get("spectral")!.get(noContact)).toEqual([
      'info-contact at /info: Info object must have "contact" object.',
    ]);
  });
});
