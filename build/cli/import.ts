/** `npm run import`: see import-run.ts and docs/editing.md#importing-a-published-feed. */
import { exitAfterOutput } from "./exit.js";
import { runImport } from "./import-run.js";

runImport(process.argv.slice(2), {
  cwd: process.cwd(),
  now: () => new Date(),
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
  env: process.env,
}).then(
  (code) => exitAfterOutput(code),
  (error: unknown) => {
    console.error(`import failed: ${error instanceof Error ? error.stack : String(error)}`);
    exitAfterOutput(2);
  },
);
