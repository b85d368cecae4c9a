/**
 * Dates as the published data writes them: RFC 3339 in UTC, to the whole second (meta.LastUpdated,
 * and the date an import records), since HTTP dates have one-second resolution anyway.
 */

/** RFC 3339 date-time in UTC with whole seconds, to the whole second. */
export function toRfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The same for a moment given as a Date (its milliseconds dropped). */
export function dateToRfc3339(date: Date): string {
  return toRfc3339(Math.floor(date.getTime() / 1000));
}

type LastUpdatedSource = "git" | "git+worktree" | "SOURCE_DATE_EPOCH" | "mtime";

/**
 * When a data set's content last changed, its meta.LastUpdated, and what told it: found by
 * assemble/last-updated.ts (and history/dating.ts in git), kept with the body it dates.
 */
export interface LastUpdated {
  /** Seconds since the epoch. */
  readonly seconds: number;
  readonly source: LastUpdatedSource;
}
