import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// DESIGN.md "Contracts apart from handlers": the operation contracts load without the server, so
// the CLI, the MCP tool list and a typed client can read them. Loading is observed for real, in a
// fresh Node process, by a resolve hook that records every module URL.

const ROOT = new URL("../../", import.meta.url);
const SCRIPT = fileURLToPath(new URL("../harness/loaded-modules.ts", import.meta.url));

async function modulesLoadedBy(path: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", SCRIPT, fileURLToPath(new URL(path, ROOT))], { cwd: fileURLToPath(ROOT) });
  return JSON.parse(stdout) as string[];
}

/** What a contract must never pull in, with a test of a module URL. */
const SERVER_MODULES: Record<string, (url: string) => boolean> = {
  fastify: (url) => url.includes("/node_modules/fastify/"),
  pg: (url) => url.includes("/node_modules/pg/"),
  "@electric-sql/pglite": (url) => url.includes("/node_modules/@electric-sql/pglite/"),
  kafkajs: (url) => url.includes("/node_modules/kafkajs/"),
  "storage/": (url) => url.startsWith(new URL("storage/", ROOT).href),
};

function serverModulesIn(urls: readonly string[]): string[] {
  return Object.entries(SERVER_MODULES)
    .filter(([, matches]) => urls.some(matches))
    .map(([name]) => name);
}

describe("the operation contracts load alone", () => {
  it("gateway/contracts loads no server module: no fastify, pg, pglite, kafkajs or storage/", async () => {
    const loaded = await modulesLoadedBy("gateway/contracts/index.ts");
    expect(loaded).toContain(new URL("gateway/contracts/index.ts", ROOT).href);
    expect(loaded).toContain(new URL("gateway/contracts/service.ts", ROOT).href);
    expect(serverModulesIn(loaded)).toEqual([]);
  }, 30_000);

  it("the typed client and the CLI's commands load no server module either", async () => {
    for (const entry of ["gateway/client/index.ts", "bin/cli.ts"]) {
      const loaded = await modulesLoadedBy(entry);
      expect(loaded).toContain(new URL("gateway/contracts/index.ts", ROOT).href);
      expect(serverModulesIn(loaded), entry).toEqual([]);
    }
  }, 30_000);

  it("the same probe sees every server module when the composition root loads", async () => {
    // Holds the probe itself: were it blind, the test above would pass whatever a contract imports.
    const loaded = await modulesLoadedBy("bin/compose.ts");
    expect(serverModulesIn(loaded)).toEqual(Object.keys(SERVER_MODULES));
  }, 30_000);
});
