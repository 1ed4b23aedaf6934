import { Gauge, Histogram, type Registry } from "prom-client";

/** One timed write: where it went (a bounded set, see storage/engine/write-timing.ts), how long it took, whether it landed. */
export type StoreWriteObserver = (engine: "postgres" | "pglite" | "clickhouse", target: string, seconds: number, ok: boolean) => void;

/**
 * `svc_store_write_duration_seconds{engine,target,outcome}` on the roles that hold the store
 * (gateway, scheduler, serve): account-database transactions and ClickHouse inserts.
 */
export function storeWriteMetrics(registry: Registry): StoreWriteObserver {
  const histogram = new Histogram({
    name: "svc_store_write_duration_seconds",
    help: "Duration of the store's writes: account-database transactions (target transaction) and ClickHouse inserts (target: the table), by outcome (ok, error).",
    labelNames: ["engine", "target", "outcome"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return (engine, target, seconds, ok) => histogram.observe({ engine, target, outcome: ok ? "ok" : "error" }, seconds);
}

/**
 * `svc_store_wasm_heap_bytes` on `svc serve` and the embedded roles: the size of PGlite's WASM heap
 * (read at each scrape). A WebAssembly memory only grows, so this is memory the process keeps.
 */
export function storeWasmHeapMetric(registry: Registry, bytes: () => number): void {
  new Gauge({
    name: "svc_store_wasm_heap_bytes",
    help: "Size of the embedded store's (PGlite's) WASM heap in bytes; it never shrinks.",
    registers: [registry],
    collect() {
      this.set(bytes());
    },
  });
}

/**
 * `svc_store_engine_up{engine}` on the roles that hold the store: 1 while the engine answers this
 * process's calls, 0 from the first call it did not answer until the next it does (what the
 * SvcStoreEngineDown alert names). Returns the setter.
 */
export function storeEngineMetric(registry: Registry, engines: readonly string[]): (engine: string, up: boolean) => void {
  const gauge = new Gauge({
    name: "svc_store_engine_up",
    help: "1 while the store's engine (postgres, clickhouse) answers this process's calls, 0 during an outage.",
    labelNames: ["engine"],
    registers: [registry],
  });
  for (const engine of engines) gauge.set({ engine }, 1);
  return (engine, up) => gauge.set({ engine }, up ? 1 : 0);
}
