/**
 * Checks what an import wrote with the build's own steps 1 to 3 (check/steps.ts), so an imported
 * file gets exactly the problems `npm run validate` would report, at its lines. Problems in files
 * the import did not write are left to `npm run validate`.
 */
import { openCache } from "../core/cache.js";
import { checkContent } from "../check/steps.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { compareDiagnostics, type Diagnostic } from "../core/diagnostics.js";
import { SCHEMA_DIR } from "../core/paths.js";
import { createAjv, readSchemas } from "../check/schemas.js";

export interface CheckWrittenOptions {
  readonly contentDir: string;
  readonly cwd: string;
  /** The build cache folder, or false for none; a later build then reuses these checks. */
  readonly cacheDir: string | false;
}

/** Problems in `written` (paths as printed), sorted as the build sorts them. */
export async function checkWritten(
  datasets: readonly DatasetDefinition[],
  written: ReadonlySet<string>,
  options: CheckWrittenOptions,
): Promise<Diagnostic[]> {
  const schemas = readSchemas(SCHEMA_DIR);
  const { diagnostics } = await checkContent({
    contentDir: options.contentDir,
    cwd: options.cwd,
    ajv: createAjv(schemas),
    cache: openCache(options.cacheDir, schemas),
    datasets,
  });
  return diagnostics.filter((d) => written.has(d.file)).sort(compareDiagnostics);
}
