#!/usr/bin/env node
// Runs the project's pinned wrangler with the settings that keep it offline: no metrics, no
// version check, no fetch of the `cf` object (see docs/operations.md#offline-by-default). A value the
// caller already exported wins, so a deployer can still opt in to any of them.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

const OFFLINE = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};

const bin = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");
const child = spawn(process.execPath, [bin, ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...OFFLINE, ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
