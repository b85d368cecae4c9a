/**
 * Step 3, rules a schema cannot express, checked across files: a BrandName used by two brands of a
 * data set, two records of a brand with the same identity, and the files of one brand folder naming
 * different brands. Each conflict is reported at both places, each message naming the other.
 */
import type { CheckedFile, Located } from "./one-file.js";
import type { BrandUnit } from "../read/content.js";
import { atBothPlaces, sourcePlace, type Diagnostic } from "../core/diagnostics.js";

export interface CheckedUnit {
  readonly unit: BrandUnit;
  /** Checked files in the unit's join order. */
  readonly files: readonly CheckedFile[];
}

/** Pairs each brand with its files' results, found by the file's printed path. */
export function withCheckedFiles(
  units: readonly BrandUnit[],
  checked: ReadonlyMap<string, CheckedFile>,
): CheckedUnit[] {
  // A file that could not be read was not checked (check/steps.ts): its problem is said already.
  return units.map((unit) => ({
    unit,
    files: unit.files.flatMap((f) => checked.get(f.display) ?? []),
  }));
}

export function checkBrands(units: readonly CheckedUnit[]): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const brandNames = new Map<string, Found>();
  for (const { unit, files } of units) {
    if (unit.dataset.recordsKey === null && files.length > 1) {
      for (const file of files.slice(1)) {
        problems.push(
          at(
            { file: file.file, line: 1, column: 1, pointer: "", value: "" },
            "brand",
            `a service metrics brand is one file; move this into its own brand file or merge it into ${files[0]!.file}`,
          ),
        );
      }
    }
    const first = files.find((f) => f.brandName)?.brandName;
    const firstFile = files.find((f) => f.brandName)?.file;
    if (first && firstFile) {
      const seen = brandNames.get(first.value);
      if (seen)
        conflict(
          problems,
          seen,
          { file: firstFile, ...first },
          `BrandName ${JSON.stringify(first.value)} is used by another brand too`,
        );
      else brandNames.set(first.value, { file: firstFile, ...first });
    }
    const ids = new Map<string, Found>();
    for (const file of files) {
      if (first && file.brandName && file.brandName.value !== first.value) {
        problems.push(
          at(
            { file: file.file, ...file.brandName },
            "brand",
            `every file of the brand folder "${unit.slug}" must name the same brand: this says ${JSON.stringify(file.brandName.value)}, ${sourcePlace({ file: firstFile!, ...first })} says ${JSON.stringify(first.value)}`,
          ),
        );
      }
      for (const record of file.records) {
        const found = { file: file.file, ...record };
        const seen = ids.get(record.value);
        if (seen)
          conflict(problems, seen, found, `${record.value} is used by two records of this brand`);
        else ids.set(record.value, found);
      }
    }
  }
  return problems;
}

type Found = Located<string> & { readonly file: string };

function conflict(problems: Diagnostic[], first: Found, second: Found, message: string): void {
  problems.push(...atBothPlaces(first, second, "duplicate", message));
}

function at(found: Found, rule: string, message: string): Diagnostic {
  return {
    file: found.file,
    line: found.line,
    column: found.column,
    pointer: found.pointer,
    message,
    rule,
  };
}
