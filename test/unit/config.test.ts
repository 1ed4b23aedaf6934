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

  it.each([
    ["hunter2", "must be \"svc_\" followed by 40 letters and digits, as Svc generates keys; leave it unset to have a key generated and printed once"],
    [`svc_${"x".repeat(40)}`, "does not look random (1 distinct characters); leave it unset to have a key generated and printed once"],
    ["svc_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN", "does not look random (40 distinct characters); leave it unset to have a key generated and printed once"],
    ["svc_ssb45ok2hipehfRyiFVcsaH2Xvco8rlogBfipUV", "must be \"svc_\" followed by 40 letters and digits, as Svc generates keys; leave it unset to have a key generated and printed once"],
  ])("refuses SVC_BOOTSTRAP_KEY=%s, naming the variable", (value, message) => {
    expect(() => loadConfig({ SVC_BOOTSTRAP_KEY: value })).toThrow(new ConfigError([`SVC_BOOTSTRAP_KEY: ${message}`]));
  });

  it("accepts a bootstrap key shaped like a generated one", () => {
    expect(loadConfig({ SVC_BOOTSTRAP_KEY: "svc_ssb45ok2hipehfRyiFVcsaH2Xvco8rlogBfipUVg" }).bootstrapKey).toBe("svc_ssb45ok2hipehfRyiFVcsaH2Xvco8rlogBfipUVg");
  });

  it("parses the link-local allow list: addresses, networks and exact names", () => {
    expect(loadConfig({ SVC_ALLOW_LINK_LOCAL_TARGETS: "169.254.170.2, fe80::/10,Metadata.Google.Internal" }).allowLinkLocalTargets).toEqual([
      "169.254.170.2",
      "fe80::/10",
      "metadata.google.internal",
    ]);
    expect(() => loadConfig({ SVC_ALLOW_LINK_LOCAL_TARGETS: "*.internal" })).toThrow("SVC_ALLOW_LINK_LOCAL_TARGETS");
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

describe("SVC_DNS_SERVERS", () => {
  it("takes IPv4 with or without a port, [IPv6]:port and bare IPv6", () => {
    expect(loadConfig({ SVC_DNS_SERVERS: "127.0.0.1:5353, 10.0.0.53, [::1]:53, 2001:db8::53" }).crawl.dnsServers).toEqual(["127.0.0.1:5353", "10.0.0.53", "[::1]:53", "2001:db8::53"]);
  });

  it.each(["127.0.0.1:0", "127.0.0.1:70000", "dns.example.com", "1.2.3:53", "[::1]:99999"])("refuses %s", (value) => {
    expect(() => loadConfig({ SVC_DNS_SERVERS: value })).toThrow("SVC_DNS_SERVERS");
  });
});
