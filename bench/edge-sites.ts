/**
 * The Worker with site.yaml's Sites against without (issue 46): the same request through the
 * entry's per-request path (worker/entry.ts: servedFor, then handle), in process, runs of each
 * alternating in one run. With Sites the host is read and looked up in the isolate's map of
 * sites; without, there is no lookup. Three sites serve the synthetic set's manifest, so the
 * bytes and routes are the same and only the lookup differs.
 */
import type { Manifest } from "../contract/manifest.js";
import { MemoryAssets, MemoryKv } from "../test/fakes/platform.js";
import { systemClock } from "../worker/runtime.js";
import { entryOf, EDGE_DATASET, readVariant, type EdgeLayout } from "./edge-dataset.js";
import { rate, type Handler, type InProcessLimits } from "./edge-inprocess.js";
import { median, table } from "./report.js";
import { isolateDeps, type WorkerModules } from "./worker-modules.js";

const CLIENT = "198.51.100.9";
const GROUP_HOST = "opendata.thistlecombe-group.example";

export async function sitesBenchmark(
  modules: WorkerModules,
  layout: EdgeLayout,
  limits: InProcessLimits,
): Promise<string> {
  const files = new Map<string, Blob>();
  for (const entry of layout.manifest.datasets) {
    for (const variant of Object.values(entry.variants)) {
      files.set(variant.asset, new Blob([await readVariant(layout.distDir, variant.asset)]));
    }
  }
  const base = isolateDeps(modules, layout.manifest, {
    assets: new MemoryAssets(files, false),
    store: new MemoryKv(systemClock),
    clock: systemClock,
    vars: { OPEN_DATA_LIMIT_PER_MINUTE: "1000000000" },
  });
  const withSites: Manifest = {
    ...layout.manifest,
    datasets: [],
    documents: [],
    sites: [
      { name: "thistlecombe", host: "api.thistlecombe.example", manifest: layout.manifest },
      { name: "lynmoor", host: "api.lynmoor.example", manifest: layout.manifest },
      { name: "group", host: GROUP_HOST, manifest: layout.manifest },
    ],
  };
  const through =
    (manifest: Manifest): Handler =>
    (request) =>
      modules.handle(request, { ...base, ...modules.servedFor(selection(manifest), request) });
  const selections = new Map<Manifest, ReturnType<WorkerModules["selectionOf"]>>();
  const selection = (manifest: Manifest) => {
    let made = selections.get(manifest);
    if (!made) selections.set(manifest, (made = modules.selectionOf(manifest)));
    return made;
  };
  const entry = entryOf(layout.manifest, EDGE_DATASET);
  const etag = entry.variants.br!.etag;
  const request = (headers: Record<string, string>) =>
    new Request(`https://${GROUP_HOST}${entry.path}`, {
      headers: { [modules.clientAddressHeader]: CLIENT, "Accept-Encoding": "br", ...headers },
    });
  const cases = [
    { name: "304 (If-None-Match, br)", status: 304, request: request({ "If-None-Match": etag }) },
    { name: "200 br", status: 200, request: request({}) },
  ];
  const rows: string[][] = [];
  for (const c of cases) {
    const without: number[] = [];
    const sites: number[] = [];
    for (let run = 0; run < limits.runs; run++) {
      without.push(await rate(through(layout.manifest), c, limits));
      sites.push(await rate(through(withSites), c, limits));
    }
    const [w, s] = [median(without), median(sites)];
    rows.push([
      c.name,
      Math.round(w).toLocaleString("en"),
      Math.round(s).toLocaleString("en"),
      (s / w).toFixed(3),
      `${(1e6 / s - 1e6 / w).toFixed(2)} µs`,
    ]);
  }
  return table(
    [
      "request (the group's host)",
      "without Sites req/s",
      "with 3 Sites req/s",
      "with / without",
      "the lookup's cost per request",
    ],
    rows,
  );
}
