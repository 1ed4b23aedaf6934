import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

// Reports are shared by every key, but which hosts other accounts monitor is theirs: a host
// someone added and nobody analysed must answer exactly like a host nobody ever heard of.

let gw: TestGateway;
beforeAll(async () => {
  // No periodic checks: the added site stays unanalysed.
  gw = await startTestGateway({ env: { SVC_PLAN_EVERY_S: "0" } });
});
afterAll(() => gw.close());
afterEach(() => expect(gw.violations).toEqual([]));

const READS = ["/site/{h}", "/report/{h}", "/history/{h}", "/changes/{h}", "/issues/{h}"];

describe("a host only another account monitors", () => {
  it("looks like a host nobody added, on every shared read", async () => {
    expect((await gw.call("POST", "/api/v1/sites", { body: { host: "monitored-by-a.com" } })).statusCode).toBe(201);
    const b = await gw.newAccount("b@example.com", ["read"]);
    for (const path of READS) {
      const monitored = await gw.call("GET", `/api/v1${path.replace("{h}", "monitored-by-a.com")}`, { key: b.key });
      const unknown = await gw.call("GET", `/api/v1${path.replace("{h}", "nobody-added.com")}`, { key: b.key });
      expect([path, monitored.statusCode, monitored.json().code]).toEqual([path, 404, "not_found"]);
      expect([path, unknown.statusCode, unknown.json().code]).toEqual([path, 404, "not_found"]);
      expect(monitored.json().error.replace("monitored-by-a.com", "H")).toBe(unknown.json().error.replace("nobody-added.com", "H"));
    }
    // The account that added it is told to wait for the first check.
    expect((await gw.call("GET", "/api/v1/report/monitored-by-a.com")).json().code).toBe("not_ready");
    expect((await gw.call("GET", "/api/v1/history/monitored-by-a.com")).statusCode).toBe(200);
  });
});
