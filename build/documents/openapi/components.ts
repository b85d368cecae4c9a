/**
 * The schema files of schemas/ as OpenAPI 3.1 components, converted mechanically so no schema is
 * kept twice. The files are JSON Schema draft-07 and refer to each other by file name; OpenAPI 3.1
 * uses JSON Schema 2020-12 with references inside one document. The conversion:
 *
 * - each file becomes the component named by its file name without `.schema.json`, and each of its
 *   `definitions` the component `<file>.<definition>` (lifted out rather than kept as `$defs`, so
 *   client generators give every definition a type of its own);
 * - every `$ref` is rewritten to `#/components/schemas/...`, keeping any pointer below a definition;
 * - `$schema` and `$id` are dropped (the document's dialect applies), and so are the editor-only
 *   annotations (`patternErrorMessage`, `markdownDescription`);
 * - nothing else changes: the draft-07 keywords these files use (type, properties, items as one
 *   schema, enum, const, pattern, format, bounds, allOf) mean the same in 2020-12.
 *
 * Only the components reachable from the given root files are emitted.
 */
import type { AnySchemaObject } from "ajv";

/** Suffix every schema file name ends with. */
const SCHEMA_SUFFIX = ".schema.json";
/** Keywords dropped: the dialect is the document's, and these only help editors. */
const DROPPED = new Set(["$schema", "$id", "patternErrorMessage", "markdownDescription"]);
/** Keywords whose value is a map of name to subschema. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties"]);
/** Keywords whose value is one subschema. */
const SCHEMA_VALUES = new Set([
  "items",
  "additionalProperties",
  "not",
  "contains",
  "if",
  "then",
  "else",
]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf"]);

/** Draft-07 keywords that 2020-12 renamed or split; the files use none, and a conversion would. */
const DRAFT_07_ONLY = new Set(["dependencies", "additionalItems"]);

const COMPONENTS = "#/components/schemas/";

/** The component name of a schema file: `branches.schema.json` is `branches`. */
export function componentName(file: string): string {
  if (!file.endsWith(SCHEMA_SUFFIX)) throw new Error(`${file} is not a *${SCHEMA_SUFFIX} file`);
  return file.slice(0, -SCHEMA_SUFFIX.length);
}

/** A `$ref` to the component of a schema file, as the document's paths use it. */
export function componentRef(file: string): string {
  return COMPONENTS + componentName(file);
}

/**
 * The components for `roots` (schema file names) and everything they refer to, in a stable order
 * (sorted by name), from `schemas` (file name to parsed draft-07 schema).
 */
export function schemaComponents(
  schemas: ReadonlyMap<string, AnySchemaObject>,
  roots: readonly string[],
): Record<string, AnySchemaObject> {
  const all = new Map<string, AnySchemaObject>();
  for (const [file, schema] of schemas) {
    const stem = componentName(file);
    const { definitions, ...root } = schema as { definitions?: Record<string, AnySchemaObject> };
    all.set(stem, convert(root, file));
    for (const [name, definition] of Object.entries(definitions ?? {})) {
      all.set(`${stem}.${name}`, convert(definition, file));
    }
  }
  const reachable = new Set<string>();
  const visit = (name: string) => {
    if (reachable.has(name)) return;
    const component = all.get(name);
    if (!component) throw new Error(`no schema component ${name}`);
    reachable.add(name);
    for (const ref of refsIn(component)) visit(ref.slice(COMPONENTS.length).split("/")[0]!);
  };
  for (const file of roots) visit(componentName(file));
  return Object.fromEntries([...reachable].sort().map((name) => [name, all.get(name)!]));
}

// The `$ref` of a draft-07 file, as a reference into the document's components.
function rewriteRef(ref: string, file: string): string {
  const hash = ref.indexOf("#");
  const target = hash === -1 ? ref : ref.slice(0, hash) || file;
  const pointer = hash === -1 ? "" : ref.slice(hash + 1);
  const stem = componentName(target);
  if (pointer === "" || pointer === "/") return COMPONENTS + stem;
  const [, keyword, name, ...rest] = pointer.split("/");
  if (keyword !== "definitions" || name === undefined) {
    throw new Error(`${file}: cannot convert $ref ${ref} (only whole files and definitions)`);
  }
  return [COMPONENTS + `${stem}.${name}`, ...rest].join("/");
}

function convert(schema: AnySchemaObject, file: string): AnySchemaObject {
  const out: AnySchemaObject = {};
  for (const [keyword, value] of Object.entries<unknown>(schema)) {
    if (DROPPED.has(keyword)) continue;
    if (keyword === "$ref") out.$ref = rewriteRef(value as string, file);
    else if (keyword === "definitions") throw new Error(`${file}: nested definitions`);
    else if (DRAFT_07_ONLY.has(keyword))
      throw new Error(`${file}: "${keyword}" has no 2020-12 twin here`);
    else if (SCHEMA_MAPS.has(keyword)) {
      out[keyword] = Object.fromEntries(
        Object.entries(value as Record<string, AnySchemaObject>).map(([k, v]) => [
          k,
          convert(v, file),
        ]),
      );
    } else if (SCHEMA_VALUES.has(keyword) && typeof value === "object" && value !== null) {
      if (Array.isArray(value)) throw new Error(`${file}: tuple "${keyword}" is not converted`);
      out[keyword] = convert(value, file);
    } else if (SCHEMA_LISTS.has(keyword)) {
      out[keyword] = (value as AnySchemaObject[]).map((v) => convert(v, file));
    } else out[keyword] = value;
  }
  return out;
}

function refsIn(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(refsIn);
  if (schema === null || typeof schema !== "object") return [];
  return Object.entries(schema).flatMap(([k, v]) =>
    k === "$ref" && typeof v === "string" ? [v] : refsIn(v),
  );
}
