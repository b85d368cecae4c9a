/** The one line a build prints when it could use nothing from its cache, and why. */

/**
 * `reason` (from the cache, or the flag that turned it off) as the line printed on stderr, for
 * `build` (and the preview's rebuilds) or `validate`, which compresses nothing.
 */
export function cacheMissLine(reason: string, command: "build" | "validate" = "build"): string {
  const redone =
    command === "build" ? "every data set assembled and compressed" : "every data set assembled";
  return `Build cache not used: ${reason}, so every file is checked and ${redone} again.`;
}
