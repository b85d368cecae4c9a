/**
 * A stand-in for a Workers Analytics Engine dataset binding, for the Worker's tests (inside
 * workerd) and the in-process benchmarks (in Node): it keeps every data point written, or throws
 * on each write as a refusing binding would. Plain JavaScript, so it runs in both runtimes.
 */
import type { MetricsDataPoint, MetricsSink } from "../../contract/metrics.js";

export class FakeAnalyticsEngine implements MetricsSink {
  readonly points: MetricsDataPoint[] = [];
  /** Writes that threw (with failing set). */
  refused = 0;

  constructor(private readonly failing = false) {}

  writeDataPoint(point: MetricsDataPoint): void {
    if (this.failing) {
      this.refused += 1;
      throw new Error("writeDataPoint: the binding refused the point");
    }
    this.points.push(point);
  }
}
