/** `npm run verify -- <base URL>`: see verify-run.ts and docs/operations.md#checking-a-deployment. */
import { exitAfterOutput } from "./exit.js";
import { runVerify } from "./verify-run.js";

runVerify(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
}).then(
  (code) => exitAfterOutput(code),
  (error: unknown) => {
    console.error(`verify failed: ${error instanceof Error ? error.stack : String(error)}`);
    exitAfterOutput(2);
  },
);
