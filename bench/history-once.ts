/**
 * One build of a content folder in a git repository, in a fresh process, with or without the
 * history step (build/history/): prints a JSON line with the wall time, whether it succeeded, and
 * the bytes each data set's change answers add (per coding) and the manifest's size.
 * Arguments: <content dir> <out dir> <cache dir | "none"> <"history" | "none">
 */
import { runBuild } from "../build/pipeline.js";
import { PUBLISH } from "../build/profiles.js";

const [contentDir, outDir, cacheDir, history] = process.argv.slice(2);
if (!contentDir || !outDir || !cacheDir || !history) {
  console.error("usage: history-once <content> <out> <cache|none> <history|none>");
  process.exit(2);
}
const start = performance.now();
const result = await runBuild({
  contentDir,
  outDir,
  cwd: contentDir,
  cacheDir: cacheDir === "none" ? false : cacheDir,
  profile: { ...PUBLISH, history: history === "history" },
});
const wallMs = performance.now() - start;
if (!result.ok) {
  console.log(JSON.stringify({ ok: false, problems: result.diagnostics.slice(0, 3), wallMs }));
  process.exit(1);
}
const changes: Record<string, { answers: number; identity: number; br: number; gzip: number }> = {};
for (const entry of result.manifest.changes ?? []) {
  const sum = (coding: "identity" | "br" | "gzip") =>
    entry.answers.reduce((n, a) => n + (a.variants[coding]?.length ?? 0), 0);
  changes[entry.dataset] = {
    answers: entry.answers.length,
    identity: sum("identity"),
    br: sum("br"),
    gzip: sum("gzip"),
  };
}
const manifest = result.files.find((f) => f.path === "manifest.json");
console.log(
  JSON.stringify({
    ok: true,
    wallMs,
    changes,
    bodies: Object.fromEntries(
      result.datasets.map((d) => [d.dataset.id, d.encoded.identity.bytes.length]),
    ),
    manifestBytes: manifest ? Buffer.byteLength(manifest.bytes) : 0,
    note: result.historyNote ?? null,
  }),
);
