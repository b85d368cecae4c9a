/**
 * Checks what an import wrote with the build's own steps 1 to 3 (check/steps.ts), so an imported
 * file gets exactly the problems `npm run validate` would report, at its lines. Problems in files
 * the import did not write are left to `npm run validate`. Valid, the imported data sets then go
 * through the data-quality rules, so a bank sees its published data's weak spots on day one.
 */
import { openCache } from "../core/cache.js";
import { checkContent } from "../check/steps.js";
import type { DatasetDefinition } from "../core/datasets.js";
import { compareDiagnostics, type Diagnostic } from "../core/diagnostics.js";
import { SCHEMA_DIR } from "../core/paths.js";
import { createAjv, readSchemas } from "../check/schemas.js";
import { checkQuality, type RuleCount } from "../quality/pass.js";

export interface CheckWrittenOptions {
  readonly contentDir: string;
  readonly cwd: string;
  /** The build cache folder, or false for none; a later build then reuses these checks. */
  readonly cacheDir: string | false;
  /** Today, YYYY-MM-DD, for the data-quality rules about dates. */
  readonly today: string;
}

export interface WrittenCheck {
  /** Problems in the files written (paths as printed), sorted as the build sorts them. */
  readonly problems: Diagnostic[];
  /** When there are none: the data-quality findings of the imported data sets, and their counts. */
  readonly quality: { readonly findings: Diagnostic[]; readonly counts: readonly RuleCount[] };
}

/** Checks the imported data sets; problems are those of the files written. */
export async function checkWritten(
  datasets: readonly DatasetDefinition[],
  written: ReadonlySet<string>,
  options: CheckWrittenOptions,
): Promise<WrittenCheck> {
  const schemas = readSchemas(SCHEMA_DIR);
  const { diagnostics, units } = await checkContent({
    contentDir: options.contentDir,
    cwd: options.cwd,
    ajv: createAjv(schemas),
    cache: openCache(options.cacheDir, schemas),
    datasets,
  });
  const problems = diagnostics.filter((d) => written.has(d.file)).sort(compareDiagnostics);
  if (problems.length > 0) return { problems, quality: { findings: [], counts: [] } };
  // Every finding is told (as a warning): site.yaml's QualityErrors is for publishing, not import.
  const found = checkQuality({ units, today: options.today });
  return {
    problems,
    quality: { findings: found.warnings.sort(compareDiagnostics), counts: found.counts },
  };
}
