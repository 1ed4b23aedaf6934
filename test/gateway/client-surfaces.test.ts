import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { isClientCommand } from "../../bin/cli.ts";

// The spec's client surfaces beside its endpoint tables (Authentication 7-8: the tool server and
// OAuth; the command-line client's exit codes): each one works, or test/pending-operations.json
// lists it under surfaces with the issue that delivers it — and a listed one must not work yet,
// so the list shrinks as they land.

const pending = (JSON.parse(readFileSync(new URL("../pending-operations.json", import.meta.url), "utf8")) as { surfaces: { surface: string; issue: number | null }[] }).surfaces;

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const http = (method: "GET" | "POST", url: string) => async () => (await gw.call(method, url, { key: null, ...(method === "POST" ? { body: {} } : {}) })).statusCode !== 404;

const SURFACES: Record<string, () => Promise<boolean>> = {
  "POST /mcp": http("POST", "/api/v1/mcp"),
  "POST /oauth/register": http("POST", "/api/v1/oauth/register"),
  "GET /oauth/authorize": http("GET", "/api/v1/oauth/authorize"),
  "POST /oauth/token": http("POST", "/api/v1/oauth/token"),
  "POST /oauth/revoke": http("POST", "/api/v1/oauth/revoke"),
  "GET /.well-known/oauth-protected-resource": http("GET", "/.well-known/oauth-protected-resource/api/v1/mcp"),
  "GET /.well-known/oauth-authorization-server": http("GET", "/.well-known/oauth-authorization-server/api/v1"),
  "svc CLI commands": async () => isClientCommand(["sites", "list"]),
};

describe("the spec's client surfaces", () => {
  it("lists only known surfaces as pending", () => {
    expect(pending.map((p) => p.surface).filter((s) => !(s in SURFACES))).toEqual([]);
  });

  it.each(Object.keys(SURFACES))("%s works, or is pending with its issue", async (surface) => {
    const works = await (SURFACES[surface] as () => Promise<boolean>)();
    expect(works, `${surface} ${works ? "works: remove it from surfaces" : "does not work: list it in surfaces"}`).toBe(!pending.some((p) => p.surface === surface));
  });
});
