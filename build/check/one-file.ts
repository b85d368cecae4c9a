/**
 * Step 2, parse and validate one file. Self-contained and free of shared state, so files can be
 * checked in parallel: it returns plain data (the value, the problems, and the positions of the
 * names the cross-file checks need), never the YAML tree.
 */
import type { ValidateFunction } from "ajv";
import { atBothPlaces, type Diagnostic } from "../core/diagnostics.js";
import { pointerJoin } from "../core/json-pointer.js";
import { isObject } from "../core/json-value.js";
import { describeSchemaError } from "./schema-messages.js";
import { checkProductRules, isProductRecordsKey } from "./product-rules.js";
import { locate, parseYaml, type Position, type YamlSource } from "../read/yaml-source.js";
import type { FileFacts } from "../quality/facts.js";
import { extractFacts } from "../quality/per-file.js";

/** A name in a file with where it stands, for "also used at" messages. */
export interface Located<T> extends Position {
  readonly value: T;
  readonly pointer: string;
}

export interface CheckedFile {
  readonly file: string;
  /** The parsed data; meaningful only when `valid`. */
  readonly value: unknown;
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
  /** The file's BrandName, when it has a string one. */
  readonly brandName: Located<string> | undefined;
  /** Identity of each record (Identification, plus SequenceNumber for branches), in file order. */
  readonly records: readonly Located<string>[];
  /** What the data-quality rules need of a valid brand file (quality/facts.ts). */
  readonly facts?: FileFacts | undefined;
}

export interface FileRules {
  readonly validate: ValidateFunction;
  /** Key of the record list (Branch, ATM, PCA), or null when the file is not a brand. */
  readonly recordsKey: string | null;
  readonly identity: readonly string[];
}

/** Parses and checks one file. */
export function checkFile(file: string, text: string, rules: FileRules): CheckedFile {
  return checkParsed(parseYaml(file, text), rules);
}

/** Checks a parsed file: the second half of checkFile, apart so that each half can be timed. */
export function checkParsed(source: YamlSource, rules: FileRules): CheckedFile {
  const { file } = source;
  const diagnostics = [...source.diagnostics];
  if (diagnostics.length > 0) {
    return { file, value: undefined, valid: false, diagnostics, brandName: undefined, records: [] };
  }
  const { value } = source;
  if (!rules.validate(value)) {
    // Two keywords can fail for one reason (a list where one code belongs fails type and enum),
    // and are then worded alike: say it once.
    const said = new Set<string>();
    for (const error of rules.validate.errors ?? []) {
      const problem = describeSchemaError(error);
      const key = `${problem.pointer}\u0000${problem.message}`;
      if (said.has(key)) continue;
      said.add(key);
      const { line, column } = locate(source, problem.pointer, problem.atKey);
      diagnostics.push({
        file,
        line,
        column,
        pointer: problem.pointer,
        message: problem.message,
        rule: problem.rule,
      });
    }
  }
  if (isProductRecordsKey(rules.recordsKey)) {
    for (const finding of checkProductRules(value, rules.recordsKey)) {
      const here = { file, ...locate(source, finding.pointer), pointer: finding.pointer };
      if (finding.related === undefined) {
        diagnostics.push({ ...here, message: finding.message, rule: finding.rule });
        continue;
      }
      const there = { file, ...locate(source, finding.related), pointer: finding.related };
      diagnostics.push(...atBothPlaces(here, there, finding.rule, finding.message));
    }
  }
  const at = (pointer: string) => ({ pointer, ...locate(source, pointer) });
  const object = isObject(value) ? value : {};
  const brandName =
    typeof object.BrandName === "string"
      ? { value: object.BrandName, ...at("/BrandName") }
      : undefined;
  const records: Located<string>[] = [];
  const list = rules.recordsKey ? object[rules.recordsKey] : undefined;
  if (Array.isArray(list) && rules.identity.length > 0) {
    list.forEach((record: unknown, index) => {
      if (!isObject(record)) return;
      const parts = rules.identity.map((field) => record[field]);
      if (!parts.every((p) => typeof p === "string")) return;
      const label = rules.identity
        .map((field, i) => `${field} ${JSON.stringify(parts[i])}`)
        .join(" and ");
      records.push({ value: label, ...at(pointerJoin(pointerJoin("", rules.recordsKey!), index)) });
    });
  }
  const valid = diagnostics.length === 0;
  const facts = valid ? extractFacts(source, value, rules.recordsKey) : undefined;
  return { file, value, valid, diagnostics, brandName, records, facts };
}
