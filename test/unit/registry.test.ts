import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildOperations } from "../../gateway/index.ts";

interface SpecOperation {
  section: string;
  method: string;
  path: string;
  scope: string;
  tool: string;
}

const spec = JSON.parse(readFileSync(new URL("../../../shared/spec/operations.json", import.meta.url), "utf8")) as SpecOperation[];
const pendingFile = JSON.parse(readFileSync(new URL("../pending-operations.json", import.meta.url), "utf8")) as {
  pending: { tool: string; method: string; path: string; issue: number | null }[];
};
// Lower this as operations land; it must never go up (the pending list may only shrink).
const PENDING_MAX = 35;

const operations = buildOperations();
const specByTool = new Map(spec.map((o) => [o.tool, o]));

describe("the operation registry against the spec's endpoint tables", () => {
  it("registers every spec operation with the spec's method, path, scope and tool name", () => {
    const mismatches: string[] = [];
    for (const op of operations.filter((o) => !o.additive)) {
      const s = specByTool.get(op.id);
      if (!s) {
        mismatches.push(`${op.id}: not a tool of the spec (mark it additive if Svc adds it)`);
        continue;
      }
      // The spec writes "read; run when the utility has net true" for scope rules.
      const specScope = s.scope.split(";")[0]?.trim();
      if (op.method !== s.method) mismatches.push(`${op.id}: method ${op.method} ≠ ${s.method}`);
      if (op.path !== s.path) mismatches.push(`${op.id}: path ${op.path} ≠ ${s.path}`);
      if (op.scope !== specScope) mismatches.push(`${op.id}: scope ${op.scope} ≠ ${specScope}`);
      if (op.mcp !== s.tool) mismatches.push(`${op.id}: MCP tool ${op.mcp} ≠ ${s.tool}`);
    }
    expect(mismatches).toEqual([]);
  });

  it("accounts for every spec operation: registered, or pending with the issue that delivers it", () => {
    const registered = new Set(operations.map((o) => o.id));
    const pending = new Set(pendingFile.pending.map((p) => p.tool));
    const unaccounted = spec.filter((s) => !registered.has(s.tool) && !pending.has(s.tool)).map((s) => s.tool);
    expect(unaccounted).toEqual([]);
    const bothWays = [...pending].filter((t) => registered.has(t));
    expect(bothWays, "registered operations must leave the pending list").toEqual([]);
    const unknown = [...pending].filter((t) => !specByTool.has(t));
    expect(unknown).toEqual([]);
    for (const p of pendingFile.pending) {
      const s = specByTool.get(p.tool);
      expect([p.method, p.path]).toEqual([s?.method, s?.path]);
    }
    expect(pendingFile.pending.length).toBeLessThanOrEqual(PENDING_MAX);
  });

  it("gives every operation a unique id, route, CLI command and the spec's flags", () => {
    const ids = operations.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = operations.map((o) => `${o.method} ${o.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    const clis = operations.map((o) => o.cli);
    expect(new Set(clis).size).toBe(clis.length);
    for (const op of operations) {
      expect(op.readOnly, op.id).toBe(op.method === "GET");
      expect(op.destructive, op.id).toBe(op.method === "DELETE");
      expect(op.idempotent, op.id).toBe(["GET", "PUT", "DELETE"].includes(op.method));
      expect(op.mcp, op.id).toBe(op.id);
    }
  });

  it("carries the spec's page maxima", () => {
    for (const op of operations) {
      const limit = op.query?.properties?.limit as { maximum?: number } | undefined;
      if (!limit) continue;
      const expected = ["list_jobs", "get_market", "list_webhook_deliveries"].includes(op.id) ? 100 : op.id === "get_keyword_gap" ? 500 : 200;
      expect(limit.maximum, op.id).toBe(expected);
      expect(op.pageMax, op.id).toBe(expected);
    }
  });
});
