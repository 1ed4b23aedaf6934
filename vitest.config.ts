import { defineConfig } from "vitest/config";

// Test tiers (STYLE.md §15). Each has a soft time budget, printed at the end of `npm test`.
export default defineConfig({
  test: {
    reporters: ["default", "./test/harness/budget-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: "gateway",
          include: ["test/gateway/**/*.test.ts"],
          globalSetup: ["test/harness/global-gateway.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          globalSetup: ["test/harness/global-integration.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Real servers are shared, and the concurrency tests need the cores: one file at a time.
          pool: "forks",
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
