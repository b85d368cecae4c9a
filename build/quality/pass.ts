/**
 * Step 4, the data-quality pass across files, run after the content is valid (steps 1 to 3): every rule on the facts
 * each file's check left, across all data sets. What it finds are warnings, which never stop a
 * build, unless site.yaml's QualityErrors names the rule (or "all"): those become errors.
 */
import type { DatasetDefinition } from "../core/datasets.js";
import type { Diagnostic } from "../core/diagnostics.js";
import { warningOf } from "./context.js";
import type { FileFacts, Spot } from "./facts.js";
import { CONTENT_RULES } from "./rules.js";
import type { BrandNameUse, RecordInContext } from "./rule.js";

/**
 * What the pass reads of one brand's checked files, in join order: the shape of check's
 * CheckedUnit, declared here because quality sits below check (check runs its per-file part).
 */
export interface QualityUnit {
  readonly files: readonly {
    readonly file: string;
    readonly brandName: (Spot & { readonly value: string }) | undefined;
    readonly facts?: FileFacts | undefined;
  }[];
}

export interface QualityInput {
  readonly units: ReadonlyMap<DatasetDefinition, readonly QualityUnit[]>;
  /** Today, YYYY-MM-DD (UTC), for dates that have passed. */
  readonly today: string;
  /** site.yaml's QualityErrors: rule ids, or "all", to treat as errors. */
  readonly asErrors?: readonly string[] | undefined;
}

export interface QualityResult {
  /** Findings of the rules not opted into errors. */
  readonly warnings: Diagnostic[];
  /** Findings of the rules site.yaml treats as errors. */
  readonly errors: Diagnostic[];
  /** How many findings (warnings and errors) each rule made in each data set, most first. */
  readonly counts: readonly RuleCount[];
}

export interface RuleCount {
  readonly rule: string;
  readonly dataset: string;
  readonly count: number;
}

/**
 * Runs every rule across files on what each file's check kept, after the findings the rules
 * about records and files made while checking; all are split into warnings and errors.
 */
export function checkQuality(input: QualityInput): QualityResult {
  const records: RecordInContext[] = [];
  const brandNames: BrandNameUse[] = [];
  // Found while each file was checked (places, postcodes, opening hours), cached with it.
  const perFile: Diagnostic[] = [];
  const datasetOf = new Map<string, string>();
  for (const [dataset, units] of input.units) {
    for (const { files } of units) {
      for (const file of files) datasetOf.set(file.file, dataset.id);
      const brand = files.find((f) => f.brandName)?.brandName?.value ?? "";
      for (const file of files) {
        const { brandName } = file;
        if (brandName) {
          brandNames.push({
            value: brandName.value,
            dataset: dataset.id,
            file: file.file,
            spot: brandName,
          });
        }
        perFile.push(...(file.facts?.warnings ?? []));
        for (const record of file.facts?.records ?? []) {
          records.push({ file: file.file, dataset, brand, record });
        }
      }
    }
  }
  const content = { records, brandNames, today: input.today };
  const found = [
    ...perFile,
    ...CONTENT_RULES.flatMap((rule) => rule.check(content).map((f) => warningOf(rule.id, f))),
  ];
  const asErrors = new Set(input.asErrors ?? []);
  const all = asErrors.has("all");
  const warnings: Diagnostic[] = [];
  const errors: Diagnostic[] = [];
  for (const finding of found) {
    if (all || asErrors.has(finding.rule)) {
      const { severity: _, ...error } = finding;
      errors.push({
        ...error,
        message: `${error.message} (QualityErrors in site.yaml makes this an error)`,
      });
    } else warnings.push(finding);
  }
  const tally = new Map<string, RuleCount>();
  for (const finding of found) {
    const dataset = datasetOf.get(finding.file) ?? "";
    const key = `${finding.rule}\0${dataset}`;
    const count = (tally.get(key)?.count ?? 0) + 1;
    tally.set(key, { rule: finding.rule, dataset, count });
  }
  const counts = [...tally.values()].sort(
    (a, b) =>
      b.count - a.count ||
      (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : a.dataset < b.dataset ? -1 : 1),
  );
  return { warnings, errors, counts };
}
