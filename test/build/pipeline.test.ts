/**
 * build/pipeline.ts: `runBuild` (steps 1 to 10) on the sample content and on edits of it, and
 * `runValidate` (steps 1 to 5 and the checks of step 10 the bodies answer) beside it. Validate must
 * report what the build would, on content with a problem of each kind, and make nothing the checks
 * do not need: no compressed variant, no near-me index, no document, no output folder.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, realpath, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { afterEach, assert, describe, expect, it } from "vitest";
import { DATASETS } from "../../build/core/datasets.js";
import { DECIDED, SPEC_AGREEMENT, SPEC_PATHS } from "../helpers/spec-values.js";
import { cachePerTest, sampleBuild } from "../helpers/sample-build.js";
import { formatDiagnostic, type Diagnostic } from "../../build/core/diagnostics.js";
import { PROJECT_ROOT } from "../../build/core/paths.js";
import { runBuild, runValidate, type CheckOptions } from "../../build/pipeline.js";
import { PUBLISHED_COMPRESSION } from "../../build/encode/variants.js";
import { previewProfile } from "../../build/profiles.js";
import { validatorFor } from "../../build/check/schemas.js";
import {
  branchBrand,
  buildFixture,
  FIXTURE_EPOCH,
  sampleFixture,
  digestFolder,
  snapshotFolder,
  testProfile,
  type Fixture,
} from "../helpers/fixtures.js";
import { schemaAjv } from "../helpers/schemas.js";
import { arrayAt, at, parseEnvelope, parseJson } from "../helpers/json.js";

const EPOCH = FIXTURE_EPOCH;

let fixture: Fixture;
afterEach(async () => fixture?.cleanup());

// Each test's builds start from a copy of the cache the run's sample builds filled, as a rebuild
// after one edit does; the tests of the cold build say cacheDir: false.
const warm = cachePerTest();

/** Builds the fixture through the test's cache, unless false (none) is given. */
/** Builds the fixture as `npm run build` does (the run's sample build is compressed so too). */
async function build(write = true, cacheDir: string | false = warm()) {
  return buildFixture(fixture, {
    write,
    cacheDir,
    profile: testProfile(PUBLISHED_COMPRESSION, write),
  });
}

