/** `npm run build` and `npm run validate`: see build-run.ts, which this runs in the process. */
import { exitAfterOutput } from "./exit.js";
import { runBuildCommand } from "./build-run.js";

runBuildCommand(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
}).then(
  (code) => exitAfterOutput(code),
  (error: unknown) => {
    console.error(`build failed: ${error instanceof Error ? error.stack : String(error)}`);
    exitAfterOutput(2);
  },
);
