/**
 * The repairs of `npm run import -- --repair`: changes to a feed's values that lose nothing and
 * invent nothing, found from the brand schema's own complaints. A repair is proposed only where
 * the schema rejects a value, and kept only when that complaint goes, no new one comes, and no
 * field the schema requires is removed; so a repair never touches a valid value, and what the
 * schema says (not a list of field names here) decides where a list or one value belongs.
 *
 * Records are repaired one at a time, each checked inside a copy of its brand holding it alone, so
 * trying a repair costs the check of one record, not of the whole feed.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { iso6392BTo1, iso6392TTo1 } from "iso-639-2";
import { isObject } from "../core/json-value.js";
import { pointerSegments } from "../core/json-pointer.js";

/** The kinds of repair, in the order they are reported. */
export const REPAIR_KINDS = [
  "language",
  "wrap",
  "unwrap",
  "currency",
  "scalar",
  "whitespace",
  "empty",
] as const;
export type RepairKind = (typeof REPAIR_KINDS)[number];

/** One value repaired. */
export interface Repair {
  readonly kind: RepairKind;
  /** JSON pointer of the value inside the brand object (a brand file's document). */
  readonly pointer: string;
  /** The field's name (the last segment of the pointer that is not a list index). */
  readonly field: string;
  readonly from: unknown;
  /** The value written instead; undefined when the field was dropped. */
  readonly to: unknown;
}

export interface RepairResult {
  /** The brand object with every repair made (a copy: the input is not changed). */
  readonly value: Record<string, unknown>;
  /** The repairs, in record order. */
  readonly repairs: Repair[];
}

/** Rounds of repairs one record gets at most: a wrapped value may then need its code repaired. */
const MAX_ROUNDS = 4;

/**
 * Every repair `brand` needs under `validate` (its data set's brand schema, ajv with verbose
 * errors); `recordsKey` is the brand's record list (null for a service metrics brand, repaired as
 * one record).
 */
export function repairBrand(
  brand: Record<string, unknown>,
  validate: ValidateFunction,
  recordsKey: string | null,
): RepairResult {
  const value = structuredClone(brand);
  const errors = check(value, validate);
  if (errors.length === 0) return { value, repairs: [] };
  const repairs: Repair[] = [];
  const records = recordsKey === null ? undefined : value[recordsKey];
  const prefix = recordsKey === null ? undefined : `/${recordsKey}/`;
  // The records with a complaint, from the check of the whole brand.
  const failing = new Set<number>();
  let brandLevel = false;
  for (const error of errors) {
    if (prefix && Array.isArray(records) && error.instancePath.startsWith(prefix)) {
      failing.add(Number(error.instancePath.slice(prefix.length).split("/")[0]));
    } else brandLevel = true;
  }
  if (Array.isArray(records) && recordsKey !== null) {
    for (const index of [...failing].sort((a, b) => a - b)) {
      const alone = { ...value, [recordsKey]: [records[index]] };
      const found = repairUnit(alone, validate, () => true);
      const from = `/${recordsKey}/0`;
      const to = `/${recordsKey}/${index}`;
      for (const repair of found) {
        repairs.push({ ...repair, pointer: to + repair.pointer.slice(from.length) });
      }
      records[index] = (alone[recordsKey] as unknown[])[0];
    }
  }
  if (brandLevel) {
    // Fields of the brand itself (rare): checked with all its records, repairs outside them only.
    const outside = (pointer: string) => !prefix || !pointer.startsWith(prefix);
    repairs.push(...repairUnit(value, validate, outside));
  }
  return { value, repairs };
}

/** Repairs `unit` in place, round by round, keeping each repair that answers its complaint. */
function repairUnit(
  unit: Record<string, unknown>,
  validate: ValidateFunction,
  allowed: (pointer: string) => boolean,
): Repair[] {
  const made: Repair[] = [];
  let errors = check(unit, validate);
  for (let round = 0; round < MAX_ROUNDS && errors.length > 0; round++) {
    let changed = false;
    const seen = new Set<string>();
    for (const error of errors.slice()) {
      const key = `${error.instancePath} ${error.keyword}`;
      if (seen.has(key) || !allowed(error.instancePath)) continue;
      seen.add(key);
      const candidate = proposal(unit, error);
      if (!candidate) continue;
      const undo = apply(unit, candidate);
      const after = check(unit, validate);
      if (better(errors, after, error) && !dropsRequired(candidate, after)) {
        made.push(candidate);
        errors = after;
        changed = true;
      } else undo();
    }
    if (!changed) break;
  }
  return made;
}

