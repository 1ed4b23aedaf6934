import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// The slow tier: whole clusters of processes, injected engine faults, the Helm chart's rendered roles,
// Chromium's metrics, CPU-bound concurrency: cases that take minutes each. `npm test` runs every tier
// but this one (640 s on 2 cores in CI; the target is 8 minutes); `npm run test:slow` runs it, and CI runs both.
const SLOW = [
  "test/integration/cluster.test.ts",
  "test/integration/engine-outages.test.ts",
  "test/integration/helm-chart.test.ts",
  "test/integration/browser-metrics.test.ts",
  "test/integration/concurrency.test.ts",
  "test/integration/fixture-web.test.ts",
  "test/integration/operations-commands.test.ts",
  "test/integration/serve-process.test.ts",
  "test/integration/role-shutdown.test.ts",
];

// Files run at least two at a time (vitest's own default on 2 cores is one): most of a file's time
// is spent waiting on sockets, servers and timers, not on the CPU. `npm test -- --maxWorkers=1` overrides.
const workers = Math.max(2, availableParallelism());

// Test tiers (STYLE.md §15). Each has a soft time budget, printed at the end of `npm test`.
export default defineConfig({
  test: {
    reporters: ["default", "./test/harness/budget-reporter.ts"],
    maxWorkers: workers,
    minWorkers: 1,
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
          // Real servers (each file its own database, broker or browser): files run side by side.
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          exclude: SLOW,
          globalSetup: ["test/harness/global-integration.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // Real servers are shared, and the concurrency and fault cases need the cores: one file at a time.
          name: "slow",
          include: SLOW,
          globalSetup: ["test/harness/global-integration.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
