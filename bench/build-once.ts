/**
 * One build in a fresh process, for the benchmarks: prints a JSON line with the wall time, the
 * time of each step, the CPU time (worker threads included), peak memory (resident set size, worker threads included) and whether it
 * succeeded. Arguments: <content dir> <out dir> <cache dir | "none"> [threads]
 */
import { runBuild } from "../build/pipeline.js";

const [contentDir, outDir, cacheDir, threads] = process.argv.slice(2);
if (!contentDir || !outDir || !cacheDir) {
  console.error("usage: build-once <content> <out> <cache|none> [threads]");
  process.exit(2);
}
const start = performance.now();
const result = await runBuild({
  contentDir,
  outDir,
  cwd: contentDir,
  cacheDir: cacheDir === "none" ? false : cacheDir,
  threads: threads ? Number(threads) : undefined,
  // Set L's 50,000 ATMs make a body of about 27 MB, over Cloudflare's 25 MiB per asset file, which
  // the build rightly refuses (a publisher that size splits brands across deployments). The
  // benchmark measures the build at that size, not a deployable output, so it lifts the limits.
  limits: { maxFileBytes: Number.POSITIVE_INFINITY, maxFiles: Number.POSITIVE_INFINITY },
  env: { SOURCE_DATE_EPOCH: "1790000000" },
});
const wallMs = performance.now() - start;
console.log(
  JSON.stringify({
    ok: result.ok,
    problems: result.diagnostics.length,
    wallMs,
    timings: result.timings,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    bytes: Object.fromEntries(
      (result.ok ? result.datasets : []).map((d) => [
        d.dataset.id,
        {
          identity: d.encoded.identity.bytes.length,
          br: d.encoded.br.bytes.length,
          gzip: d.encoded.gzip.bytes.length,
        },
      ]),
    ),
  }),
);