/**
 * Whether a repair answered `error`: it is gone, no more errors are left at or under its value
 * (a wrapped code may still need its own repair, in the next round), and none came elsewhere.
 */
function better(
  before: readonly ErrorObject[],
  after: readonly ErrorObject[],
  error: ErrorObject,
): boolean {
  const at = error.instancePath;
  const inside = (e: ErrorObject) => e.instancePath === at || e.instancePath.startsWith(`${at}/`);
  const count = (list: readonly ErrorObject[], where: boolean) =>
    list.filter((e) => inside(e) === where).length;
  const gone = !after.some((e) => e.instancePath === at && e.keyword === error.keyword);
  return (
    gone && count(after, true) <= count(before, true) && count(after, false) <= count(before, false)
  );
}

function check(unit: unknown, validate: ValidateFunction): ErrorObject[] {
  return validate(unit) ? [] : [...(validate.errors ?? [])];
}

/** Whether dropping a field made the schema ask for it: then it was not optional there. */
function dropsRequired(repair: Repair, errors: readonly ErrorObject[]): boolean {
  if (repair.to !== undefined) return false;
  const parent = repair.pointer.slice(0, repair.pointer.lastIndexOf("/"));
  return errors.some(
    (e) =>
      e.keyword === "required" &&
      e.instancePath === parent &&
      (e.params as { missingProperty?: string }).missingProperty === repair.field,
  );
}

