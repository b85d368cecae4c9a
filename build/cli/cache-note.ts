/** The one line a build prints when it could use nothing from its cache, and why. */

/** `reason` (from the cache, or the flag that turned it off) as the line printed on stderr. */
export function cacheMissLine(reason: string): string {
  return `Build cache not used: ${reason}, so every file is checked and every data set assembled and compressed again.`;
}
