/**
 * Turns ajv's errors into sentences for a content editor: what the field must be, what was found,
 * and, where a likely typo explains it, what was probably meant. Every ajv keyword the schemas use
 * has a case here; anything else falls back to ajv's own message.
 */
import type { ErrorObject } from "ajv";
import { pointerJoin, pointerSegments } from "../core/json-pointer.js";
import { closest } from "../core/closest.js";
import { plural, showValue } from "../core/format.js";

export interface SchemaProblem {
  /** JSON pointer of the value the message is about. */
  readonly pointer: string;
  /** Point at the mapping key rather than its value (unknown fields). */
  readonly atKey: boolean;
  readonly message: string;
  readonly rule: string;
}

const TYPE_NAMES: Record<string, string> = {
  string: "text",
  integer: "a whole number",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "a set of fields",
  null: "empty",
};

const FORMAT_HINTS: Record<string, string> = {
  date: "a date as YYYY-MM-DD, like 2026-01-31",
  "date-time": "a date and time like 2026-01-31T09:30:00Z",
  uri: "a full web address, like https://www.example.org/terms",
  int32: "a whole number from -2147483648 to 2147483647",
  float: "a number",
};

/** A field the standard places one level deeper than older content of ours put it. */
interface MovedField {
  /** Field names that moved. */
  readonly fields: readonly string[];
  /** The list field of the same object whose items now hold them. */
  readonly to: string;
  /** Where the new place is defined, for the editor who wants to check. */
  readonly source: string;
}

/**
 * Fields that moved. open-data-api-v2.2.md flattens the PCA marketing state into the product's
 * table; the standard (open-data-api-v2.2-products.md, "Personal current accounts") puts these six
 * objects in each PCAMarketingState item, so a product written the old way is told where they go
 * instead of being told that they are not fields at all.
 */
const MOVED_FIELDS: readonly MovedField[] = [
  {
    fields: [
      "CreditInterest",
      "Overdraft",
      "Eligibility",
      "FeaturesAndBenefits",
      "OtherFeesCharges",
      "CoreProduct",
    ],
    to: "PCAMarketingState",
    source: "the standard's structure, open-data-api-v2.2-products.md",
  },
];

/** The command that rewrites content written to the old shapes below (build/cli/migrate.ts). */
const MIGRATE_COMMAND = "npm run migrate";

/** A field 2.2.1 defines as one value that older content of ours wrote as a list. */
interface SingleField {
  /** One plain value (a code) or one set of fields (an object). */
  readonly kind: "value" | "object";
  /** How an editor writes the one value, for the message. */
  readonly example: string;
  /** What to do when the old list held more than one, which 2.2.1 cannot say. */
  readonly many: string;
}

/**
 * Fields that are one value, not a list, in 2.2.1 (open-data-api-v2.2-products.md, the
 * corrections in its header): PCA card Scheme and PCA ResidencyEligibility. Content written to the
 * later standard's list shape is told what to write instead, and which command rewrites it.
 */
const SINGLE_FIELDS: Readonly<Record<string, SingleField>> = {
  Scheme: {
    kind: "value",
    example: 'Scheme: "Visa"',
    many: "describe each scheme's card as its own Card item, or keep only the scheme the card is issued on",
  },
  ResidencyEligibility: {
    kind: "object",
    example:
      "its fields (ResidencyIncluded, …) directly under ResidencyEligibility, without the “- ”",
    many: "merge them into one, with every country in its ResidencyIncluded",
  },
};

/** The sentence for an old list where 2.2.1 has one value, or undefined for any other error. */
function singleFieldMessage(pointer: string, data: unknown): string | undefined {
  const field = pointerSegments(pointer).at(-1);
  const single = field === undefined ? undefined : SINGLE_FIELDS[field];
  if (!single || !Array.isArray(data)) return undefined;
  const one = single.kind === "value" ? "one value" : "one set of fields";
  const start = `${field} is ${one} in 2.2.1, not a list`;
  if (data.length === 0)
    return single.kind === "value"
      ? `${start}: write ${single.example}`
      : `${start}: leave ${field} out if there is none`;
  if (data.length > 1)
    return `${start}, and this lists ${data.length} (${data.map((item) => showValue(item, 40)).join(", ")}), which 2.2.1 cannot say: ${single.many}; ${MIGRATE_COMMAND} stops here rather than drop one`;
  const written = single.kind === "value" ? `${field}: ${JSON.stringify(data[0])}` : single.example;
  return `${start}: write ${written} (${MIGRATE_COMMAND} rewrites old content in place)`;
}

/** The move that explains an unknown `field` on an object whose allowed fields are `allowed`. */
function movedField(field: string, allowed: readonly string[]): MovedField | undefined {
  return MOVED_FIELDS.find((m) => m.fields.includes(field) && allowed.includes(m.to));
}