function messages(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.pointer}: ${d.message}`);
}

describe("building the sample content", () => {
  // The run's cold build of the sample content (test/helpers/global-setup.ts).
  const sample = sampleBuild();
  /** Each data set's manifest entry and its published body, as the build wrote them. */
  async function published() {
    const manifest = await sample.manifest();
    return Promise.all(
      manifest.datasets.map(async (entry) => ({
        entry,
        dataset: DATASETS.find((d) => d.id === entry.dataset)!,
        body: parseEnvelope(await sample.read(entry.variants.identity.asset)),
      })),
    );
  }

  it("publishes every data set with a manifest that describes the bytes written and tags each coding", async () => {
    const manifest = await sample.manifest();
    const paths = manifest.datasets.map((d) => d.path);
    expect(paths).toEqual(DATASETS.map((d) => d.path));
    expect([...paths].sort()).toEqual(Object.values(SPEC_PATHS).sort());
    const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");
    for (const entry of manifest.datasets) {
      for (const variant of Object.values(entry.variants)) {
        const bytes = await readFile(join(sample.out, variant.asset));
        expect(variant.length).toBe(bytes.length);
      }
      // docs/decisions.md, "Compressed variants and ETags": the identity variant's ETag is the
      // SHA-256 of its bytes; a compressed one's, the SHA-256 of that, the coding, its setting
      // (the sample's bodies are small: brotli 11, gzip 9) and the coder's library version.
      const identity = await readFile(join(sample.out, entry.variants.identity.asset));
      const hex = sha256(identity);
      expect(entry.variants.identity.etag).toBe(`"${hex}"`);
      expect(entry.variants.br!.etag).toBe(
        `"${sha256(`${hex} br 11 ${process.versions.brotli}`)}"`,
      );
      expect(entry.variants.gzip!.etag).toBe(
        `"${sha256(`${hex} gzip 9 ${process.versions.zlib}`)}"`,
      );
    }
  });

  it("writes the spec's envelope with TotalResults counting records, or brands for service metrics", async () => {
    const bodies = await published();
    expect(bodies).toHaveLength(Object.keys(SPEC_PATHS).length);
    for (const { dataset, entry, body } of bodies) {
      expect(Object.keys(body)).toEqual(["meta", "data"]);
      expect(body.meta).toEqual({
        LastUpdated: "2026-09-21T14:13:20Z",
        TotalResults: entry.totalResults,
        Agreement: SPEC_AGREEMENT,
        License: "https://www.openbanking.org.uk/open-licence",
        TermsOfUse: "https://www.openbanking.org.uk/terms",
      });
      const brands = body.data[0]!.Brand;
      const counted = dataset.recordsKey
        ? brands.reduce((n, b) => n + arrayAt(b, `/${dataset.recordsKey}`).length, 0)
        : brands.length;
      expect(body.meta.TotalResults).toBe(counted);
      expect(counted).toBeGreaterThan(0);
    }
  });

  it("publishes bodies that satisfy the complete envelope schemas, joined brand folders included", async () => {
    const bodies = await published();
    expect(bodies).toHaveLength(Object.keys(SPEC_PATHS).length);
    const ajv = schemaAjv();
    for (const { dataset, body } of bodies) {
      const validate = validatorFor(ajv, dataset.envelopeSchema);
      const valid = validate(body);
      expect({ dataset: dataset.id, errors: validate.errors ?? [] }).toEqual({
        dataset: dataset.id,
        errors: [],
      });
      expect(valid).toBe(true);
    }
  });

  it("gives byte-identical output from two builds whatever the files' modification times", async () => {
    fixture = await sampleFixture();
    const later = new Date(Date.now() + 86_400_000);
    for (const entry of await readdir(fixture.content, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) await utimes(join(entry.parentPath, entry.name), later, later);
    }
    await build(true, false);
    expect(await digestFolder(fixture.out)).toEqual(await digestFolder(sample.out));
  });

  it("draws the landing page's map from the cache after an edit that moves no mark, the page as a cold build's", async () => {
    fixture = await sampleFixture();
    const cache = warm();
    const mapEntries = async () =>
      (await readdir(cache)).filter((name) => name.endsWith(".html")).sort();
    // The run's cache holds the sample's map; renaming a product moves no branch or ATM.
    const before = await mapEntries();
    expect(before).toHaveLength(1);
    const file = "personal-current-accounts/pennyfold-building-society.yaml";
    const text = await readFile(join(fixture.content, file), "utf8");
    await fixture.put({
      [file]: text.replace("Pennyfold Basic Account", "Pennyfold Plain Account"),
    });
    assert((await build(true, cache)).ok);
    expect(await mapEntries()).toEqual(before);
    expect(
      await readFile(join(fixture.out, "std/v2.2/personal-current-accounts.json"), "utf8"),
    ).toContain("Pennyfold Plain Account");
    const page = await readFile(join(fixture.out, "index.html"), "utf8");
    await build(true, false);
    expect(await readFile(join(fixture.out, "index.html"), "utf8")).toBe(page);
  });

  it("gives the same bytes from a cached rebuild after an edit as from a cold build", async () => {
    fixture = await sampleFixture();
    // The run's cache holds the sample content's build, as after a first build.
    await fixture.put({ "branches/zed-bank.yaml": branchBrand("Zed Bank", ["Z1"]) });
    const warmBuild = await build(true, warm());
    expect(warmBuild.ok).toBe(true);
    expect(warmBuild.cacheMiss).toBeUndefined();
    const rebuilt = await digestFolder(fixture.out);
    await build(true, false);
    expect(await digestFolder(fixture.out)).toEqual(rebuilt);
    expect(await readFile(join(fixture.out, "std/v2.2/branches.json"), "utf8")).toContain(
      '"BrandName":"Zed Bank"',
    );
  });

  it("takes unchanged data sets from the cache but rebuilds every body when site.yaml or LastUpdated moves", async () => {
    fixture = await sampleFixture();
    const cached = (epoch: string) =>
      buildFixture(fixture, { env: { SOURCE_DATE_EPOCH: epoch }, cacheDir: warm() });
    // Nothing changed since the run's build of the sample: no body was serialised again.
    const again = await cached(EPOCH);
    expect(again.ok).toBe(true);
    expect(again.timings.parts.serializeMs).toBe(0);
    const site =
      "License: https://www.example.org/licence\nTermsOfUse: https://www.example.org/terms\n";
    await fixture.put({ "site.yaml": site });
    const newSite = await cached(EPOCH);
    expect(newSite.timings.parts.serializeMs).toBeGreaterThan(0);
    for (const [path, bytes] of await snapshotFolder(fixture.out)) {
      if (!path.endsWith(".json") || !path.startsWith("std/")) continue;
      expect(at(parseJson(bytes), "/meta/License"), path).toBe("https://www.example.org/licence");
    }
    await cached("1790000600");
    for (const [path, bytes] of await snapshotFolder(fixture.out)) {
      if (!path.endsWith(".json") || !path.startsWith("std/")) continue;
      expect(at(parseJson(bytes), "/meta/LastUpdated"), path).toBe("2026-09-21T14:23:20Z");
    }
  });

  it("compresses a build's bodies at brotli 11 and gzip 9, the live preview's at brotli 3 and gzip 1", async () => {
    fixture = await sampleFixture();
    const deployed = await build(false);
    const preview = await buildFixture(fixture, {
      write: false,
      cacheDir: warm(),
      profile: previewProfile(undefined),
    });
    assert(deployed.ok && preview.ok);
    const settings = [
      [deployed, DECIDED.published.brotliQuality, DECIDED.published.gzipLevel],
      [preview, DECIDED.preview.brotliQuality, DECIDED.preview.gzipLevel],
    ] as const;
    for (const [result, quality, level] of settings) {
      for (const { dataset, encoded } of result.datasets) {
        const identity = encoded.identity.bytes;
        expect(identity.length, dataset.id).toBeLessThan(DECIDED.published.brotliMiddleAboveBytes);
        const brotli = brotliCompressSync(identity, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: quality,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
            [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
          },
        });
        expect(encoded.br.bytes.equals(brotli), `${dataset.id} br`).toBe(true);
        expect(encoded.gzip.bytes.equals(gzipSync(identity, { level })), dataset.id).toBe(true);
      }
    }
    // The same bodies, and the preview's variants say so by their own ETags.
    expect(preview.datasets.map((d) => d.encoded.identity.etag)).toEqual(
      deployed.datasets.map((d) => d.encoded.identity.etag),
    );
  });

  it("compresses the pages for people at brotli 9 whatever their size, the JSON documents as bodies", async () => {
    const sample = sampleBuild();
    const file = (path: string) => readFile(join(sample.out, path));
    const brotli = (identity: Buffer, quality: number) =>
      brotliCompressSync(identity, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: quality,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      });
    const page = await file("index.html");
    const reference = await file("reference.html");
    // One page small enough for 11 by a body's rule, one large enough for 10.
    expect(page.length).toBeLessThan(DECIDED.published.brotliMiddleAboveBytes);
    expect(reference.length).toBeGreaterThan(DECIDED.published.brotliMiddleAboveBytes);
    expect(reference.length).toBeLessThan(DECIDED.published.brotliLargeAboveBytes);
    for (const [path, identity] of [
      ["index.html", page],
      ["reference.html", reference],
    ] as const) {
      const br = await file(`${path}.br`);
      expect(br.equals(brotli(identity, DECIDED.published.pageBrotliQuality)), path).toBe(true);
    }
    const openapi = await file("openapi.json");
    expect(openapi.length).toBeGreaterThan(DECIDED.published.brotliMiddleAboveBytes);
    expect(openapi.length).toBeLessThan(DECIDED.published.brotliLargeAboveBytes);
    const openapiBr = await file("openapi.json.br");
    expect(openapiBr.equals(brotli(openapi, DECIDED.published.brotliMiddleQuality))).toBe(true);
  });

  it("writes nothing when only validating", async () => {
    fixture = await sampleFixture();
    const result = await build(false);
    expect(result.ok).toBe(true);
    await expect(readdir(fixture.out)).rejects.toThrow(/ENOENT/);
  });
});

describe("a failed build", () => {
  it("leaves the previous output exactly as it was and no staging folders behind", async () => {
    fixture = await sampleFixture();
    await build();
    const before = await digestFolder(fixture.out);
    await fixture.put({ "branches/zz-broken.yaml": "BrandName: Broken\nBranch: []\n" });
    const result = await build();
    expect(result.ok).toBe(false);
    expect(await digestFolder(fixture.out)).toEqual(before);
    // dist links to the one generation folder written; the failed build left nothing.
    const entries = (await readdir(fixture.root)).sort();
    expect(entries).toEqual([basename(await realpath(fixture.out)), "content", "dist"]);
    expect(entries[0]).toMatch(/^\.dist-gen-/);
  });

  it("says how many files it checked when it stops at the check, the first step that can fail", async () => {
    fixture = await sampleFixture({ "atms/zz-two.yaml": "BrandName: Zed Two\nATM: 5\n" });
    const yamlFiles = (await readdir(fixture.content, { recursive: true })).filter((f) =>
      String(f).endsWith(".yaml"),
    );
    const result = await build();
    expect(result.ok).toBe(false);
    expect(result.filesChecked).toBe(yamlFiles.length);
  });

  it("reports every problem of the run, across files and data sets", async () => {
    fixture = await sampleFixture({
      "branches/zz-one.yaml": branchBrand("Zed One", ["Z1"]).replace(
        "Type: Physical",
        "Type: Mobil",
      ),
      "atms/zz-two.yaml": "BrandName: Zed Two\nATM:\n  - Identification: A1\n",
    });
    const result = await build();
    expect(messages(result.diagnostics)).toEqual([
      'content/atms/zz-two.yaml:3:5: /ATM/0/Location: required field "Location" is missing',
      'content/atms/zz-two.yaml:3:5: /ATM/0/SupportedCurrencies: required field "SupportedCurrencies" is missing',
      'content/branches/zz-one.yaml:5:11: /Branch/0/Type: must be one of Mobile, Physical (found "Mobil"); did you mean "Mobile"?',
    ]);
  });
});

describe("locating problems", () => {
  it("points at the line and column of a bad value deep in nested lists", async () => {
    const text = [
      "BrandName: Zed Bank",
      "Branch:",
      '  - Identification: "Z1"',
      '    SequenceNumber: "0"',
      "    Type: Physical",
      "    CustomerSegment: [Personal]",
      "    PostalAddress: { PostCode: ZZ1 1ZZ }",
      "    Availability:",
      "      StandardAvailability:",
      "        Day:",
      "          - Name: Monday",
      "            OpeningHours:",
      "              - { OpeningTime: '09:00', ClosingTime: '17:00' }",
      "          - Name: Tuesday",
      "            OpeningHours:",
      "              - OpeningTime: '09:00'",
      "                ClosingTime: '25:00'",
      "",
    ].join("\n");
    fixture = await sampleFixture({ "branches/zz.yaml": text });
    const result = await build();
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      file: "content/branches/zz.yaml",
      line: 17,
      column: 30,
      pointer: "/Branch/0/Availability/StandardAvailability/Day/1/OpeningHours/0/ClosingTime",
      rule: "pattern",
    });
  });

  it("points at the key of a field that is not allowed and suggests the field meant", async () => {
    fixture = await sampleFixture({
      "branches/zz.yaml": branchBrand("Zed Bank", ["Z1"]).replace(
        "      PostCode",
        "      Postcode",
      ),
    });
    const result = await build();
    expect(messages(result.diagnostics)).toContain(
      'content/branches/zz.yaml:8:7: /Branch/0/PostalAddress/Postcode: "Postcode" is not a field here; did you mean "PostCode"?',
    );
  });

  it("tells the editor to quote a number where the spec wants text", async () => {
    fixture = await sampleFixture({
      "branches/zz.yaml": branchBrand("Zed Bank", ["Z1"]).replace(
        'SequenceNumber: "0"',
        "SequenceNumber: 0",
      ),
    });
    const result = await build();
    expect(messages(result.diagnostics)).toEqual([
      'content/branches/zz.yaml:4:21: /Branch/0/SequenceNumber: must be text, but YAML read the number 0; put it in quotes: "0"',
    ]);
  });
});

describe("rules across files", () => {
  it("reports the same Identification twice in one brand folder at both places", async () => {
    fixture = await sampleFixture({
      "branches/zed-bank/a.yaml": branchBrand("Zed Bank", ["Z1", "Z2"]),
      "branches/zed-bank/b.yaml": branchBrand("Zed Bank", ["Z3", "Z2"]),
    });
    const result = await build();
    expect(messages(result.diagnostics)).toEqual([
      'content/branches/zed-bank/a.yaml:9:5: /Branch/1: Identification "Z2" and SequenceNumber "0" is used by two records of this brand; the other is at content/branches/zed-bank/b.yaml:9:5',
      'content/branches/zed-bank/b.yaml:9:5: /Branch/1: Identification "Z2" and SequenceNumber "0" is used by two records of this brand; the other is at content/branches/zed-bank/a.yaml:9:5',
    ]);
  });

  it("allows the same Identification with another SequenceNumber (a mobile branch's stops)", async () => {
    fixture = await sampleFixture({
      "branches/zed-bank.yaml":
        branchBrand("Zed Bank", ["Z1"]) +
        branchBrand("Zed Bank", ["Z1"])
          .split("\n")
          .slice(2)
          .join("\n")
          .replace('SequenceNumber: "0"', 'SequenceNumber: "1"'),
    });
    expect(messages((await build()).diagnostics)).toEqual([]);
  });

  it("reports a BrandName used by two brand files at both places", async () => {
    fixture = await sampleFixture({
      "branches/zed-a.yaml": branchBrand("Zed Bank", ["Z1"]),
      "branches/zed-b.yaml": branchBrand("Zed Bank", ["Z2"]),
    });
    const result = await build();
    expect(messages(result.diagnostics)).toEqual([
      'content/branches/zed-a.yaml:1:12: /BrandName: BrandName "Zed Bank" is used by another brand too; the other is at content/branches/zed-b.yaml:1:12',
      'content/branches/zed-b.yaml:1:12: /BrandName: BrandName "Zed Bank" is used by another brand too; the other is at content/branches/zed-a.yaml:1:12',
    ]);
  });

  it("joins a brand folder's files in byte order of their paths", async () => {
    fixture = await sampleFixture({
      "branches/zed-bank/b.yaml": branchBrand("Zed Bank", ["Z3"]),
      "branches/zed-bank/a.yaml": branchBrand("Zed Bank", ["Z1", "Z2"]),
      "branches/zed-bank/B.yaml": branchBrand("Zed Bank", ["Z0"]),
    });
    const result = await build();
    assert(result.ok);
    const entry = result.datasets.find((d) => d.dataset.id === "branches")!;
    const body = parseEnvelope(entry.encoded.identity.bytes);
    const zed = body.data[0]!.Brand.find((b) => b.BrandName === "Zed Bank");
    expect(arrayAt(zed, "/Branch").map((b) => at(b, "/Identification"))).toEqual([
      "Z0",
      "Z1",
      "Z2",
      "Z3",
    ]);
  });

  it("reports brand folder files that name different brands", async () => {
    fixture = await sampleFixture({
      "branches/zed-bank/a.yaml": branchBrand("Zed Bank", ["Z1"]),
      "branches/zed-bank/b.yaml": branchBrand("Zed Bnak", ["Z2"]),
    });
    expect(messages((await build()).diagnostics)).toEqual([
      'content/branches/zed-bank/b.yaml:1:12: /BrandName: every file of the brand folder "zed-bank" must name the same brand: this says "Zed Bnak", content/branches/zed-bank/a.yaml:1:12 says "Zed Bank"',
    ]);
  });

  it("reports content outside the data set folders instead of ignoring it", async () => {
    fixture = await sampleFixture({ "branch/zed.yaml": branchBrand("Zed Bank", ["Z1"]) });
    expect(messages((await build()).diagnostics)).toEqual([
      'content/branch/zed.yaml:1:1: : "branch" is not a data set folder; did you mean "branches"?',
    ]);
  });
});

describe("hostile YAML", () => {
  it("rejects an alias bomb without expanding it", async () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(", ")}]`);
    }
    fixture = await sampleFixture({ "branches/zz.yaml": `${levels.join("\n")}\n` });
    const result = await build();
    expect(messages(result.diagnostics)).toEqual([
      "content/branches/zz.yaml:1:1: : cannot be read: Excessive alias count indicates a resource exhaustion attack",
    ]);
  });

  it("refuses custom tags instead of constructing them", async () => {
    fixture = await sampleFixture({
      "branches/zz.yaml": branchBrand("Zed Bank", ["Z1"]).replace(
        "Type: Physical",
        "Type: !!js/function 'f() {}'",
      ),
    });
    const [problem] = (await build()).diagnostics;
    expect(problem).toMatchObject({ file: "content/branches/zz.yaml", line: 5, rule: "yaml" });
    expect(problem!.message).toMatch(/tags \(!\.\.\.\) are not allowed/);
  });

  it("keeps __proto__ as plain data: reported as an unknown field, never reaching a prototype", async () => {
    fixture = await sampleFixture({
      "branches/zz.yaml": `${branchBrand("Zed Bank", ["Z1"])}__proto__:\n  polluted: true\n`,
    });
    const result = await build();
    expect(messages(result.diagnostics)).toEqual([
      'content/branches/zz.yaml:9:1: /__proto__: "__proto__" is not a field here; the fields allowed here are BrandName, Branch',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reports duplicate keys as errors", async () => {
    fixture = await sampleFixture({
      "branches/zz.yaml": branchBrand("Zed Bank", ["Z1"]).replace(
        "    Type: Physical",
        "    Type: Physical\n    Type: Mobile",
      ),
    });
    expect(messages((await build()).diagnostics)).toEqual([
      "content/branches/zz.yaml:6:5: : this field appears twice in the same place; keep one",
    ]);
  });
});

