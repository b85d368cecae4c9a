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
 * An ajv instance holding every schema under its file name: strict, reporting every error, and
 * verbose so each error carries the offending value and its schema (for editor-friendly messages).
 */
export function createAjv(schemas: Map<string, AnySchemaObject> = readSchemas()): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, verbose: true });
  addFormats(ajv);
  for (const keyword of EDITOR_KEYWORDS) ajv.addKeyword({ keyword, schemaType: "string" });
  for (const [name, schema] of schemas) ajv.addSchema(schema, name);
  return ajv;
}

/** The compiled validator of one schema file. */
export function validatorFor(ajv: Ajv, schemaFile: string): ValidateFunction {
  const validate = ajv.getSchema(schemaFile);
  if (!validate) throw new Error(`schemas/${schemaFile} does not exist`);
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
