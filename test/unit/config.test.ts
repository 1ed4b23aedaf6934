import { describe, expect, it } from "vitest";
import { CONFIG_FIELDS, CONFIG_ROLES, ConfigError, configNotes, fieldsOf, loadConfig } from "../../runtime/index.ts";

describe("loadConfig", () => {
  it("gives the documented defaults", () => {
    const c = loadConfig({}, "serve");
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
      loadConfig({ SVC_PORT: "http", SVC_ALLOW_PRIVATE_TARGETS: "maybe", SVC_POSTGRES_URL: "mysql://x", SVC_TRUSTED_PROXIES: "10.0.0.0/33" }, "serve");
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.map((p) => p.split(":")[0]);
      expect(problems).toEqual(["SVC_PORT", "SVC_POSTGRES_URL", "SVC_ALLOW_PRIVATE_TARGETS", "SVC_TRUSTED_PROXIES"]);
    }
  });

  it.each([
    ["hunter2", "must be \"svc_\" followed by 40 letters and digits, as Svc generates keys; leave it unset to have a key generated and printed once"],
    [`svc_${"x".repeat(40)}`, "does not look random (1 distinct characters); leave it unset to have a key generated and printed once"],
    ["svc_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN", "does not look random (40 distinct characters); leave it unset to have a key generated and printed once"],
    ["svc_ssb45ok2hipehfRyiFVcsaH2Xvco8rlogBfipUV", "must be \"svc_\" followed by 40 letters and digits, as Svc generates keys; leave it unset to have a key generated and printed once"],
  ])("refuses SVC_BOOTSTRAP_KEY=%s, naming the variable", (value, message) => {
    expect(() => loadConfig({ SVC_BOOTSTRAP_KEY: value }, "serve")).toThrow(new ConfigError([`SVC_BOOTSTRAP_KEY: ${message}`]));
  });

  it("accepts a bootstrap key shaped like a generated one", () => {
    expect(loadConfig({ SVC_BOOTSTRAP_KEY: "svc_ssb45ok2hipehfRyiFVcsaH2Xvco8rlogBfipUVg" }, "serve").bootstrapKey).toBe("svc_ssb45ok2hipehfRyiFVcsaH2Xvco8rlogBfipUVg");
  });

  it("parses the link-local allow list: addresses, networks and exact names", () => {
    expect(loadConfig({ SVC_ALLOW_LINK_LOCAL_TARGETS: "169.254.170.2, fe80::/10,Metadata.Google.Internal" }, "serve").allowLinkLocalTargets).toEqual([
      "169.254.170.2",
      "fe80::/10",
      "metadata.google.internal",
    ]);
    expect(() => loadConfig({ SVC_ALLOW_LINK_LOCAL_TARGETS: "*.internal" }, "serve")).toThrow("SVC_ALLOW_LINK_LOCAL_TARGETS");
  });

  it("parses lists, flags and URLs", () => {
    const c = loadConfig({ SVC_TRUSTED_PROXIES: "10.0.0.1, 192.168.0.0/16,::1", SVC_MAINTENANCE: "on", SVC_POSTGRES_URL: "postgres://u@h/db" }, "serve");
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

describe("loadConfig(env, role): a role parses only the settings it reads", () => {
  it("a crawler starts beside a bad gateway value, and a gateway refuses it", () => {
    const env = { SVC_PORT: "http", SVC_TRUSTED_PROXIES: "10.0.0.0/33", SVC_FETCH_TIMEOUT_MS: "5000" };
    const crawler = loadConfig(env, "crawler");
    expect(crawler.crawl.fetchTimeoutMs).toBe(5000);
    // Not read by a crawler: the default stands, the value is never looked at.
    expect(crawler.port).toBe(8080);
    expect(crawler.trustedProxies).toEqual([]);
    expect(() => loadConfig(env, "gateway")).toThrow(new ConfigError(['SVC_PORT: must be an integer, got "http"', 'SVC_TRUSTED_PROXIES: "10.0.0.0/33" is not an address or CIDR network']));
  });

  it("a scheduler given a crawler's bad value starts; a crawler refuses it", () => {
    const env = { SVC_CONFIRM_DELAY_MS: "soon", SVC_LEASE_MS: "45000" };
    expect(loadConfig(env, "scheduler").leaseMs).toBe(45000);
    expect(loadConfig(env, "scheduler").crawl.confirmDelayMs).toBe(60000);
    expect(() => loadConfig(env, "crawler")).toThrow("SVC_CONFIRM_DELAY_MS: must be an integer");
  });

  it("an unknown SVC_* name is a note, not an error; removed settings say what replaced them; other roles' settings are named", () => {
    const env = { SVC_COLOUR: "red", SVC_EVENT_LOOP_SAMPLE_MS: "10", SVC_PORT: "8081", SVC_FETCH_TIMEOUT_MS: "5000", SVC_API_KEY: "svc_x", PATH: "/bin" };
    expect(loadConfig(env, "crawler").crawl.fetchTimeoutMs).toBe(5000);
    const notes = configNotes(env, "crawler");
    expect(notes.unknown).toEqual(["SVC_COLOUR"]);
    expect(notes.removed).toEqual([expect.stringMatching(/^SVC_EVENT_LOOP_SAMPLE_MS: Fixed at 100 ms/)]);
    expect(notes.ignored).toEqual(["SVC_PORT"]);
    expect(configNotes(env, "gateway").ignored).toEqual(["SVC_FETCH_TIMEOUT_MS"]);
  });

  it("every setting is read by at least one role, and the per-role counts are what docs/configuration.md says", () => {
    for (const f of CONFIG_FIELDS) expect(f.roles.length, f.env).toBeGreaterThan(0);
    const counts = Object.fromEntries(CONFIG_ROLES.map((r) => [r, fieldsOf(r).length]));
    expect(CONFIG_FIELDS.length).toBe(104);
    expect(counts).toEqual({ serve: 97, gateway: 49, scheduler: 28, crawler: 50, admin: 15 });
  });
});

describe("SVC_DNS_SERVERS", () => {
  it("takes IPv4 with or without a port, [IPv6]:port and bare IPv6", () => {
    expect(loadConfig({ SVC_DNS_SERVERS: "127.0.0.1:5353, 10.0.0.53, [::1]:53, 2001:db8::53" }, "serve").crawl.dnsServers).toEqual(["127.0.0.1:5353", "10.0.0.53", "[::1]:53", "2001:db8::53"]);
  });

  it.each(["127.0.0.1:0", "127.0.0.1:70000", "dns.example.com", "1.2.3:53", "[::1]:99999"])("refuses %s", (value) => {
    expect(() => loadConfig({ SVC_DNS_SERVERS: value }, "serve")).toThrow("SVC_DNS_SERVERS");
  });
});
