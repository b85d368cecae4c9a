#!/usr/bin/env node
// `npm start`: the live preview (build/preview/serve.ts). Builds content/, serves it with the
// Worker in workerd on http://127.0.0.1:$PORT (8787 by default), local KV under .wrangler/state,
// and rebuilds on every save under content/. Content with problems starts it all the same: the
// page shows them, and the APIs serve the last good build in dist/ (or 503 when there is none)
// until a save builds. Nothing leaves the machine: this process runs wrangler in itself, so it
// sets what scripts/wrangler.mjs sets for its child (a value already exported wins), before
// wrangler is loaded.
import { fileURLToPath } from "node:url";

process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
process.env.WRANGLER_HIDE_BANNER ??= "true";
// Nor wrangler's local explorer (a page for inspecting bindings, on by default): 380 kB more
// JavaScript for workerd to load on every start (bench/results/2026-11-28-loading-wrangler.md,
// "wrangler's local explorer").
process.env.X_LOCAL_EXPLORER ??= "false";

const port = process.env.PORT || "8787";
if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
  console.error(`PORT must be a port number, not ${JSON.stringify(port)}`);
  process.exit(2);
}

// workerd's report of a browser dropping a connection (a kj `Broken pipe` ERROR with a native
// stack) is no error of the preview's: left out of the terminal (build/preview/workerd-noise.ts).
const noise = new URL("../.out/build/preview/workerd-noise.js", import.meta.url);
const { withoutDisconnectNoise } = await import(noise.href);
console.error = withoutDisconnectNoise(console.error.bind(console));

const serve = new URL("../.out/build/preview/serve.js", import.meta.url);
const { startPreview } = await import(serve.href);
const preview = await startPreview({
  port: Number(port),
  persist: fileURLToPath(new URL("../.wrangler/state", import.meta.url)),
});
console.error("Edit the files under content/: the page in the browser follows. Ctrl+C stops.");
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    preview.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
