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

const port = process.env.PORT || "8787";
if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
  console.error(`PORT must be a port number, not ${JSON.stringify(port)}`);
  process.exit(2);
}

const serve = new URL("../.out/build/preview/serve.js", import.meta.url);
const { startPreview } = await import(serve.href);
const preview = await startPreview({
  port: Number(port),
  persist: fileURLToPath(new URL("../.wrangler/state", import.meta.url)),
});
console.error("Edit the files under content/: the page in the browser follows. Ctrl+C stops.");
// This process's signals are the preview's: wrangler (and miniflare under it) listen for them too
// and exit at once, before the preview has closed (written its last good build and cache
// entries, removed its temporary folder). Closing disposes of wrangler's Worker through its own
// API. Then the process ends when what is left has settled (miniflare removes its temporary
// folder without waiting for it), or after a moment if anything still holds it.
const SETTLE_MS = 2000;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.removeAllListeners(signal);
  process.once(signal, () => {
    preview.close().then(
      () => settle(0),
      (error) => {
        console.error(error);
        settle(1);
      },
    );
  });
}

function settle(code) {
  process.exitCode = code;
  setTimeout(() => process.exit(code), SETTLE_MS).unref();
}
