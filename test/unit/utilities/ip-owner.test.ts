import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ipOwner, rangeLookup, readRangeTable } from "../../../utilities/net/ip-owner.ts";

// ip_info's owner data: the shipped @ip-location-db tables (pinned versions) for addresses whose
// holder does not change, and the range flattening on a small table written here.

describe("ipOwner on the shipped tables", () => {
  it("names the AS, organisation, country and network of well-known IPv4 and IPv6 addresses", () => {
    expect(ipOwner("8.8.8.8")).toEqual({ asn: 15169, org: "Google LLC", country: "US", network: "8.8.8.0/24" });
    expect(ipOwner("1.1.1.1")).toEqual({ asn: 13335, org: "Cloudflare, Inc.", country: "AU", network: "1.1.1.0/24" });
    expect(ipOwner("2606:4700:4700::1111")).toEqual({ asn: 13335, org: "Cloudflare, Inc.", country: "US", network: "2606:4700:4700::/48" });
    expect(ipOwner("2001:4860:4860::8888")).toMatchObject({ asn: 15169, org: "Google LLC", country: "US" });
    // An IPv4-mapped IPv6 address is its IPv4 address.
    expect(ipOwner("::ffff:8.8.4.4")).toEqual({ asn: 15169, org: "Google LLC", country: "US", network: "8.8.4.0/24" });
  });

  it("has no AS for private, loopback and reserved space", () => {
    for (const ip of ["10.1.2.3", "127.0.0.1", "192.168.0.1", "0.0.0.1", "255.255.255.255", "::1", "fd00::1"]) {
      expect(ipOwner(ip)).toMatchObject({ asn: null, org: null, network: null });
    }
    // The country table files 192.168.0.0/16 under AU (APNIC's registration of the block): why
    // ip_info asks the tables only about public addresses.
    expect(ipOwner("192.168.0.1").country).toBe("AU");
    expect(ipOwner("10.1.2.3").country).toBeNull();
  });
});

describe("readRangeTable", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-ip-owner-"));
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it("lets a nested range hold its part and the outer one keep both sides", () => {
    // 10.0.0.0/8 RU, inside it 10.1.0.0/16 DE, inside that 10.1.2.0/24 FR; then 11.0.0.0/24 US.
    const n = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
    const t = readRangeTable(
      file("nested.csv", [`${n(10, 0, 0, 0)},${n(10, 255, 255, 255)},RU`, `${n(10, 1, 0, 0)},${n(10, 1, 255, 255)},DE`, `${n(10, 1, 2, 0)},${n(10, 1, 2, 255)},FR`, `${n(11, 0, 0, 0)},${n(11, 0, 0, 255)},US`, ""].join("\n")),
      false,
      false,
    );
    const at = (ip: string) => rangeLookup(t, ip)?.value ?? null;
    expect(["10.0.0.1", "10.1.0.1", "10.1.2.3", "10.1.3.0", "10.2.0.0", "10.255.255.255", "11.0.0.9", "11.0.1.0", "9.255.255.255"].map(at)).toEqual(["RU", "DE", "FR", "DE", "RU", "RU", "US", null, null]);
    expect(rangeLookup(t, "10.1.2.3")?.network).toBe("10.1.2.0/24");
    expect(rangeLookup(t, "10.1.3.0")?.network).toBe("10.1.3.0-10.1.255.255");
  });

  it("reads quoted organisations and 128-bit IPv6 bounds", () => {
    const base = 0x2001_0db8n << 96n;
    const t = readRangeTable(file("v6.csv", `${base},${base + (1n << 64n) - 1n},64500,"Example, ""Quoted"" Ltd"\n${base + (1n << 64n)},${base + (1n << 65n) - 1n},64501,Plain Org\n`), true, true);
    expect(rangeLookup(t, "2001:db8::1")).toEqual({ value: 'Example, "Quoted" Ltd', asn: 64500, network: "2001:db8::/64" });
    expect(rangeLookup(t, "2001:db8:0:1:ffff::")).toEqual({ value: "Plain Org", asn: 64501, network: "2001:db8:0:1::/64" });
    expect(rangeLookup(t, "2001:db8:0:2::")).toBeNull();
    expect(rangeLookup(t, "8.8.8.8")).toBeNull();
  });

  it("refuses a file out of order rather than search it wrong", () => {
    expect(() => readRangeTable(file("bad.csv", "200,300,US\n100,150,DE\n"), false, false)).toThrow(/line 2 is out of order/);
  });
});
