import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runFileName, runKind } from "../../bench/record.js";
import { PROJECT_ROOT } from "../../build/core/paths.js";

describe("a benchmark run's file under bench/results/", () => {
  const at = new Date("2026-11-29T04:05:09Z");

  it("is named by the run's UTC date and what it measured", () => {
    expect(runFileName(at, runKind([]))).toBe("2026-11-29-bench.md");
    expect(runFileName(at, runKind(["--quick"]))).toBe("2026-11-29-bench-quick.md");
    expect(runFileName(at, runKind(["--edge", "--quick"]))).toBe("2026-11-29-bench-edge-quick.md");
    expect(runFileName(at, runKind(["--runs", "5", "--preview"]))).toBe(
      "2026-11-29-bench-preview.md",
    );
  });

  it("takes the time as well when a run of that kind has the day's name, and never overwrites one", () => {
    const taken = new Set(["2026-11-29-bench.md"]);
    expect(runFileName(at, "bench", (name) => taken.has(name))).toBe("2026-11-29-0405-bench.md");
    taken.add("2026-11-29-0405-bench.md");
    expect(runFileName(at, "bench", (name) => taken.has(name))).toBe("2026-11-29-0405-bench-2.md");
  });
});

describe("BENCHMARKS.md and the runs", () => {
  it("names every run by its date", () => {
    const runs = readdirSync(join(PROJECT_ROOT, "bench", "results"));
    expect(runs.length).toBeGreaterThan(20);
    expect(runs.filter((name) => !/^\d{4}-\d{2}-\d{2}-[\w-]+\.md$/.test(name))).toEqual([]);
  });

  it("is the current table: under 200 lines, every run it names linked", () => {
    const text = readFileSync(join(PROJECT_ROOT, "BENCHMARKS.md"), "utf8");
    expect(text.split("\n").length).toBeLessThan(200);
    const linked = new Set(
      [...text.matchAll(/\]\(bench\/results\/([^)]+\.md)\)/g)].map(([, name]) => name),
    );
    const runs = readdirSync(join(PROJECT_ROOT, "bench", "results"));
    expect(runs.filter((name) => !linked.has(name))).toEqual([]);
  });
});
