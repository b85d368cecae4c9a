/**
 * Baseline Worker for the edge benchmarks: hands the request to the static-assets binding and
 * returns what it answers, nothing else. Served with the same assets and runtime as ours, so the
 * difference in throughput is what our Worker does on top of reading the file.
 */
interface Env {
  readonly ASSETS: { fetch(request: Request): Promise<Response> };
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return env.ASSETS.fetch(request);
  },
};
