/**
 * Writes the schemas' validators as JavaScript (precompiled.ts says why and where), for
 * scripts/compile.mjs: when the folder for the current schemas' digest is there already, nothing;
 * otherwise every schema file's module, into a fresh folder renamed into place once complete (so
 * a process reading it never sees half of it), and the folders of older digests are removed.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Ajv, AnySchemaObject, ValidateFunction } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import { AJV_OPTIONS, createAjv, readSchemas } from "./schemas.js";
import { schemasDigest, validatorsFolder, VALIDATORS_DIR } from "./precompiled.js";

// ajv's standalone module is CommonJS with a default export, as ajv-formats (schemas.ts).
const standaloneCode = standaloneModule as unknown as typeof standaloneModule.default;

/** Writes the validators of `schemas` unless they are written; returns their folder and whether it wrote. */
export function writeValidators(schemas: Map<string, AnySchemaObject> = readSchemas()): {
  readonly dir: string;
  readonly written: boolean;
} {
  const digest = schemasDigest(schemas, AJV_OPTIONS);
  const dir = validatorsFolder(digest);
  mkdirSync(VALIDATORS_DIR, { recursive: true });
  // Complete folders only: a name starting with "." is another compile's, still being written.
  const present = readdirSync(VALIDATORS_DIR, { withFileTypes: true }).filter(
    (d) => d.isDirectory() && !d.name.startsWith("."),
  );
  if (present.some((d) => d.name === digest)) return { dir, written: false };
  const ajv: Ajv = createAjv(schemas, { source: true });
  const partial = join(VALIDATORS_DIR, `.${digest}.${process.pid}`);
  mkdirSync(partial, { recursive: true });
  for (const name of schemas.keys()) {
    const validate = ajv.getSchema(name) as ValidateFunction;
    writeFileSync(join(partial, `${name}.cjs`), standaloneCode(ajv, validate));
  }
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another compile wrote the same folder first: its modules are these.
    rmSync(partial, { recursive: true, force: true });
    if (
      (error as NodeJS.ErrnoException).code !== "ENOTEMPTY" &&
      (error as NodeJS.ErrnoException).code !== "EEXIST"
    )
      throw error;
  }
  for (const old of present)
    rmSync(join(VALIDATORS_DIR, old.name), { recursive: true, force: true });
  return { dir, written: true };
}
