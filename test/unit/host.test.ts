import { describe, expect, it } from "vitest";
import { normalizeHost } from "../../gateway/index.ts";

const publicOnly = { allowPrivateTargets: false, allowLinkLocal: [] };
const withPrivate = { allowPrivateTargets: true, allowLinkLocal: [] };

describe("normalizeHost", () => {
  it.each([
    ["Example.COM", "example.com"],
    ["example.com.", "example.com"],
    ["https://Example.com/some/path?q=1", "example.com"],
    ["https://example.com:443", "example.com"],
    ["http://example.com:80/", "example.com"],
    ["http://example.com:8080", "example.com:8080"],
    ["example.com:8443", "example.com:8443"],
    ["пример.рф", "xn--e1afmkfd.xn--p1ai"],
    ["Bücher.example", "xn--bcher-kva.example"],
    ["foo.co.uk", "foo.co.uk"],
    ["shop.github.io", "shop.github.io"],
    ["8.8.8.8", "8.8.8.8"],
    ["[2606:4700:0:0::1]:8443", "[2606:4700::1]:8443"],
  ])("%s → %s", (input, host) => {
    const policy = input.includes(".example") ? withPrivate : publicOnly;
    expect(normalizeHost(input, policy)).toEqual({ ok: true, host });
  });

  it.each([
    ["", "not a host name or address"],
    ["exa mple.com", "not a host name or address"],
    ["user@example.com", "not a host name or address"],
    ["co.uk", "co.uk is a public suffix, not a site"],
    ["github.io", "github.io is a public suffix, not a site"],
    ["example.c0m", "unknown top-level domain .c0m"],
    ["-bad.com", "not a valid domain name"],
    ["a..com", "not a valid domain name"],
    ["example.com:0", "port must be 1-65535"],
    ["example.com:70000", "port must be 1-65535"],
    ["example.com:80:80", "malformed address or port"],
    ["ftp://example.com", "not a host name or address"],
    ["shop-a.test", ".test names are not reachable on the internet"],
    ["localhost", ".localhost names are not reachable on the internet"],
    ["127.0.0.1", "private, loopback or reserved addresses are not allowed"],
    ["10.1.2.3:8080", "private, loopback or reserved addresses are not allowed"],
    ["[::1]", "private, loopback or reserved addresses are not allowed"],
  ])("refuses %j (%s)", (input, reason) => {
    expect(normalizeHost(input, publicOnly)).toEqual({ ok: false, reason });
  });

  it("accepts .test names and private addresses only when private targets are allowed", () => {
    expect(normalizeHost("Shop-A.test", withPrivate)).toEqual({ ok: true, host: "shop-a.test" });
    expect(normalizeHost("127.0.0.2:8080", withPrivate)).toEqual({ ok: true, host: "127.0.0.2:8080" });
    expect(normalizeHost("[::1]:9000", withPrivate)).toEqual({ ok: true, host: "[::1]:9000" });
  });

  it.each([
    ["[::7f00:1]", "private, loopback or reserved addresses are not allowed"], // ::127.0.0.1 (::/96)
    ["[::808:808]", "private, loopback or reserved addresses are not allowed"], // ::/96 even around a public IPv4
    ["[::ffff:0:a00:1]", "private, loopback or reserved addresses are not allowed"], // IPv4-translated 10.0.0.1
    ["[2002:7f00:1::]", "private, loopback or reserved addresses are not allowed"], // 6to4 of 127.0.0.1
    ["[64:ff9b::c0a8:101]", "private, loopback or reserved addresses are not allowed"], // NAT64 of 192.168.1.1
    ["[2001:0:4136:e378:8000:63bf:80ff:fffe]", "private, loopback or reserved addresses are not allowed"], // Teredo, client 127.0.0.1
    ["[::1:7f00:1]", "private, loopback or reserved addresses are not allowed"], // ::/8 outside ::/96 and the mapped forms (Q11)
  ])("refuses the IPv4 embedding %s like the IPv4 it carries (%s)", (input, reason) => {
    expect(normalizeHost(input, publicOnly)).toEqual({ ok: false, reason });
  });

  it.each(["[2002:808:808::1]", "[64:ff9b::808:808]"])("accepts %s, an embedding of a public IPv4", (input) => {
    expect(normalizeHost(input, publicOnly).ok).toBe(true);
  });

  it.each([
    ["169.254.169.254", "link-local and cloud metadata addresses are not allowed"],
    ["169.254.1.1:8080", "link-local and cloud metadata addresses are not allowed"],
    ["[fe80::1]", "link-local and cloud metadata addresses are not allowed"],
    ["[::ffff:169.254.169.254]", "link-local and cloud metadata addresses are not allowed"],
    ["[fd00:ec2::254]", "link-local and cloud metadata addresses are not allowed"],
    ["metadata.google.internal", "cloud metadata names are not allowed"],
  ])("refuses %s even with private targets allowed", (input, reason) => {
    expect(normalizeHost(input, withPrivate)).toEqual({ ok: false, reason });
  });

  it("accepts a link-local address or metadata name only when SVC_ALLOW_LINK_LOCAL_TARGETS names it", () => {
    const listed = { allowPrivateTargets: true, allowLinkLocal: ["169.254.10.0/24", "metadata.google.internal"] };
    expect(normalizeHost("169.254.10.7", listed)).toEqual({ ok: true, host: "169.254.10.7" });
    expect(normalizeHost("169.254.169.254", listed).ok).toBe(false);
    expect(normalizeHost("metadata.google.internal", listed)).toEqual({ ok: true, host: "metadata.google.internal" });
  });
});
