/**
 * Edge benchmarks: bytes on the wire per data set, the cost of handle()
 * in process, throughput through workerd against baselines (and nginx where installed), and KV
 * operations per request. Prints Markdown; every load goes to 127.0.0.1 only and is bounded in
 * requests and time. Figures only: nothing here passes or fails on a number.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Manifest } from "../contract/manifest.js";
import {
  buildEdgeLayout,
  buildSample,
  EDGE_DATASET,
  EDGE_SET_SIZES,
  entryOf,
  kb,
} from "./edge-dataset.js";
import { inProcessBenchmark, type InProcessLimits } from "./edge-inprocess.js";
import { kvBenchmark } from "./edge-kv.js";
import { sitesBenchmark } from "./edge-sites.js";
import { workerdBenchmark, type LoadLimits } from "./edge-workerd.js";
import { table } from "./report.js";
import { loadWorkerModules } from "./worker-modules.js";

/** Far above any rate on this machine's loopback: the request cap only stops a runaway run. */
const MAX_REQUESTS_PER_SECOND = 200_000;
/** Connections of every load test. */
const CONNECTIONS = 10;

function limits(quick: boolean): { inProcess: InProcessLimits; load: LoadLimits } {
  const [runs, inProcessMs, loadSeconds] = quick ? [3, 500, 5] : [5, 1000, 10];
  return {
    inProcess: { runs, maxMs: inProcessMs, maxRequests: 1_000_000 },
    load: {
      runs,
      seconds: loadSeconds,
      connections: CONNECTIONS,
      maxRequests: loadSeconds * MAX_REQUESTS_PER_SECOND,
    },
  };
}

function bytesTable(manifest: Manifest): string {
  const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
  return table(
    ["data set", "records", "identity", "gzip", "brotli", "gzip / identity", "brotli / identity"],
    manifest.datasets.map((d) => {
      const identity = d.variants.identity.length;
      const gzip = d.variants.gzip?.length ?? identity;
      const br = d.variants.br?.length ?? identity;
      return [
        d.dataset,
        d.totalResults.toLocaleString("en"),
        identity.toLocaleString("en"),
        gzip.toLocaleString("en"),
        br.toLocaleString("en"),
        percent(gzip, identity),
        percent(br, identity),
      ];
    }),
  );
}

const progress = (message: string) => process.stderr.write(`edge: ${message}\n`);

export async function edgeBenchmarks(options: { quick: boolean }): Promise<string> {
  const { inProcess, load } = limits(options.quick);
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-bench-edge-"));
  try {
    progress("building the sample and the synthetic set");
    const sample = await buildSample(root);
    const layout = await buildEdgeLayout(join(root, "edge"));
    const modules = await loadWorkerModules(join(root, "node"));
    const served = entryOf(layout.manifest, EDGE_DATASET);
    const s = EDGE_SET_SIZES;
    const setName = `synthetic set (${s.branches} branches, ${s.atms.toLocaleString("en")} ATMs, ${s.products} PCA, ${s.metricsBrands} metrics brand)`;
    const out: string[] = [];
    out.push("### Bytes on the wire (bytes per response body)");
    out.push(`Sample content (content/):\n\n${bytesTable(sample.manifest)}`);
    out.push(`The ${setName}:\n\n${bytesTable(layout.manifest)}`);

    progress("handle() in process");
    out.push(
      `### In process: handle() against a null handler (${EDGE_DATASET} of the synthetic set)`,
    );
    out.push(
      `Node ${process.version}, in-memory ASSETS and KV, one client far below its limit (429: a limit of 1); median of ${inProcess.runs} runs of at most ${inProcess.maxMs} ms each. The null handler returns a new Response of the same status and body; our cost per request is 1 / ours − 1 / null. Bodies are cancelled unread by both. Request, Response and Headers are Node's here, not workerd's: the figures weigh our JavaScript, not the runtime.`,
    );
    out.push(await inProcessBenchmark(modules, layout, inProcess));

    progress("the Worker with Sites against without, in process");
    out.push(
      `### In process: the Worker with site.yaml's Sites against without (${EDGE_DATASET} of the synthetic set)`,
    );
    out.push(
      `The entry's per-request path (servedFor, then handle()), median of ${inProcess.runs} runs of each, alternating; three sites serving the same manifest, so only the host's lookup differs (issue 46: within 3%).`,
    );
    out.push(await sitesBenchmark(modules, layout, inProcess));

    progress("KV operations (simulated time)");
    out.push("### KV operations per 1,000 requests (one isolate, in process, default limits)");
    out.push(
      "Lookups served from the isolate: of the two pieces of shared state each request needs (the maintenance flag and its client's count), the share answered from isolate memory, 1 - KV reads / (2 × requests). No request waits for KV except an isolate's first, which reads the flag.",
    );
    out.push(await kvBenchmark(modules, layout));

    progress(`through workerd (${load.runs} × ${load.seconds} s per row)`);
    out.push(
      `### Through workerd: ${EDGE_DATASET} of the synthetic set (identity ${kb(served.variants.identity.length)}, br ${kb(served.variants.br!.length)})`,
    );
    out.push(await workerdBenchmark(layout, load));
    return out.join("\n\n");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
