import { Validator } from "@seriousme/openapi-schema-validator";
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildOperations, ERROR_CATALOGUE } from "../../gateway/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";
import { checkGeneratedClient, redoclyLint } from "../harness/openapi-client.ts";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

const specErrors = JSON.parse(readFileSync(new URL("../../../shared/spec/errors.json", import.meta.url), "utf8")) as { code: string; http: number; retry: boolean }[];

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document of contract version 1.3", async () => {
    const res = await gw.call("GET", "/api/v1/openapi.json", { key: null, headers: { host: "svc.example.net" } });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.3");
    expect(doc.info["x-service-version"]).toBe("0.1.0");
    expect(doc.servers).toEqual([{ url: "http://svc.example.net/api/v1" }]);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every registered operation: id, parameters, body, responses and errors", async () => {
    const doc = (await gw.call("GET", "/api/v1/openapi.json", { key: null })).json();
    for (const op of buildOperations()) {
      const entry = doc.paths[op.path]?.[op.method.toLowerCase()];
      expect(entry, `${op.method} ${op.path}`).toBeDefined();
      expect(entry.operationId).toBe(op.id);
      expect(entry["x-mcp-tool"]).toBe(op.id);
      expect(entry["x-scope"]).toBe(op.scope);
      expect(entry.responses[String(op.status)].content["application/json"].schema).toBeDefined();
      if (op.scope !== "none") expect(Object.keys(entry.responses)).toEqual(expect.arrayContaining(["401", "403", "429", "503", "500"]));
      if (op.method === "GET") expect(entry.responses["304"]).toBeDefined();
      if (op.method !== "GET") expect(entry.parameters.map((p: { name: string }) => p.name)).toContain("Idempotency-Key");
      if (op.body) expect(entry.requestBody.content["application/json"].schema).toBeDefined();
      for (const name of Object.keys(op.params?.properties ?? {})) {
        expect(entry.parameters).toContainEqual(expect.objectContaining({ name, in: "path", required: true }));
      }
    }
    const overview = doc.paths["/overview"].get;
    expect(overview.parameters.find((p: { name: string }) => p.name === "sort").schema.enum).toEqual(["name", "rank", "delta", "crit", "tasks", "checked"]);
    const rank = overview.responses["200"].content["application/json"].schema.properties.sites.items.properties.online;
    expect(rank.anyOf).toContainEqual({ type: "null" });
    expect(doc.components.schemas.Error.properties.code.enum).toHaveLength(24);
  });
});

describe("GET /capabilities", () => {
  it("tells versions, scopes, limits, the error catalogue, endpoints, webhook events and conventions", async () => {
    const res = await gw.call("GET", "/api/v1/capabilities", { key: null, headers: { host: "svc.example.net" } });
    const c = res.json();
    expect(c.api).toEqual({ version: "1.3", base: "http://svc.example.net/api/v1", openapi: "http://svc.example.net/api/v1/openapi.json", service_version: "0.1.0" });
    expect(c.scopes.map((s: { id: string }) => s.id)).toEqual(["read", "run", "write"]);
    expect(c.limits).toMatchObject({ rate_per_hour_default: 120, page_max: 200, idempotency_ttl_s: 86400 });
    expect(c.errors).toEqual(specErrors.map((e) => ({ code: e.code, http: e.http, retry: e.retry })));
    expect(c.errors).toHaveLength(Object.keys(ERROR_CATALOGUE).length);
    expect(c.webhook_events).toEqual(["events", "uptime", "watchdog", "page", "crawl", "rank", "security", "digest"]);
    expect(Object.keys(c.conventions)).toEqual(expect.arrayContaining(["auth", "errors", "paging", "idempotency", "etag"]));
    const addSite = c.endpoints.find((e: { operation_id: string }) => e.operation_id === "add_site");
    expect(addSite).toEqual({
      operation_id: "add_site",
      method: "POST",
      path: "/sites",
      scope: "write",
      cli: "sites add",
      mcp: "add_site",
      read_only: false,
      async: false,
      destructive: false,
      idempotent: false,
      page_max: null,
      params: [],
      body: expect.objectContaining({ type: "object", required: ["host"] }),
    });
    const remove = c.endpoints.find((e: { operation_id: string }) => e.operation_id === "remove_site");
    expect(remove).toMatchObject({ destructive: true, idempotent: true, params: [{ name: "host", in: "path", required: true, schema: expect.any(Object) }] });
    expect(c.endpoints).toHaveLength(buildOperations().length);
  });
});

