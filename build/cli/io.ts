/**
 * What a command reads and writes of its process, passed in (build-run.ts, import-run.ts), so
 * tests run the commands in-process; the entries (build.ts, import.ts) pass the process's own.
 */
/** What a command reads and writes of its process: the working folder, environment and output. */
export interface CommandIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
}
