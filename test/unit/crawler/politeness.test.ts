import { describe, expect, it } from "vitest";
import { politenessFor } from "../../../crawler/index.ts";
import { loadConfig } from "../../../runtime/index.ts";

const resolver = (map: Record<string, string>) => ({
  resolve: async (host: string) => {
    const address = map[host];
    if (!address) throw new Error(`no address for ${host}`);
    return { address, family: 4 as const };
  },
});

describe("politeness overrides (SVC_CRAWL_OVERRIDES)", () => {
  const crawl = loadConfig({ SVC_CRAWL_OVERRIDES: "slow.example.com=1/2000, *.shop.test=2/500, 127.0.0.0/8=8/0" }, "serve").crawl;

  it("parses host, *.domain and CIDR rules", () => {
    expect(crawl.overrides).toEqual([
      { match: "slow.example.com", connectionsPerHost: 1, minDelayMs: 2000 },
      { match: "*.shop.test", connectionsPerHost: 2, minDelayMs: 500 },
      { match: "127.0.0.0/8", connectionsPerHost: 8, minDelayMs: 0 },
    ]);
    expect(() => loadConfig({ SVC_CRAWL_OVERRIDES: "nonsense" }, "serve")).toThrow("SVC_CRAWL_OVERRIDES");
  });

  it("picks the first rule by name, then by the resolved address, else the defaults", async () => {
    const egress = resolver({ "fixtures.test": "127.0.0.7", "far.example.org": "203.0.113.9" });
    expect(await politenessFor("slow.example.com", crawl, egress)).toMatchObject({ connectionsPerHost: 1, minDelayMs: 2000 });
    expect(await politenessFor("www.shop.test:8443", crawl, egress)).toMatchObject({ connectionsPerHost: 2, minDelayMs: 500 });
    expect(await politenessFor("fixtures.test", crawl, egress)).toMatchObject({ connectionsPerHost: 8, minDelayMs: 0 });
    expect(await politenessFor("127.0.0.1:8080", crawl, egress)).toMatchObject({ connectionsPerHost: 8, minDelayMs: 0 });
    expect(await politenessFor("far.example.org", crawl, egress)).toEqual({ connectionsPerHost: 4, minDelayMs: 250 });
    expect(await politenessFor("unresolvable.example", crawl, egress)).toEqual({ connectionsPerHost: 4, minDelayMs: 250 });
  });
});
