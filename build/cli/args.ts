/**
 * Command-line parsing shared by the CLIs: node's parseArgs, with a mistyped or unknown option
 * answered by the message and the usage text rather than a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** The parsed arguments, or undefined after printing what was wrong and `usage` to stderr. */
export function parseCommandLine<T extends Options>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return undefined;
  }
}
