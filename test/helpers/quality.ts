/**
 * The data-quality rules run as a build runs them, without the rest of the build: each crafted
 * file checked as a check thread checks it (parse with positions, its schema, the per-file
 * rules: build/check/one-file.ts), then the pass across files (build/quality/pass.ts). The sample
 * content takes part, read once per test file, so the rules see it as they would in a build.
 * A few tests build for real (test/build/quality/pipeline.test.ts).
 */
import { readFile } from "node:fs/promises";
import type { Ajv } from "ajv";
import { checkFile } from "../../build/check/one-file.js";
import { createAjv, validatorFor } from "../../build/check/schemas.js";
import { DATASETS, type DatasetDefinition } from "../../build/core/datasets.js";
import { formatDiagnostic } from "../../build/core/diagnostics.js";
import { CONTENT_DIR, PROJECT_ROOT } from "../../build/core/paths.js";
import { checkQuality, type QualityResult, type QualityUnit } from "../../build/quality/pass.js";
import { isObject } from "../../build/core/json-value.js";
import { extractFacts } from "../../build/quality/per-file.js";
import { discoverContent } from "../../build/read/content.js";
import { locate, parseYaml } from "../../build/read/yaml-source.js";

/** The day the rules date "has passed" by in these tests. */
const QUALITY_TODAY = "2026-11-24";

let ajv: Ajv | undefined;

/** One file checked as the build checks it, at `display` (a path as messages print it). */
function check(dataset: DatasetDefinition, display: string, text: string) {
  ajv ??= createAjv();
  return checkFile(display, text, {
    validate: validatorFor(ajv, dataset.brandSchema),
    recordsKey: dataset.recordsKey,
    identity: dataset.identity,
  });
}

interface Checked {
  readonly dataset: DatasetDefinition;
  /** The brand: its file or folder name. */
  readonly slug: string;
  readonly file: QualityUnit["files"][number];
}

let sample: Promise<Checked[]> | undefined;

/**
 * The sample content's brand files, as the pass reads them. They are valid (every build of the
 * sample checks that), so they are not validated again here: compiling the product schemas
 * would cost each test file a second.
 */
function sampleFiles(): Promise<Checked[]> {
  sample ??= (async () => {
    const tree = await discoverContent(CONTENT_DIR, PROJECT_ROOT);
    const checked: Checked[] = [];
    for (const units of tree.units.values()) {
      for (const { dataset, slug, files } of units) {
        for (const { path, display } of files) {
          const source = parseYaml(display, await readFile(path, "utf8"));
          const { value } = source;
          const brandName =
            isObject(value) && typeof value.BrandName === "string"
              ? { value: value.BrandName, pointer: "/BrandName", ...locate(source, "/BrandName") }
              : undefined;
          const facts = extractFacts(source, value, dataset.recordsKey);
          checked.push({ dataset, slug, file: { file: display, brandName, facts } });
        }
      }
    }
    return checked;
  })();
  return sample;
}

export interface QualityOptions {
  /** site.yaml's QualityErrors. */
  readonly asErrors?: readonly string[];
  readonly today?: string;
  /** Whether the sample content takes part (it does unless false). */
  readonly sample?: boolean;
}

/**
 * The data-quality result of the sample content with `files` (paths under content/, as
 * `atms/quality-bank.yaml`) laid over it. A file that is not valid fails the test, naming its
 * problems: the rules are meant for valid content.
 */