let scratch: string | undefined;
afterEach(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

const NOW = () => new Date("2026-09-21T12:00:00Z");

/** Validate, then build, of the same content with the same options; every line each reports. */
async function both(content: Fixture, options: CheckOptions = {}) {
  const common = {
    contentDir: content.content,
    cwd: content.root,
    env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
    cacheDir: false as const,
    profile: testProfile(),
    now: NOW,
    ...options,
  };
  const validated = await runValidate(common);
  const built = await runBuild({ ...common, outDir: content.out });
  const lines = (r: typeof validated | typeof built) => ({
    ok: r.ok,
    problems: r.diagnostics.map(formatDiagnostic),
    warnings: r.quality.warnings.map(formatDiagnostic),
    counts: r.quality.counts,
    filesChecked: r.filesChecked,
  });
  return { validated, built, validate: lines(validated), build: lines(built) };
}

// A branch in Great Britain whose postcode is not in the Royal Mail format: a data-quality finding.
const badPostcode = [
  'BrandName: "Quality Bank"',
  "Branch:",
  '  - Identification: "QB-1"',
  '    SequenceNumber: "0"',
  "    Type: Physical",
  "    CustomerSegment: [Personal]",
  "    PostalAddress:",
  '      PostCode: "qb11aa"',
  '      Country: "GB"',
  "",
].join("\n");

describe("validate reports what the build would, on content with a problem of each kind", () => {
  it("syntax, schema and cross-file problems (steps 1 to 3)", async () => {
    fixture = await sampleFixture({
      "atms/broken.yaml": "BrandName: Broken\nATM: [\n",
      "branches/no-branches.yaml": "BrandName: No Branches\nBranch: 12\n",
      "branches/twice-a.yaml": branchBrand("Twice Bank", ["T1"]),
      "branches/twice-b.yaml": branchBrand("Twice Bank", ["T2"]),
    });
    const { validate, build } = await both(fixture);
    expect(validate.ok).toBe(false);
    const files = validate.problems.map((p) => p.slice(0, p.indexOf(":")));
    expect(new Set(files)).toEqual(
      new Set([
        "content/atms/broken.yaml",
        "content/branches/no-branches.yaml",
        "content/branches/twice-a.yaml",
        "content/branches/twice-b.yaml",
      ]),
    );
    expect(validate).toEqual(build);
  });

  it("data-quality findings as warnings (step 4), the content otherwise valid", async () => {
    fixture = await sampleFixture({ "branches/quality-bank.yaml": badPostcode });
    const { validate, build } = await both(fixture);
    expect(validate.ok).toBe(true);
    expect(validate.warnings).toHaveLength(1);
    expect(validate.warnings[0]).toContain("content/branches/quality-bank.yaml:");
    expect(validate).toEqual(build);
  });

  it("data-quality findings made errors by site.yaml (step 4)", async () => {
    const site = await readFile(join(PROJECT_ROOT, "content", "site.yaml"), "utf8");
    fixture = await sampleFixture({
      "branches/quality-bank.yaml": badPostcode,
      "site.yaml": `${site}QualityErrors: ["postcode-format"]\n`,
    });
    const { validate, build } = await both(fixture);
    expect(validate.ok).toBe(false);
    expect(validate.problems).toHaveLength(1);
    expect(validate).toEqual(build);
  });

  it("the assembled envelope's problems (step 5), here a LastUpdated past year 9999", async () => {
    fixture = await sampleFixture();
    const { validate, build } = await both(fixture, { env: { SOURCE_DATE_EPOCH: "253402300800" } });
    expect(validate.ok).toBe(false);
    // One per data set, at its folder, from the envelope's schema.
    expect(validate.problems).toHaveLength(8);
    expect(validate.problems[0]).toMatch(
      /^content\/atms:1:1: \/meta\/LastUpdated: the assembled \/std\/v2\.2\/atms response /,
    );
    expect(validate).toEqual(build);
  });

  it("a postcode-centroid file without its columns (content read for step 7)", async () => {
    fixture = await sampleFixture({ "postcode-centroids.csv": "where,when\nAB1 2CD,1\n" });
    const { validate, build } = await both(fixture);
    expect(validate.ok).toBe(false);
    expect(validate.problems).toHaveLength(1);
    expect(validate.problems[0]).toMatch(/^content\/postcode-centroids\.csv:/);
    expect(validate).toEqual(build);
  });

  it("a body over the limit per static asset file (step 10), every other file under it", async () => {
    // 2,000 ATMs make a body larger than every document, so a limit between the two finds the body
    // alone, as Cloudflare's 25 MiB does for a large publisher.
    const atms = ["BrandName: Many ATMs Bank", "ATM:"];
    for (let i = 0; i < 2000; i++) {
      atms.push(
        `  - Identification: "M${String(i).padStart(4, "0")}"`,
        "    SupportedCurrencies: [GBP]",
        "    Location:",
        "      PostalAddress:",
        `        StreetName: "${i} A Long Street Name That Pads The Body Out To Its Size"`,
        '        TownName: "Stainby Cross"',
        '        Country: "GB"',
        '        PostCode: "SQ4 6RE"',
      );
    }
    fixture = await sampleFixture({ "atms/many-atms-bank.yaml": `${atms.join("\n")}\n` });
    const sizing = await runBuild({
      contentDir: fixture.content,
      cwd: fixture.root,
      cacheDir: false,
      profile: testProfile(undefined, false),
      env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
      write: false,
    });
    assert(sizing.ok, sizing.diagnostics.map(formatDiagnostic).join("\n"));
    const sizes = new Map(
      sizing.files.map((f) => [
        f.path,
        typeof f.bytes === "string" ? f.bytes.length : f.bytes.length,
      ]),
    );
    const body = sizes.get("std/v2.2/atms.json")!;
    const others = Math.max(
      ...[...sizes].filter(([p]) => p !== "std/v2.2/atms.json").map(([, n]) => n),
    );
    expect(body).toBeGreaterThan(others);
    const limits = { maxFileBytes: others, maxFiles: 20_000 };
    const { validate, build } = await both(fixture, { limits });
    expect(validate.ok).toBe(false);
    expect(validate.problems).toHaveLength(1);
    expect(validate.problems[0]).toContain("the uncompressed body of ATMs (/std/v2.2/atms)");
    expect(validate).toEqual(build);
  });

  it("the last check's objection (the publication guard), given each data set's count", async () => {
    fixture = await sampleFixture();
    const seen: unknown[] = [];
    const validated = await runValidate({
      contentDir: fixture.content,
      cwd: fixture.root,
      cacheDir: false,
      env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
      lastCheck: (next) => {
        seen.push(next);
        return [{ file: "content", line: 1, column: 1, pointer: "", message: "no", rule: "guard" }];
      },
    });
    const built = await runBuild({
      contentDir: fixture.content,
      outDir: fixture.out,
      cwd: fixture.root,
      cacheDir: false,
      profile: testProfile(),
      env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
      beforeWrite: (next) => {
        seen.push({
          datasets: next.datasets.map((d) => ({
            dataset: d.dataset,
            totalResults: d.totalResults,
          })),
        });
        return [];
      },
    });
    expect(validated.ok).toBe(false);
    expect(validated.diagnostics.map((d) => d.message)).toEqual(["no"]);
    expect(built.ok).toBe(true);
    // The sample's counts, as the spec counts them: records, or brands for service metrics.
    expect(seen[0]).toEqual({
      datasets: [
        { dataset: "branches", totalResults: 6 },
        { dataset: "atms", totalResults: 7 },
        { dataset: "personal-current-accounts", totalResults: 6 },
        { dataset: "business-current-accounts", totalResults: 2 },
        { dataset: "unsecured-sme-loans", totalResults: 2 },
        { dataset: "commercial-credit-cards", totalResults: 2 },
        { dataset: "service-metrics-pca", totalResults: 2 },
        { dataset: "service-metrics-bca", totalResults: 2 },
      ],
    });
    expect(seen[1]).toEqual(seen[0]);
  });
});

describe("validate makes nothing the checks do not need", () => {
  it("compresses nothing, indexes nothing and writes no output folder, through a cache a build then reuses", async () => {
    fixture = await sampleFixture();
    scratch = await mkdtemp(join(tmpdir(), "opendata-edge-validate-"));
    const cacheDir = join(scratch, "cache");
    const options = {
      contentDir: fixture.content,
      cwd: fixture.root,
      cacheDir,
      env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
    };
    const validated = await runValidate(options);
    expect(validated.diagnostics).toEqual([]);
    expect(existsSync(fixture.out)).toBe(false);
    // The cache holds each file's check and each data set's body (one entry with what is known
    // of it), and no variant or index.
    const kinds = (names: string[]) => new Set(names.map((n) => n.slice(n.lastIndexOf(".") + 1)));
    const afterValidate = await readdir(cacheDir);
    expect(kinds(afterValidate)).toEqual(new Set(["check", "dataset", "json"]));
    expect(Object.keys(validated.timings)).toEqual([
      "read",
      "check",
      "crossCheck",
      "quality",
      "assemble",
      "limits",
      "parts",
    ]);
    expect(Object.keys(validated.timings.parts)).toEqual(["parseMs", "validateMs", "serializeMs"]);

    // A build after it assembles nothing again: every body is the one validate left.
    const built = await runBuild({
      ...options,
      outDir: fixture.out,
      profile: testProfile(),
    });
    assert(built.ok);
    expect(built.timings.parts.serializeMs).toBe(0);
    expect(built.timings.parts.compressMs).toBeGreaterThan(0);
    expect([...kinds(await readdir(cacheDir))]).toEqual(
      expect.arrayContaining(["compressed", "near"]),
    );
    const written = await digestFolder(fixture.out);
    for (const { entry } of built.datasets) {
      expect(written.has(entry.variants.br!.asset.slice(1)), entry.path).toBe(true);
    }
  });
});

describe("--timings names every step", () => {
  it("a build times steps 1 to 10 under their own names, near, history and documents apart from encode", async () => {
    fixture = await sampleFixture();
    const built = await runBuild({
      contentDir: fixture.content,
      outDir: fixture.out,
      cwd: fixture.root,
      cacheDir: false,
      profile: testProfile(),
      env: { SOURCE_DATE_EPOCH: FIXTURE_EPOCH },
    });
    assert(built.ok);
    const { parts, ...steps } = built.timings;
    expect(Object.keys(steps)).toEqual([
      "read",
      "check",
      "crossCheck",
      "quality",
      "assemble",
      "encode",
      "near",
      "history",
      "documents",
      "write",
    ]);
    // Each step that does work on the sample took some time, measured apart.
    for (const step of [
      "read",
      "check",
      "assemble",
      "encode",
      "near",
      "documents",
      "write",
    ] as const)
      expect(steps[step], step).toBeGreaterThan(0);
    expect(parts.compressMs).toBeGreaterThan(0);
  });
});
