/** `npm run stats`: see stats-run.ts and docs/operations.md#request-metrics. */
import { exitAfterOutput } from "./exit.js";
import { runStats } from "./stats-run.js";

runStats(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
}).then(
  (code) => exitAfterOutput(code),
  (error: unknown) => {
    console.error(`stats failed: ${error instanceof Error ? error.stack : String(error)}`);
    exitAfterOutput(2);
  },
);
