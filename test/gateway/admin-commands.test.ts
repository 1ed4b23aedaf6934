import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminCommandError, AdminService, executeAdmin } from "../../gateway/index.ts";
import { startTestGateway, type TestGateway } from "../harness/gateway.ts";

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe("svc admin commands on a real store", () => {
  it("a duplicate account is refused with a sentence, not a database error", async () => {
    const admin = new AdminService(gw.store, gw.deps.config, gw.clock, randomBytes);
    await executeAdmin(admin, { op: "account-create", email: "twice@example.com", admin: false });
    const again = executeAdmin(admin, { op: "account-create", email: "twice@example.com", admin: false });
    await expect(again).rejects.toThrow(new AdminCommandError("an account twice@example.com already exists"));
    await expect(executeAdmin(admin, { op: "key-create", account: "nobody@example.com", name: "k", scopes: ["read"] })).rejects.toThrow(AdminCommandError);
  });
});
