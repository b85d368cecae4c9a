import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { readLimits } from "../../../build/documents/plan-limits.js";

describe("the rate limits the documents state", () => {
  it("come from wrangler.toml's [vars], so a changed limit is what consumers read", async () => {
    const folder = await mkdtemp(join(tmpdir(), "opendata-edge-limits-"));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    const toml = join(folder, "wrangler.toml");
    await writeFile(
      toml,
      '[vars]\nOPEN_DATA_LIMIT_PER_MINUTE = "60"\nSERVICE_METRICS_LIMIT_PER_MINUTE = "300"\n',
    );
    const limits = readLimits(toml);
    expect(limits["open-data"]).toEqual({ plan: "open-data", limit: 60, windowSeconds: 60 });
    expect(limits["service-metrics"]).toEqual({
      plan: "service-metrics",
      limit: 300,
      windowSeconds: 60,
    });
  });
});
