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
          // Scenario sites whose truth is known by construction; assertions are about what the user
          // is told (alarms, incidents, events, tasks, root causes, forecasts): zero false alarms.
          name: "truth",
          include: ["test/truth/**/*.test.ts"],
          globalSetup: ["test/harness/global-gateway.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // One case per hostile-client finding: the refusal, and where it is about resources, the bound.
          name: "hostile",
          include: ["test/hostile/**/*.test.ts"],
          globalSetup: ["test/harness/global-gateway.ts"],
          testTimeout: 120_000,
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
