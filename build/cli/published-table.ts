/** The table printed after a build: what was published, how big, which version. */
import type { DatasetResult } from "../pipeline.js";

/** The table: one row per data set, numbers right-aligned, the ETag shortened to 12 characters. */
export function summaryTable(results: readonly DatasetResult[]): string {
  const rows = [
    ["Data set", "Path", "Brands", "Records", "Bytes", "br", "gzip", "ETag", "LastUpdated"],
    ...results.map(({ dataset, entry }) => [
      dataset.title,
      entry.path,
      String(entry.brands),
      String(entry.totalResults),
      String(entry.variants.identity.length),
      String(entry.variants.br?.length ?? "-"),
      String(entry.variants.gzip?.length ?? "-"),
      entry.variants.identity.etag.slice(1, 13),
      entry.lastUpdated,
    ]),
  ];
  const numeric = new Set([2, 3, 4, 5, 6]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, c) => (numeric.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join("  ")
      .trimEnd();
  return [
    line(rows[0]!),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.slice(1).map(line),
  ].join("\n");
}
