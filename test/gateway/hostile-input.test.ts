import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// What a hostile client sends through app.inject: the contract's answers, never a 500.

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { SVC_PLAN_EVERY_S: "0" } });
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

const HUGE = "10000000000000000001"; // beyond 64 bits

describe("integers beyond 64 bits", () => {
  it.each([
    ["GET", `/api/v1/jobs/${HUGE}`, undefined, "id"],
    ["DELETE", `/api/v1/keys/${HUGE}`, undefined, "id"],
    ["PATCH", `/api/v1/tasks/${HUGE}`, { status: "done" }, "id"],
    ["GET", `/api/v1/overview?project=${HUGE}`, undefined, "project"],
    ["GET", `/api/v1/changes/example.com?from=${HUGE}`, undefined, "from"],
    ["GET", "/api/v1/jobs/9007199254740992", undefined, "id"], // 2^53: no longer exact in JSON numbers
  ] as const)("%s %s answers 400 bad_param, not retryable", async (method, url, body, param) => {
    const res = await gw.call(method, url, body ? { body } : {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_param", param, retryable: false });
  });

  it("a large id that fits answers 404 not_found", async () => {
    const res = await gw.call("GET", "/api/v1/jobs/9007199254740991");
    expect([res.statusCode, res.json().code]).toEqual([404, "not_found"]);
  });

  it("a huge integer in a body is bad_param too", async () => {
    const res = await gw.call("POST", "/api/v1/sites", { body: { host: "example.com", interval: 1e19 } });
    expect(res.json()).toMatchObject({ code: "bad_param", param: "interval" });
  });
});

describe("deeply nested bodies", () => {
  const deep = (levels: number) => `{"host":${"[".repeat(levels)}${"]".repeat(levels)}}`;

  it.each([undefined, "deep-1"])("answer 400 bad_request before anything walks them (Idempotency-Key %s)", async (idem) => {
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/v1/sites",
      headers: { "x-api-key": gw.ownerKey, "content-type": "application/json", ...(idem ? { "idempotency-key": idem } : {}) },
      payload: deep(3200),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_request", error: "the JSON body is nested deeper than 32 levels", retryable: false });
  });

  it("brackets inside strings do not count", async () => {
    const res = await gw.call("POST", "/api/v1/sites", { body: { host: "[".repeat(5000) } });
    expect(res.json()).toMatchObject({ code: "bad_host" });
  });
});
