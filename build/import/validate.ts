/**
 * Checks what an import wrote with the build's own steps (read, check each file, check across the
 * data set's brands), so an imported file gets exactly the problems `npm run validate` would
 * report, at its lines. Problems in files the import did not write are left to `npm run validate`.
 */
import { openCache } from "../core/cache.js";
import { checkBrands, withCheckedFiles } from "../check/across-files.js";
import { checkFiles } from "../check/cached-checks.js";
import { discoverContent } from "../read/content.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { compareDiagnostics, type Diagnostic } from "../core/diagnostics.js";
import { SCHEMA_DIR } from "../core/paths.js";
import { brandJobs } from "../read/check-jobs.js";
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
  const tree = await discoverContent(options.contentDir, options.cwd);
  const schemas = readSchemas(SCHEMA_DIR);
  const ajv = createAjv(schemas);
  const cache = openCache(options.cacheDir, schemas);
  const problems: Diagnostic[] = [...tree.problems];
  for (const dataset of datasets) {
    const units = tree.units.get(dataset.id) ?? [];
    const checked = await checkFiles(await brandJobs(units), { ajv, cache });
    const byFile = new Map(checked.map((c) => [c.file, c]));
    for (const file of checked) problems.push(...file.diagnostics);
    problems.push(...checkBrands(withCheckedFiles(units, byFile)));
  }
  return problems.filter((d) => written.has(d.file)).sort(compareDiagnostics);
}
