#!/usr/bin/env node
// `npm start` after the build: serves the Worker and dist/ with workerd on http://127.0.0.1:$PORT
// (8787 by default), local KV under .wrangler/state, through scripts/wrangler.mjs so nothing
// leaves the machine.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const port = process.env.PORT || "8787";
if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
  console.error(`PORT must be a port number, not ${JSON.stringify(port)}`);
  process.exit(2);
}

const wrangler = fileURLToPath(new URL("./wrangler.mjs", import.meta.url));
const args = ["dev", "--ip", "127.0.0.1", "--port", port, "--show-interactive-dev-session=false"];
const child = spawn(process.execPath, [wrangler, ...args, ...process.argv.slice(2)], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
