import { describe, expect, it } from "vitest";
import { CONFIG_FIELDS, ConfigError, loadConfig } from "../../runtime/index.ts";

describe("loadConfig", () => {
  it("gives the documented defaults", () => {
    const c = loadConfig({});
    expect(c.host).toBe("127.0.0.1");
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe("./data");
    expect(c.postgresUrl).toBeNull();
    expect(c.ratePerHourDefault).toBe(120);
    expect(c.idempotencyTtlSeconds).toBe(86400);
    expect(c.allowPrivateTargets).toBe(false);
    expect(c.plan.apiKeys).toBe(10);
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.plan)).toBe(true);
  });

  it("reports every bad variable at once, by name", () => {
    try {
      loadConfig({ SVC_PORT: "http", SVC_ALLOW_PRIVATE_TARGETS: "maybe", SVC_POSTGRES_URL: "mysql://x", SVC_TRUSTED_PROXIES: "10.0.0.0/33", SVC_COLOUR: "red" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.map((p) => p.split(":")[0]);
      expect(problems).toEqual(["SVC_PORT", "SVC_POSTGRES_URL", "SVC_ALLOW_PRIVATE_TARGETS", "SVC_TRUSTED_PROXIES", "SVC_COLOUR"]);
    }
  });

  it("parses lists, flags and URLs", () => {
    const c = loadConfig({ SVC_TRUSTED_PROXIES: "10.0.0.1, 192.168.0.0/16,::1", SVC_MAINTENANCE: "on", SVC_POSTGRES_URL: "postgres://u@h/db" });
    expect(c.trustedProxies).toEqual(["10.0.0.1", "192.168.0.0/16", "::1"]);
    expect(c.maintenance).toBe(true);
    expect(c.postgresUrl).toBe("postgres://u@h/db");
  });

  it("documents every variable with a name, a default and a text", () => {
    for (const f of CONFIG_FIELDS) {
      expect(f.env).toMatch(/^SVC_[A-Z0-9_]+$/);
      expect(f.doc.length).toBeGreaterThan(10);
    }
  });
});
