import { describe, expect, it } from "vitest";
import { normalizeHost } from "../../gateway/index.ts";

const publicOnly = { allowPrivateTargets: false };
const withPrivate = { allowPrivateTargets: true };

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
});