// Issue 15 §4: the served document as a client generator and a linter read it.
describe("the OpenAPI document as a client uses it", () => {
  it("marks as required only what the spec marks *: paging, days, sort and optional body fields are optional", async () => {
    const doc = (await gw.call("GET", "/api/v1/openapi.json", { key: null })).json();
    const paths = doc.paths as Record<string, Record<string, { parameters: { name: string; required: boolean }[]; requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>>;
    const requiredQuery = (path: string, method = "get") => paths[path]![method]!.parameters.filter((p) => p.required && (p as { in?: string }).in === "query").map((p) => p.name);
    expect(requiredQuery("/sites")).toEqual([]);
    expect(requiredQuery("/overview")).toEqual([]);
    expect(requiredQuery("/usage")).toEqual([]);
    expect(requiredQuery("/incidents")).toEqual([]);
    expect(requiredQuery("/analyze")).toEqual(["d"]);
    expect(requiredQuery("/full")).toEqual(["url"]);
    const bodyRequired = (path: string, method: string) => paths[path]![method]!.requestBody!.content["application/json"]!.schema.required ?? [];
    expect(bodyRequired("/keys", "post")).toEqual(["name", "scopes"]);
    expect(bodyRequired("/webhooks", "post")).toEqual(["url"]);
    expect(bodyRequired("/sites", "post")).toEqual(["host"]);
  });

  it("generates with openapi-typescript into a client that typechecks the README's calls", async () => {
    const doc = (await gw.call("GET", "/api/v1/openapi.json", { key: null })).json();
    const check = await checkGeneratedClient(doc);
    expect(check.generated).toContain('"/sites": {');
    expect(check.errors).toEqual([]);
  });

  it("documents the code a field's own validation answers with (schemathesis: GET /events?host=0 answered an undocumented bad_host)", async () => {
    const doc = (await gw.call("GET", "/api/v1/openapi.json", { key: null })).json();
    const res = await gw.call("GET", "/api/v1/events?host=0");
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("bad_host");
    for (const path of ["/events", "/incidents"]) {
      expect(doc.paths[path].get.responses["400"].content["application/json"].schema.allOf[1].properties.code.enum).toEqual(["bad_request", "bad_host", "bad_param"]);
    }
  });

  it("marks what any key may read as x-shared (schemathesis took bob's read of alice's /issues for a bypass)", async () => {
    const doc = (await gw.call("GET", "/api/v1/openapi.json", { key: null })).json();
    const shared = Object.values(doc.paths as Record<string, Record<string, { operationId: string; "x-shared"?: boolean }>>)
      .flatMap((item) => Object.values(item))
      .filter((op) => op["x-shared"] === true)
      .map((op) => op.operationId)
      .sort();
    // Spec, "Ownership": reports, check history and crawls by domain are shared among all users.
    expect(shared).toEqual(["get_changes", "get_crawl", "get_external_links", "get_history", "get_links", "get_report", "get_top_issues"]);
  });

  it("passes Redocly's recommended lint but for the identical paths the spec's own routes make", async () => {
    const doc = (await gw.call("GET", "/api/v1/openapi.json", { key: null })).json();
    // GET /tasks/{host} and PATCH /tasks/{id} are the spec's (docs/clients.md, "The OpenAPI
    // document", says why); Svc's own extensions make no such pair (DELETE /imports/batches/{id}).
    expect(redoclyLint(doc).errors).toEqual([
      "no-identical-paths: The path already exists which differs only by path parameter name(s): `/tasks/{host}` and `/tasks/{id}`.",
    ]);
  });
});
