/**
 * /openapi.json under the linters consumers run on the documents they depend on: Redocly CLI's
 * recommended rules and Spectral's spectral:oas ruleset, both pinned in package.json. Each runs as
 * its own process, offline, on the document the build wrote, with the live standard's paths on
 * and off; a finding fails with its rule, path and message.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../build/core/paths.js";
import { buildFixture, sampleFixture, type Fixture } from "../helpers/fixtures.js";

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

/** Redocly's findings as "rule at pointer: message". */
async function redocly(file: string): Promise<string[]> {
  const args = [REDOCLY, "lint", file, "--extends", "recommended", "--format", "json"];
  const { stdout } = await run(process.execPath, args, { env: OFFLINE }).catch((e) => e);
  const report = JSON.parse(stdout) as {
    problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
  };
  return report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
}

/** Spectral's findings (every severity) as "rule at path: message". */
async function spectral(file: string): Promise<string[]> {
  const args = [SPECTRAL, "lint", file, "--ruleset", SPECTRAL_RULESET, "--format", "json"];
  const { stdout } = await run(process.execPath, args, { env: OFFLINE }).catch((e) => e);
  // The JSON array, then (when there is no error) a sentence on the same line.
  const json = stdout.slice(stdout.indexOf("["), stdout.lastIndexOf("]") + 1);
  const findings = JSON.parse(json) as {
    code: string;
    path: string[];
    message: string;
  }[];
  return findings.map((f) => `${f.code} at /${f.path.join("/")}: ${f.message}`);
}

let plain: Fixture;
let aliases: Fixture;
beforeAll(async () => {
  plain = await sampleFixture();
  const site = await readFile(join(PROJECT_ROOT, "content", "site.yaml"), "utf8");
  aliases = await sampleFixture({ "site.yaml": `${site}OpenBankingPaths: true\n` });
  for (const fixture of [plain, aliases]) expect((await buildFixture(fixture)).ok).toBe(true);
}, 60_000);
afterAll(async () => {
  await plain?.cleanup();
  await aliases?.cleanup();
});

describe.each([
  ["Redocly CLI (recommended)", redocly],
  ["Spectral (spectral:oas)", spectral],
])("%s", (_, lint) => {
  it("reports nothing on the document built from the sample content", async () => {
    expect(await lint(join(plain.out, "openapi.json"))).toEqual([]);
  });

  it("reports nothing with the live standard's paths served too", async () => {
    expect(await lint(join(aliases.out, "openapi.json"))).toEqual([]);
  });
});

describe("the linters are really looking", () => {
  it("Redocly reports every operation once the document stops saying it needs no credentials", async () => {
    const doc = JSON.parse(await readFile(join(plain.out, "openapi.json"), "utf8"));
    delete doc.security;
    const file = join(plain.root, "no-security.json");
    await writeFile(file, JSON.stringify(doc));
    const findings = await redocly(file);
    const operations = Object.values(doc.paths as Record<string, object>).flatMap(Object.keys);
    expect(findings.filter((f) => f.startsWith("security-defined"))).toHaveLength(
      operations.length,
    );
  });

  it("Spectral reports info-contact once site.yaml names no contact", async () => {
    const doc = JSON.parse(await readFile(join(plain.out, "openapi.json"), "utf8"));
    delete doc.info.contact;
    const file = join(plain.root, "no-contact.json");
    await writeFile(file, JSON.stringify(doc));
    expect(await spectral(file)).toEqual([
      'info-contact at /info: Info object must have "contact" object.',
    ]);
  });
});
