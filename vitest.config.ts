import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        // Build, tooling and end-to-end tests run in Node.
        test: {
          name: "node",
          include: [
            "test/build/**/*.test.ts",
            "test/contract/**/*.test.ts",
            "test/e2e/**/*.test.ts",
            "test/tooling/**/*.test.ts",
            "test/browser/**/*.test.ts",
          ],
          environment: "node",
          testTimeout: 30_000,
        },
      },
      {
        // Worker tests run inside workerd.
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
        },
      },
    ],
  },
});
