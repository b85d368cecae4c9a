import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { useMemoryScratch } from "./test/helpers/scratch.js";
import { wranglerNoiseFilter } from "./test/helpers/wrangler-noise.js";

// The tests' scratch folders on a memory file system where there is one (test/helpers/scratch.ts).
useMemoryScratch();

export default defineConfig({
  test: {
    // A false build failure wrangler prints when a test's Worker stops, and the pointer to its log
    // file that this makes it print on exit (test/helpers/wrangler-noise.ts): dropped. Anything
    // else the tests print is shown.
    onConsoleLog: wranglerNoiseFilter(),
    // Two test files at a time, whatever the cores: much of the suite waits on child processes,
    // a Worker or a browser, and vitest's default on a 2-core machine is one file at a time.
    maxWorkers: 2,
    projects: [
      {
        // Every test outside test/worker/ runs in Node: the build, the contract, the schemas, the
        // project as a whole, end to end through a real Worker, and in a browser.
        test: {
          name: "node",
          include: ["test/**/*.test.ts"],
          exclude: ["test/worker/**", "**/node_modules/**"],
          environment: "node",
          testTimeout: 30_000,
          // Builds the sample content once for the run (test/helpers/global-setup.ts).
          globalSetup: ["test/helpers/global-setup.ts"],
          // As npm run build and npm start run the build: a larger young generation, so the
          // builds the tests make spend less in the collector (test/build: 123 → 116 CPU-s).
          execArgv: ["--max-semi-space-size=64"],
          // The files a worker runs share one module graph: the build's modules, its compiled
          // schemas and wrangler are loaded once per worker, not once per file. So a test that
          // changes module state puts it back (test/build/core/datasets.test.ts adds a data set
          // to DATASETS in beforeAll and takes it out in afterAll).
          isolate: false,
        },
      },
      {
        // Worker tests run inside workerd.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            // The secret a deployment has: without it the entry logs, for each test that reaches
            // it, that it made a key of its own (tests of that pass their own env).
            miniflare: { bindings: { RATE_LIMIT_KEY: "worker-tests-".repeat(4) } },
          }),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          // One workerd and one module graph for every file, not one of each per file: the files
          // are many and small (0.1 s of tests each against about 1 s to start a runtime), and
          // none depends on storage another left behind (only index.test.ts touches the bound KV).
          isolate: false,
        },
      },
    ],
  },
});
