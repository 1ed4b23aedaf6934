import { describe, expect, it } from "vitest";
import { createUtilityNet, DEFAULT_UTILITY_PORTS } from "../../crawler/utility-net/utility-net.ts";
import { createEgress } from "../../crawler/index.ts";
import { UnreachableError, UtilityError } from "../../utilities/index.ts";

// The network of a network-utility run refuses what the crawler's egress guard refuses, for HTTP,
// TCP, WHOIS and plain address look-ups alike, whatever a utility's input names.

function net(allowPrivateTargets = false) {
  // Every name resolves to a private address, as a rebinding attacker's would.
  const egress = createEgress({ allowPrivateTargets, dnsServers: [], extraCa: null, connectTimeoutMs: 1000 }, { resolver: async () => [{ address: "10.1.2.3", family: 4 }] });
  return createUtilityNet({
    egress,
    dnsServers: [],
    resolvers: {},
    ports: DEFAULT_UTILITY_PORTS,
    whoisRoot: "whois.iana.org",
    whoisPort: 43,
    userAgent: "test",
    signal: new AbortController().signal,
  });
}

async function refusal(p: Promise<unknown>): Promise<{ type: string; code: string; field?: string; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as UtilityError;
    return { type: e instanceof UnreachableError ? "unreachable" : e instanceof UtilityError ? "utility" : "other", code: e.code, ...(e.field ? { field: e.field } : {}), message: e.message };
  }
  throw new Error("accepted");
}

describe("the utilities' guarded network", () => {
  it("refuses private, loopback and metadata addresses for every kind of traffic, as a refusal and not as unreachable", async () => {
    const n = net();
    expect(await refusal(n.fetch("http://127.0.0.1:8080/"))).toEqual({ type: "utility", code: "tool_failed", message: "127.0.0.1 resolves to 127.0.0.1 (loopback), which is not a public address" });
    expect(await refusal(n.fetch("https://intranet.example/"))).toEqual({ type: "utility", code: "tool_failed", message: "intranet.example resolves to 10.1.2.3 (private), which is not a public address" });
    expect((await refusal(n.addresses("169.254.169.254"))).message).toBe("169.254.169.254 resolves to 169.254.169.254 (metadata), which is not a public address");
    expect((await refusal(n.connect("192.168.0.1", 22, 1000))).message).toBe("192.168.0.1 resolves to 192.168.0.1 (private), which is not a public address");
    expect((await refusal(n.whois("whois.intranet.example", "example.ru"))).message).toBe("whois.intranet.example resolves to 10.1.2.3 (private), which is not a public address");
    expect((await refusal(n.addresses("[::ffff:127.0.0.1]"))).code).toBe("tool_failed");
  });

  it("refuses cloud-metadata names and numeric IPv4 forms like the crawler's guard, even with private targets allowed", async () => {
    const n = net(true);
    const metadata = "metadata.google.internal resolves to metadata.google.internal (metadata), which is not a public address";
    expect(await refusal(n.addresses("metadata.google.internal"))).toEqual({ type: "utility", code: "tool_failed", message: metadata });
    expect(await refusal(n.fetch("http://metadata.google.internal/computeMetadata/v1/"))).toEqual({ type: "utility", code: "tool_failed", message: metadata });
    expect((await refusal(n.whois("metadata.google.internal", "example.com"))).message).toBe(metadata);
    expect((await refusal(n.whois("0xa9fea9fe", "example.com"))).message).toBe("0xa9fea9fe resolves to 169.254.169.254 (metadata), which is not a public address");
    expect((await refusal(n.connect("169.254.169.254", 80, 1000))).message).toBe("169.254.169.254 resolves to 169.254.169.254 (metadata), which is not a public address");
  });

  it("connects only to allow-listed ports and only over http(s)", async () => {
    const n = net(true);
    expect(await refusal(n.connect("127.0.0.1", 23, 1000))).toMatchObject({ code: "bad_param", field: "input.ports" });
    expect((await refusal(n.fetch("ftp://127.0.0.1/"))).message).toBe("ftp://127.0.0.1/ is not an http(s) URL");
  });

  it("stops a run past its request budget", async () => {
    const n = net(true);
    for (let i = 0; i < 120; i++) await n.addresses("a.example");
    expect((await refusal(n.addresses("a.example"))).message).toBe("the run needed more than 120 requests (DNS a.example)");
  });
});
