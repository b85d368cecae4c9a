/**
 * Loads the JSON Schemas in schemas/ into one ajv instance. The same files serve the build, the
 * tests and editors (yaml-language-server), so they are plain draft-07 files that reference each
 * other by file name (`common.schema.json#/definitions/...`) and carry no $id.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type AnySchemaObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { SCHEMA_DIR } from "../core/paths.js";
import { loadValidator, schemasDigest } from "./precompiled.js";

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * Annotation keywords the schemas carry for editors. ajv's strict mode rejects unknown keywords,
 * so they are declared here; the build reads `patternErrorMessage` for its own messages too.
 */
const EDITOR_KEYWORDS = ["patternErrorMessage", "markdownDescription"];

/** Every schema file, parsed, keyed by file name. */
export function readSchemas(dir: string = SCHEMA_DIR): Map<string, AnySchemaObject> {
  const schemas = new Map<string, AnySchemaObject>();
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith(".schema.json")) {
      schemas.set(name, JSON.parse(readFileSync(join(dir, name), "utf8")) as AnySchemaObject);
    }
  }
  return schemas;
}

/**
 * How every validator is compiled: strict, reporting every error, and verbose so each error
 * carries the offending value and its schema (for editor-friendly messages).
 */
export const AJV_OPTIONS = { allErrors: true, strict: true, verbose: true } as const;

// The digest of the schemas each instance holds, for precompiled.ts's modules. This and the two
// maps below are kept by the ajv instance, per process, not per build (core/memory.ts): what they
// hold depends only on the schema files the instance was made from, never on content or a build.
const digests = new WeakMap<Ajv, string>();

/**
 * An ajv instance holding every schema under its file name. With `source`, ajv keeps the code it
 * generates, for precompile.ts to write out.
 */
export function createAjv(
  schemas: Map<string, AnySchemaObject> = readSchemas(),
  { source = false }: { readonly source?: boolean } = {},
): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, ...(source ? { code: { source: true } } : {}) });
  addFormats(ajv);
  for (const keyword of EDITOR_KEYWORDS) ajv.addKeyword({ keyword, schemaType: "string" });
  for (const [name, schema] of schemas) ajv.addSchema(schema, name);
  digests.set(ajv, schemasDigest(schemas, AJV_OPTIONS));
  return ajv;
}

// Each instance's validators taken from precompiled modules, by schema file.
const loaded = new WeakMap<Ajv, Map<string, ValidateFunction>>();

/**
 * The validator of one schema file: the module precompiled for exactly these schemas when there
 * is one (precompiled.ts), else compiled by ajv now. The same function for the same instance.
 */
export function validatorFor(ajv: Ajv, schemaFile: string): ValidateFunction {
  let mine = loaded.get(ajv);
  if (!mine) loaded.set(ajv, (mine = new Map<string, ValidateFunction>()));
  const known = mine.get(schemaFile);
  if (known) return known;
  const digest = digests.get(ajv);
  // Only a schema the instance holds (ajv.schemas, by the name addSchema gave it) has a module.
  const held = Object.hasOwn(ajv.schemas, schemaFile);
  const validate =
    (digest && held && loadValidator(digest, schemaFile)) || ajv.getSchema(schemaFile);
  if (!validate) throw new Error(`schemas/${schemaFile} does not exist`);
  mine.set(schemaFile, validate);
  return validate;
}

/** The keywords envelopeShellValidator walks through, as a draft-07 schema spells them. */
interface SchemaNode {
  [keyword: string]: unknown;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  type?: string;
}

/**
 * A validator for a response envelope's shell: meta and the data/Brand structure, with each brand
 * checked only for being an object. The build validates every brand file against its brand schema
 * first, and joining a brand folder's files cannot make a valid brand invalid (same BrandName,
 * non-empty lists concatenated, no upper bounds on record lists), so validating every record a
 * second time would only double the cost. The test suite validates the built output against the
 * complete envelope schema.
 */
export function envelopeShellValidator(ajv: Ajv, envelope: AnySchemaObject): ValidateFunction {
  // Compiled once per ajv instance and envelope text: every build of a process (the preview's,
  // a test run's) would otherwise compile the same shell again, about 7 ms each.
  let shells = compiledShells.get(ajv);
  if (!shells) compiledShells.set(ajv, (shells = new Map<string, ValidateFunction>()));
  const key = JSON.stringify(envelope);
  let validate = shells.get(key);
  if (!validate) shells.set(key, (validate = compileShell(ajv, envelope)));
  return validate;
}

const compiledShells = new WeakMap<Ajv, Map<string, ValidateFunction>>();

function compileShell(ajv: Ajv, envelope: AnySchemaObject): ValidateFunction {
  const shell = structuredClone(envelope);
  const view: SchemaNode = shell;
  const brand = view.properties?.data?.items?.properties?.Brand;
  if (!brand?.items) throw new Error("envelope schema has no data[].Brand[] items to replace");
  brand.items = { type: "object" };
  return ajv.compile(shell);
}
