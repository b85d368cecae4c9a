/**
 * `npm run import` of a large published ATM feed (one brand, 10,000 ATMs of the synthetic set),
 * whole and split by town, each run a fresh process as an editor runs it: read the JSON, write the
 * YAML, then check what was written as `npm run validate` does (no build cache, so every file is
 * parsed and validated).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { atm, random } from "./generate.js";
import { median, table } from "./report.js";

const run = promisify(execFile);
const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "build", "cli", "import.js");
const SPLIT_FIELD = "Location.PostalAddress.TownName";

async function folderBytes(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}

export async function importBenchmarks(options: { quick: boolean; runs: number }): Promise<string> {
  const records = options.quick ? 2_000 : 10_000;
  const root = await mkdtemp(join(tmpdir(), "opendata-edge-import-bench-"));
  try {
    const rnd = random(7);
    const feed = {
      meta: { LastUpdated: "2026-11-01T00:00:00Z", TotalResults: records },
      data: [
        {
          Brand: [
            {
              BrandName: "Synthetic Brand 0",
              ATM: Array.from({ length: records }, (_, n) => atm(n, rnd)),
            },
          ],
        },
      ],
    };
    const feedFile = join(root, "atms.json");
    const feedText = JSON.stringify(feed);
    await writeFile(feedFile, feedText);
    const content = join(root, "content");
    const rows: (string | number)[][] = [];
    for (const split of [false, true]) {
      const times: number[] = [];
      let written = { files: 0, bytes: 0 };
      for (let i = 0; i < options.runs; i++) {
        await rm(content, { recursive: true, force: true });
        const args = [
          "--content",
          content,
          "--no-cache",
          ...(split ? ["--split-by", SPLIT_FIELD] : []),
          feedFile,
        ];
        process.stderr.write(
          `  import ${records} ATMs${split ? " split by town" : ""}, run ${i + 1}\n`,
        );
        const start = performance.now();
        await run(process.execPath, ["--max-semi-space-size=64", CLI, ...args], { cwd: root });
        times.push(performance.now() - start);
        written = await folderBytes(join(content, "atms"));
      }
      rows.push([
        split ? `split by ${SPLIT_FIELD}` : "whole (one file)",
        records.toLocaleString("en-GB"),
        (feedText.length / 1e6).toFixed(1),
        written.files,
        (written.bytes / 1e6).toFixed(1),
        options.runs,
        `${(median(times) / 1000).toFixed(2)} s`,
        `${(Math.min(...times) / 1000).toFixed(2)} s`,
        `${(Math.max(...times) / 1000).toFixed(2)} s`,
      ]);
    }
    return table(
      [
        "import",
        "ATMs",
        "feed MB (compact JSON)",
        "files written",
        "YAML MB",
        "runs",
        "median",
        "min",
        "max",
      ],
      rows,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