export async function qualityOf(
  files: Record<string, string>,
  options: QualityOptions = {},
): Promise<QualityResult> {
  const byPath = new Map<string, Checked>();
  if (options.sample !== false) for (const c of await sampleFiles()) byPath.set(c.file.file, c);
  for (const [path, text] of Object.entries(files)) {
    const [folder, name] = path.split("/");
    const dataset = DATASETS.find((d) => d.contentDir === folder);
    if (!dataset || name === undefined) throw new Error(`${path} is in no data set's folder`);
    const display = `content/${path}`;
    const file = check(dataset, display, text);
    if (!file.valid) {
      throw new Error(
        `${display} is not valid:\n${file.diagnostics.map(formatDiagnostic).join("\n")}`,
      );
    }
    byPath.set(display, { dataset, slug: name.replace(/\.ya?ml$/, ""), file });
  }
  // Brands in publication order (the byte order of their paths), files of a folder in join order.
  const units = new Map<DatasetDefinition, QualityUnit[]>();
  const paths = [...byPath.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const brands = new Map<string, { dataset: DatasetDefinition; files: Checked["file"][] }>();
  for (const path of paths) {
    const { dataset, slug, file } = byPath.get(path)!;
    const key = `${dataset.id}/${slug}`;
    const brand = brands.get(key);
    if (brand) brand.files.push(file);
    else brands.set(key, { dataset, files: [file] });
  }
  // Data sets in the order of DATASETS, as the build checks them.
  for (const dataset of DATASETS) {
    const list = [...brands.values()].filter((b) => b.dataset === dataset);
    if (list.length > 0)
      units.set(
        dataset,
        list.map(({ files }) => ({ files })),
      );
  }
  return checkQuality({ units, today: options.today ?? QUALITY_TODAY, asErrors: options.asErrors });
}

// Crafted content for the rules' tests: one brand, "Quality Bank", written line by line so a
// test knows the line and column of every value.

/** The crafted brand's files, as paths under content/ and as messages print them. */
export const QUALITY_ATMS = "atms/quality-bank.yaml";
export const QUALITY_BRANCHES = "branches/quality-bank.yaml";
export const ATMS_SHOWN = `content/${QUALITY_ATMS}`;
export const BRANCHES_SHOWN = `content/${QUALITY_BRANCHES}`;

export const indent = (n: number, lines: readonly string[]) => lines.map((l) => " ".repeat(n) + l);

/** An ATM record: the lines after Identification, and the lines of its PostalAddress. */
export function atm(
  id: string,
  address: readonly string[],
  extra: readonly string[] = [],
): string[] {
  return [
    `  - Identification: "${id}"`,
    '    SupportedCurrencies: ["GBP"]',
    ...indent(4, extra),
    "    Location:",
    "      PostalAddress:",
    ...indent(8, address),
  ];
}

/** A branch record with a PostCode, and any more lines. */
export function branch(id: string, extra: readonly string[] = [], postcode = "QB1 1AA"): string[] {
  return [
    `  - Identification: "${id}"`,
    '    SequenceNumber: "0"',
    "    Type: Physical",
    "    CustomerSegment: [Personal]",
    ...indent(4, extra),
    "    PostalAddress:",
    `      PostCode: "${postcode}"`,
    '      Country: "GB"',
  ];
}

/** A brand file of "Quality Bank" (or `brandName`) with these records. */
export const brandFile = (
  key: "ATM" | "Branch",
  records: readonly string[][],
  brandName = "Quality Bank",
) => [`BrandName: "${brandName}"`, `${key}:`, ...records.flat(), ""].join("\n");

export const coordinates = (latitude: string, longitude: string) => [
  "GeoLocation:",
  "  GeographicCoordinates:",
  `    Latitude: "${latitude}"`,
  `    Longitude: "${longitude}"`,
];

export const hours = (
  days: readonly [day: string, periods: [string, string][]][],
  key = "StandardAvailability",
) => [
  "Availability:",
  `  ${key}:`,
  "    Day:",
  ...days.flatMap(([day, periods]) => [
    `      - Name: "${day}"`,
    "        OpeningHours:",
    ...periods.flatMap(([open, close]) => [
      `          - OpeningTime: "${open}"`,
      `            ClosingTime: "${close}"`,
    ]),
  ]),
];

/** Line and column of the nth occurrence of `marker` in `text`. */
export function at(text: string, marker: string, nth = 1): { line: number; column: number } {
  let index = -1;
  for (let i = 0; i < nth; i++) index = text.indexOf(marker, index + 1);
  if (index < 0) throw new Error(`no ${marker} in the test's content`);
  const before = text.slice(0, index).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** The warnings of the sample plus `files`, as [rule, file, line, column]. */
export async function warningsOf(files: Record<string, string>, options?: QualityOptions) {
  return (await qualityOf(files, options)).warnings.map((w) => [w.rule, w.file, w.line, w.column]);
}

/** The one warning of the sample plus `files`: where, as [rule, file, line, column], and what. */
export async function onlyWarning(files: Record<string, string>, options?: QualityOptions) {
  const { warnings } = await qualityOf(files, options);
  if (warnings.length !== 1) {
    throw new Error(
      `expected one warning, got ${warnings.length}:\n${warnings.map(formatDiagnostic).join("\n")}`,
    );
  }
  const [w] = warnings;
  return { where: [w!.rule, w!.file, w!.line, w!.column], message: w!.message };
}

/** [rule, file, line, column] of a warning at `where` in `file` (shown as messages print it). */
export const warningAt = (rule: string, file: string, where: { line: number; column: number }) => [
  rule,
  file,
  where.line,
  where.column,
];
