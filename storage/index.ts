// storage/: the repositories and time-series ports, in rooms, each with its index; this is the one face others import.
export * from "./engine/index.ts";
export * from "./accounts/index.ts";
export * from "./sites/index.ts";
export * from "./clickhouse/index.ts";
export * from "./monitoring/index.ts";
export * from "./work/index.ts";
export * from "./search/index.ts";
export { createStore, type Repositories, type Store } from "./store.ts";
