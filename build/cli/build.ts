/** `npm run build` and `npm run validate`: see build-run.ts, which this runs in the process. */
import { exitAfterOutput } from "./exit.js";
import { internalErrorLine, runBuildCommand } from "./build-run.js";

runBuildCommand(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
}).then(
  (code) => exitAfterOutput(code),
  (error: unknown) => {
    // runBuildCommand tells its own faults in one line; this is only what escapes even that.
    console.error(internalErrorLine(error));
    exitAfterOutput(2);
  },
);
