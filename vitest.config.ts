import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// The slow tier: whole clusters of processes, injected engine faults, the Helm chart's rendered roles,
// Chromium's metrics, CPU-bound concurrency: cases that take minutes each. `npm test` runs every tier
// but this one; `npm run test:slow` runs it, and CI runs both.
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

// Cases that bound the resident memory of the process they run in.
const MEMORY = ["test/hostile/image-memory.test.ts", "test/hostile/imports-bulkhead.test.ts"];

// Files run at least two at a time (vitest's own default on 2 cores is one): most of a file's time
// is spent waiting on sockets, servers and timers, not on the CPU. `npm test -- --maxWorkers=1` overrides.
const workers = Math.max(2, availableParallelism());

// Test tiers (STYLE.md §15): unit, gateway, truth, hostile, integration (test/<tier>/), memory and
// slow. Each has a soft time budget, printed at the end of `npm test` (test/harness/budget-reporter.ts).
//
// A worker process runs file after file and keeps the modules it imported (isolate: false): importing
// the source tree again for every file cost more than the unit tier's tests themselves. Files must
// therefore leave nothing behind (timers, environment, servers); vitest restores mocks between files.
// Vitest runs its projects one after another and renews the workers between them, so the tiers that
// start servers share one project ("server"): no core waits at the end of each tier for the other's
// last file. The memory cases are a project of their own so that each starts in a fresh process.
export default defineConfig({
  test: {
    reporters: ["default", "./test/harness/budget-reporter.ts"],
    maxWorkers: workers,
    minWorkers: 1,
    poolOptions: { forks: { isolate: false } },
    projects: [
      {
        test: {
          name: "unit",
          isolate: false,
          include: ["test/unit/**/*.test.ts"],
          testTimeout: 10_000,
        },
      },
      {
        test: {
          // gateway: the REST contract on an in-process gateway (a PGlite template built once).
          // truth: scenario sites whose truth is known by construction; assertions are about what the
          // user is told (alarms, incidents, events, tasks, root causes, forecasts): zero false alarms.
          // hostile: one case per hostile-client finding: the refusal, and where it is about resources, the bound.
          // integration: real servers (one PostgreSQL for the run; each file its own database, broker or browser).
          name: "server",
          isolate: false,
          include: ["test/gateway/**/*.test.ts", "test/truth/**/*.test.ts", "test/hostile/**/*.test.ts", "test/integration/**/*.test.ts"],
          exclude: [...SLOW, ...MEMORY],
          globalSetup: ["test/harness/global-gateway.ts", "test/harness/global-integration.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "memory",
          include: MEMORY,
          globalSetup: ["test/harness/global-gateway.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
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