/** The repair that answers `error`, if one of the kinds does. */
function proposal(unit: Record<string, unknown>, error: ErrorObject): Repair | undefined {
  const pointer = error.instancePath;
  const segments = pointerSegments(pointer);
  const field = [...segments].reverse().find((s) => !/^\d+$/.test(s)) ?? "";
  const value = valueAt(unit, segments);
  const make = (kind: RepairKind, to: unknown): Repair => ({
    kind,
    pointer,
    field,
    from: value,
    to,
  });

  if (typeof value === "string" && value !== value.trim() && value.trim() !== "") {
    return make("whitespace", value.trim());
  }
  switch (error.keyword) {
    case "type": {
      // null is JSON's "no value" (what a converter writes for an empty element): an optional
      // field holding it is dropped, as an empty one is; a required one stays (dropsRequired).
      if (value === null && segments.length > 0 && isObject(valueAt(unit, segments.slice(0, -1)))) {
        return make("empty", undefined);
      }
      const wanted = ([] as string[]).concat((error.params as { type: string | string[] }).type);
      if (
        wanted.includes("array") &&
        !Array.isArray(value) &&
        value !== undefined &&
        value !== null
      ) {
        return make("wrap", [value]);
      }
      if (!wanted.includes("array") && Array.isArray(value) && value.length === 1) {
        return make("unwrap", value[0]);
      }
      const scalar = scalarAs(value, wanted);
      return scalar === undefined ? undefined : make("scalar", scalar);
    }
    case "pattern": {
      if (typeof value !== "string") return undefined;
      if (/language/i.test(field)) {
        const code = languageCode(value);
        return code ? make("language", code) : undefined;
      }
      const amount = plainAmount(value, recordCurrencies(unit, segments));
      return amount === undefined ? undefined : make("currency", amount);
    }
    case "minItems":
    case "minLength": {
      const empty = (Array.isArray(value) && value.length === 0) || value === "";
      const inObject = isObject(valueAt(unit, segments.slice(0, -1)));
      return empty && inObject && segments.length > 0 ? make("empty", undefined) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The ISO 639-1 code of an ISO 639-2 code, bibliographic (`ger`, `wel`, `fre`) or terminology
 * (`deu`, `cym`, `fra`) form, from the package's copy of the whole ISO 639-2 table; undefined for a
 * code with no two-letter form (`sco`) or not in the table. Case does not matter (`ENG`).
 */
export function languageCode(code: string): string | undefined {
  const key = code.toLowerCase();
  if (!/^[a-z]{3}$/.test(key)) return undefined;
  return iso6392BTo1[key] ?? iso6392TTo1[key];
}

/**
 * A number's decimal text, where the schema wants text (a feed's `"Latitude": 51.5`, an
 * Identification written as a number): what the number is, in the form the spec's patterns take.
 * Undefined when the text could differ from what the feed wrote beyond its form: an integer beyond
 * 2^53, which JSON parsing has already rounded, or a number JavaScript writes with an exponent.
 */
export function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) return undefined;
  const text = String(value);
  return /e/i.test(text) ? undefined : text;
}

/**
 * `value` as the one type of `wanted` it says exactly, or undefined: a number as its text where
 * the schema wants text; "true" or "false" as the boolean where it wants one; the text of a
 * number, in JSON's own form, as that number where it wants a number (or an integer, and it is
 * one). A feed converted from XML writes every value as text; one typed by guessing writes
 * digits as numbers. Nothing else is converted: "yes", "1" for a boolean, "1,000" or "0x10".
 */
export function scalarAs(value: unknown, wanted: readonly string[]): unknown {
  if (typeof value === "number" && wanted.includes("string")) return numberText(value);
  if (typeof value !== "string") return undefined;
  if (wanted.includes("boolean") && (value === "true" || value === "false")) {
    return value === "true";
  }
  const numeric = wanted.includes("number") || wanted.includes("integer");
  if (!numeric || !/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) return undefined;
  if (!wanted.includes("number") && !Number.isInteger(number)) return undefined;
  // A double holds 15 significant decimal digits whatever they are; past that, digits the feed
  // wrote would be rounded away.
  const digits = value
    .replace(/[eE].*$/, "")
    .replace(/[-.]/g, "")
    .replace(/^0+/, "");
  if (digits.replace(/0+$/, "").length > 15) return undefined;
  return number;
}

/** Currency signs and the ISO 4217 code each stands for. */
const SIGNS: Readonly<Record<string, string>> = { "£": "GBP", "€": "EUR", $: "USD" };

/**
 * `£10` → `10`, `GBP 1,000.00` → `1000.00`: the amount without a currency sign or code, when that
 * currency is the record's only currency (`currencies`); otherwise undefined, since dropping a
 * currency the record does not state would change what the amount says.
 */
export function plainAmount(text: string, currencies: readonly string[]): string | undefined {
  const before = /^([£€$]|[A-Z]{3}) ?(-?[\d,.]+)$/.exec(text);
  const after = /^(-?[\d,.]+) ?([£€$]|[A-Z]{3})$/.exec(text);
  const [mark, amount] = before ? [before[1]!, before[2]!] : after ? [after[2]!, after[1]!] : [];
  if (mark === undefined || amount === undefined) return undefined;
  const currency = SIGNS[mark] ?? mark;
  if (currencies.length !== 1 || currencies[0] !== currency) return undefined;
  // A comma here can only group thousands: the schema's amounts have none, and 1,000 is 1000.
  if (!/^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(amount)) return undefined;
  return amount.replace(/,/g, "");
}

/** The currencies of the record that holds the value at `segments` (an ATM's SupportedCurrencies). */
function recordCurrencies(unit: Record<string, unknown>, segments: readonly string[]): string[] {
  // The record is the item of the brand's list: the first two segments (ATM/0).
  const record = valueAt(unit, segments.slice(0, 2));
  const list = isObject(record) ? record.SupportedCurrencies : undefined;
  return Array.isArray(list) && list.every((c) => typeof c === "string") ? list : [];
}

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const segment of segments) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** Makes `repair` in `unit`; returns how to undo it. */
function apply(unit: Record<string, unknown>, repair: Repair): () => void {
  const segments = pointerSegments(repair.pointer);
  const last = segments[segments.length - 1]!;
  const parent = valueAt(unit, segments.slice(0, -1)) as Record<string, unknown> | unknown[];
  if (Array.isArray(parent)) {
    const index = Number(last);
    const old = parent[index];
    parent[index] = repair.to;
    return () => {
      parent[index] = old;
    };
  }
  const had = Object.prototype.hasOwnProperty.call(parent, last);
  const old = parent[last];
  const keys = Object.keys(parent);
  if (repair.to === undefined) delete parent[last];
  else parent[last] = repair.to;
  return () => {
    if (!had) return;
    // Put the field back where it was, so the written file keeps the feed's key order.
    const entries = keys.map((k) => [k, k === last ? old : parent[k]] as const);
    for (const k of Object.keys(parent)) delete parent[k];
    for (const [k, v] of entries) parent[k] = v;
  };
}
