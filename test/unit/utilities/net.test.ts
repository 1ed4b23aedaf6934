import { describe, expect, it } from "vitest";
import { refusal, run, runExample } from "./run.ts";

// The offline utilities of the net group (the network ones are in test/gateway/net-utilities.test.ts).

describe("net utilities that need no network", () => {
  it("subnet_calc: the example's /26 with its ranges, forms, checks and /28 split", async () => {
    const out = await runExample("subnet_calc");
    expect(out.result).toEqual({
      version: 4,
      address: "192.168.10.77",
      prefix: 26,
      network: "192.168.10.64/26",
      broadcast: "192.168.10.127",
      mask: "255.255.255.192",
      wildcard: "0.0.0.63",
      first: "192.168.10.65",
      last: "192.168.10.126",
      hosts: 62,
      range: "private",
      forms: {
        int: "3232238157",
        hex: "0xc0a80a4d",
        bin: "11000000.10101000.00001010.01001101",
        expanded: null,
        compressed: "192.168.10.77",
        arpa: "77.10.168.192.in-addr.arpa",
      },
      checks: [
        { ip: "192.168.10.100", inside: true, valid: true },
        { ip: "192.168.10.128", inside: false, valid: true },
      ],
      subnets: ["192.168.10.64/28", "192.168.10.80/28", "192.168.10.96/28", "192.168.10.112/28"],
      subnet_count: 4,
    });
  });

  it("subnet_calc: a mask instead of a prefix, /31 and /32, IPv6, and refusals", async () => {
    expect((await run("subnet_calc", { cidr: "10.0.0.1 255.255.255.0" })).result).toMatchObject({ network: "10.0.0.0/24", hosts: 254 });
    expect((await run("subnet_calc", { cidr: "10.0.0.0/31" })).result).toMatchObject({ first: "10.0.0.0", last: "10.0.0.1", hosts: 2 });
    expect((await run("subnet_calc", { cidr: "8.8.8.8" })).result).toMatchObject({ network: "8.8.8.8/32", hosts: 1, range: "unicast" });
    const v6 = (await run("subnet_calc", { cidr: "2001:db8::1/64", check_ips: ["2001:db8::ffff", "2001:db9::1", "nope"] })).result;
    expect(v6).toMatchObject({
      version: 6,
      network: "2001:db8::/64",
      broadcast: null,
      mask: "ffff:ffff:ffff:ffff::",
      first: "2001:db8::",
      last: "2001:db8::ffff:ffff:ffff:ffff",
      hosts: "18446744073709551616",
      forms: { expanded: "2001:0db8:0000:0000:0000:0000:0000:0001", arpa: "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" },
      checks: [
        { ip: "2001:db8::ffff", inside: true, valid: true },
        { ip: "2001:db9::1", inside: false, valid: true },
        { ip: "nope", inside: false, valid: false },
      ],
    });
    expect(await refusal("subnet_calc", { cidr: "300.1.1.1/24" })).toMatchObject({ code: "bad_param", field: "input.cidr" });
    expect(await refusal("subnet_calc", { cidr: "10.0.0.0 255.0.255.0" })).toMatchObject({ code: "bad_param", field: "input.cidr", message: '"10.0.0.0 255.0.255.0" has a mask that is not contiguous' });
    expect(await refusal("subnet_calc", { cidr: "10.0.0.0/24", split_to: 20 })).toMatchObject({ code: "bad_param", field: "input.split_to" });
  });

  it("idn_convert: domains, e-mails and URLs both ways, with a homoglyph warning", async () => {
    const out = await runExample("idn_convert");
    expect(out.result).toEqual({
      rows: [
        { input: "пример.рф", output: "xn--e1afmkfd.xn--p1ai", valid: true, warnings: [] },
        { input: "xn--d1acpjx3f.xn--p1ai", output: "яндекс.рф", valid: true, warnings: [] },
        { input: "почта@пример.рф", output: "почта@xn--e1afmkfd.xn--p1ai", valid: true, warnings: [] },
        { input: "https://пример.рф/путь?q=1", output: "https://xn--e1afmkfd.xn--p1ai/путь?q=1", valid: true, warnings: [] },
      ],
    });
    // "раураl" with Cyrillic р, а, у: the classic look-alike of a Latin name.
    const spoof = await run("idn_convert", { values: ["раураl.com"], direction: "to_ascii" });
    expect(spoof.result).toEqual({
      rows: [{ input: "раураl.com", output: "xn--l-7sba6dbr.com", valid: true, warnings: ['the label "раураl" mixes Latin and Cyrillic letters: a look-alike of another name?'] }],
    });
    expect((await run("idn_convert", { values: ["xn--zz"] })).result).toEqual({ rows: [{ input: "xn--zz", output: null, valid: false, warnings: ["not a valid domain name (UTS #46)"] }] });
    expect(await refusal("idn_convert", { values: [], direction: "auto" })).toMatchObject({ code: "bad_param", field: "input.values" });
    expect(await refusal("idn_convert", { values: ["a.ru"], direction: "sideways" })).toMatchObject({ code: "bad_param", field: "input.direction" });
  });
});
