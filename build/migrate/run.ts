/**
 * `npm run migrate`: finds the product content files whose shapes 2.2.1 corrected (personal
 * current accounts and unsecured SME loans) and rewrites them in place (shapes.ts). All or
 * nothing: when any file holds something that cannot be rewritten without losing a value, or does
 * not parse, no file is written, so a second run after the fix starts from the same content.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { DATASETS } from "../core/datasets.js";
import { compareDiagnostics, compareStrings, type Diagnostic } from "../core/diagnostics.js";
import { displayPath } from "../core/paths.js";
import { migrateText } from "./shapes.js";

/** The record lists whose data sets have shapes to migrate. */
const MIGRATED_RECORDS = new Set(["PCA", "SMELoan"]);

export interface MigrationOptions {
  readonly contentDir: string;
  /** Folder paths in messages are relative to. */
  readonly cwd: string;
  /** Report what would change without writing. */
  readonly dryRun: boolean;
}

export interface MigrationResult {
  readonly changes: readonly Diagnostic[];
  readonly refusals: readonly Diagnostic[];
  /** Files rewritten (or, in a dry run, that would be), as printed in messages. */
  readonly files: readonly string[];
  /** Whether the files were written. */
  readonly written: boolean;
}

/** Migrates every product content file under `contentDir`. */
export async function migrateContent(options: MigrationOptions): Promise<MigrationResult> {
  const folders = DATASETS.filter((d) => d.recordsKey && MIGRATED_RECORDS.has(d.recordsKey)).map(
    (d) => d.contentDir,
  );
  const found = await fg(
    folders.map((folder) => `${folder}/**/*.{yaml,yml}`),
    { cwd: options.contentDir, onlyFiles: true, followSymbolicLinks: false },
  );
  found.sort(compareStrings);
  const changes: Diagnostic[] = [];
  const refusals: Diagnostic[] = [];
  const rewrites: { path: string; display: string; text: string }[] = [];
  for (const rel of found) {
    const path = join(options.contentDir, rel);
    const display = displayPath(options.cwd, path);
    const migrated = migrateText(display, await readFile(path, "utf8"));
    changes.push(...migrated.changes);
    refusals.push(...migrated.refusals);
    if (migrated.text !== undefined) rewrites.push({ path, display, text: migrated.text });
  }
  const write = refusals.length === 0 && !options.dryRun;
  if (write) for (const { path, text } of rewrites) await writeFile(path, text);
  return {
    changes: changes.sort(compareDiagnostics),
    refusals: refusals.sort(compareDiagnostics),
    files: rewrites.map((r) => r.display),
    written: write && rewrites.length > 0,
  };
}
