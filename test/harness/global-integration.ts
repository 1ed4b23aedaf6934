import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** Integration tier: real servers, started once; each test file makes its own database. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const pg = await startPostgres();
  project.provide("postgresUrl", pg.url);
  process.stderr.write(`[harness] PostgreSQL on 127.0.0.1:${pg.port} in ${Date.now() - started} ms\n`);
  return async () => pg.stop();
}
