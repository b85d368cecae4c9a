/**
 * How every CLI ends. `process.exit` ends the process at once, and on a pipe (every CI log)
 * Node writes stdout and stderr asynchronously, so what is still queued is lost: a run printed a
 * different share of its lines each time. So each CLI ends here: the exit code is set, and the
 * process exits only once both streams have handed everything queued before to the system.
 */

/** Ends the process with `code` after stdout and stderr have flushed what was written to them. */
export function exitAfterOutput(code: number): void {
  process.exitCode = code;
  let open = 2;
  // A write's callback runs once it and every write queued before it are done (or have failed,
  // as on a reader that went away), so an empty write marks the end of what was printed.
  const flushed = () => {
    open -= 1;
    if (open === 0) process.exit(code);
  };
  process.stdout.write("", flushed);
  process.stderr.write("", flushed);
}
