/**
 * A fault of the build itself, not of the content: content problems are Diagnostics, each at its
 * file and line, and end a run with exit 1. Anything else that throws inside a step is wrapped, at
 * the pipeline's boundaries (a file's check, a data set's step, a document), into one
 * InternalError saying what the build was working on, so `npm run build` prints one line naming
 * the file, data set or document, and exits 2 (cli/build-run.ts), never a bare stack trace.
 */

/** What the build was working on, innermost first when boundaries nest (a site, then a step). */
export class InternalError extends Error {
  override readonly name = "InternalError";

  constructor(
    /** Each boundary it crossed, innermost first: "step 2 (check) of content/atms/x.yaml", "site tb". */
    readonly where: readonly string[],
    override readonly cause: unknown,
  ) {
    super(`internal error in ${where.join("; in ")}: ${causeText(cause)}`);
  }

  /** The same fault, with the boundary around the one it was found in. */
  within(outer: string): InternalError {
    return new InternalError([...this.where, outer], this.cause);
  }
}

/** The first line of what was thrown: an Error's message, or the value as text. */
function causeText(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  return text.split("\n", 1)[0]!;
}

/** `work`'s result; what it throws comes back as an InternalError naming `where`. */
export async function within<T>(where: string, work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw wrapped(where, error);
  }
}

/** `within` for work that does not wait. */
export function withinSync<T>(where: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw wrapped(where, error);
  }
}

function wrapped(where: string, error: unknown): InternalError {
  return error instanceof InternalError ? error.within(where) : new InternalError([where], error);
}