export function describeSchemaError(error: ErrorObject): SchemaProblem {
  const at = error.instancePath;
  const found = ` (found ${describeFound(error.data)})`;
  const params = error.params as Record<string, unknown>;
  const base = { pointer: at, atKey: false, rule: error.keyword };
  switch (error.keyword) {
    case "required": {
      const field = String(params.missingProperty);
      return {
        ...base,
        pointer: pointerJoin(at, field),
        message: `required field "${field}" is missing`,
      };
    }
    case "additionalProperties":
      return unknownField(error, base);
    case "enum": {
      // A one-value field written as a list fails its code list too; the type error says it all,
      // and one-file.ts drops the repeat.
      const single = singleFieldMessage(at, error.data);
      if (single) return { ...base, rule: "type", message: single };
      const allowed = (params.allowedValues as unknown[]).map(String);
      const guess = typeof error.data === "string" ? closest(error.data, allowed) : undefined;
      return {
        ...base,
        message: `must be one of ${allowed.join(", ")}${found}${guess ? `; did you mean "${guess}"?` : ""}`,
      };
    }
    case "const":
      return { ...base, message: `must be exactly ${showValue(params.allowedValue, 200)}${found}` };
    case "type":
      return {
        ...base,
        message: singleFieldMessage(at, error.data) ?? typeMessage(String(params.type), error.data),
      };
    case "minLength":
    case "maxLength": {
      const limit = Number(params.limit);
      const length = typeof error.data === "string" ? [...error.data].length : 0;
      const bound = error.keyword === "minLength" ? "at least" : "at most";
      return {
        ...base,
        message: `must be ${bound} ${plural(limit, "character")} long (it has ${length})`,
      };
    }
    case "minItems":
    case "maxItems": {
      const limit = Number(params.limit);
      const count = Array.isArray(error.data) ? error.data.length : 0;
      const bound = error.keyword === "minItems" ? "at least" : "at most";
      return { ...base, message: `must list ${bound} ${plural(limit, "item")} (it has ${count})` };
    }
    case "pattern": {
      const hint = error.parentSchema?.patternErrorMessage as string | undefined;
      return {
        ...base,
        message: `must be ${hint ?? `text matching ${String(params.pattern)}`}${found}`,
      };
    }
    case "format": {
      const format = String(params.format);
      return {
        ...base,
        message: `must be ${FORMAT_HINTS[format] ?? `in ${format} format`}${found}`,
      };
    }
    case "minimum":
    case "maximum":
      return {
        ...base,
        message: `must be ${String(params.comparison)} ${String(params.limit)}${found}`,
      };
    default:
      return { ...base, message: `${error.message ?? "is not valid"}${found}` };
  }
}

/** A field the schema does not allow: where it moved to, the field meant, or those allowed. */
function unknownField(
  error: ErrorObject,
  base: Pick<SchemaProblem, "pointer" | "atKey" | "rule">,
): SchemaProblem {
  const field = String((error.params as Record<string, unknown>).additionalProperty);
  const allowed = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
  const pointer = pointerJoin(error.instancePath, field);
  const moved = movedField(field, allowed);
  if (moved) {
    return {
      ...base,
      pointer,
      atKey: true,
      message: `"${field}" now belongs in each marketing state: move it under ${moved.to} (${moved.source})`,
    };
  }
  const guess = closest(field, allowed);
  const hint = guess
    ? `; did you mean "${guess}"?`
    : allowed.length > 0
      ? `; the fields allowed here are ${allowed.join(", ")}`
      : "";
  return {
    ...base,
    pointer,
    atKey: true,
    message: `${JSON.stringify(field)} is not a field here${hint}`,
  };
}

/** Type errors name the YAML pitfall behind most of them: unquoted numbers, yes/no, dates. */
function typeMessage(expected: string, data: unknown): string {
  const want = TYPE_NAMES[expected] ?? expected;
  if (
    expected === "string" &&
    (typeof data === "number" || typeof data === "boolean" || data === null)
  ) {
    const written = data === null ? "" : String(data);
    return `must be text, but YAML read ${data === null ? "an empty value" : `the ${typeof data} ${written}`}; put it in quotes: "${written}"`;
  }
  // A key with nothing after it where a list belongs: its items were left out, or not indented.
  if (expected === "array" && data === null) {
    return 'must be a list (found an empty value); write its items on the lines below it, indented, each after "- "';
  }
  if (expected === "boolean" && typeof data === "string") {
    return `must be true or false (found ${showValue(data)}; write true or false without quotes)`;
  }
  return `must be ${want} (found ${describeFound(data)})`;
}

function describeFound(data: unknown): string {
  if (Array.isArray(data)) return `a list of ${plural(data.length, "item")}`;
  if (data !== null && typeof data === "object") return "a set of fields";
  if (data === null) return "an empty value";
  return showValue(data);
}
