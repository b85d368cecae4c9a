/**
 * The build's validator of every schema (createAjv: strict, every error), made once per worker:
 * test files share a module graph per worker (vitest.config.ts), so a schema is compiled once
 * however many test files validate against it. Tests only read it.
 */
import type { Ajv } from "ajv";
import { createAjv } from "../../build/check/schemas.js";

let shared: Ajv | undefined;

export function schemaAjv(): Ajv {
  return (shared ??= createAjv());
}
