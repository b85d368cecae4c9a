/**
 * One Workers Analytics Engine data point per request: `dataPoint` turns a request's outcome into
 * the point's fields in the order contract/metrics.ts fixes, and `recordRequest` hands it to the
 * binding. Writing is fire-and-forget (writeDataPoint returns at once and is not awaited), costs
 * no KV operation, and can never change or delay the answer: without a binding nothing is written
 * or logged, and a binding that throws loses that one point.
 */
import {
  METRICS_INDEX_MAX_BYTES,
  METRICS_METHODS,
  OTHER_METHOD,
  outcomeOf,
  type MetricsDataPoint,
  type MetricsSink,
} from "../../contract/metrics.js";
import type { Outcome } from "../outcome.js";

// cf.colo is an IATA code (three letters); anything longer is not one, and is cut to this.
const COLO_MAX_LENGTH = 8;

const RECORDED_METHODS: ReadonlySet<string> = new Set(METRICS_METHODS);

/**
 * The data point of one request's outcome (worker/outcome.ts, filled in by the response path), its
 * method and the data center that answered. The arrays are written out in the order of
 * METRICS_BLOBS and METRICS_DOUBLES (test/worker/metrics/record.test.ts reads each position back
 * by its field's name): literal arrays take about a quarter of the time of filling them from the
 * lists per request (bench/results/2026-11-25-request-metrics.md).
 */
export function dataPoint(
  outcome: Readonly<Outcome>,
  method: string,
  colo: string | undefined,
): MetricsDataPoint {
  const { asked, status } = outcome;
  const target = asked.name ?? "";
  const where = colo ?? "";
  // Ids and paths from the manifest are ASCII, so characters are bytes here.
  const index = target ? `${asked.kind}:${target}` : asked.kind;
  return {
    blobs: [
      asked.kind,
      target,
      asked.detail,
      outcomeOf(status),
      outcome.coding ?? "",
      outcome.plan ?? "",
      RECORDED_METHODS.has(method) ? method : OTHER_METHOD,
      where.length > COLO_MAX_LENGTH ? where.slice(0, COLO_MAX_LENGTH) : where,
      outcome.site,
    ],
    doubles: [status, outcome.bytes, outcome.fullBytes, outcome.identityBytes],
    indexes: [
      index.length > METRICS_INDEX_MAX_BYTES ? index.slice(0, METRICS_INDEX_MAX_BYTES) : index,
    ],
  };
}

/** The data center a request reached (`request.cf.colo`), or undefined outside Cloudflare's edge. */
export function coloOf(request: Request): string | undefined {
  const colo = request.cf?.colo;
  return typeof colo === "string" ? colo : undefined;
}

/**
 * Writes one data point for `outcome` when the Worker has a metrics binding; never throws and
 * never waits. Unbound (local runs, tests, a deployment that turned metrics off): nothing at all.
 */
export function recordRequest(
  binding: MetricsSink | undefined,
  outcome: Readonly<Outcome>,
  request: Request,
): void {
  if (binding === undefined) return;
  try {
    binding.writeDataPoint(dataPoint(outcome, request.method, coloOf(request)));
  } catch {
    // A point the platform refuses (over the per-invocation limit, say) is lost, and the answer
    // goes out as it is: metrics must never stand in the response's way.
  }
}
