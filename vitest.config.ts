import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
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
