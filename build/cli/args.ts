/**
 * Command-line parsing shared by the CLIs: node's parseArgs, with a mistyped or unknown option
 * answered by the message and the usage text rather than a stack trace.
 */
import { resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * The parsed arguments, or undefined after printing what was wrong and `usage` through `stderr`:
 * the command's own output (CommandIo's), so a command run in process says it where the rest of
 * its output goes; the process's stderr by default.
 */
export function parseCommandLine<T extends Options>(
  argv: string[],
  options: T,
  usage: string,
  stderr: (text: string) => void = (text) => console.error(text),
) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    stderr(`${(error as Error).message}\n\n${usage}`);
    return undefined;
  }
}

/** The options that choose the build cache, as build, validate, diff and import take them. */
export const CACHE_OPTIONS = {
  cache: { type: "string" },
  "no-cache": { type: "boolean" },
} as const satisfies Options;

/**
 * The build cache those options chose, for the command's own build and every build it makes of
 * a past revision (the publication guard's, the diff's two sides): false for --no-cache, the
 * folder --cache names (relative to `cwd`), or undefined for the default, .cache/build/ in the
 * project.
 */
export function chosenCache(
  values: { readonly cache?: string; readonly "no-cache"?: boolean },
  cwd: string,
): string | false | undefined {
  if (values["no-cache"]) return false;
  return values.cache === undefined ? undefined : resolve(cwd, values.cache);
}
