import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";

export const dnsResolves: CheckDef = {
  code: "dns_resolves",
  title: "Domain resolves",
  group: "domain",
  rankGroup: "security",
  level: "bad",
  weight: 6,
  effort: 1,
  recheck: true,
  hint: "Publish A/AAAA records for the host at your DNS provider and check the domain's delegation and registration.",
  run(facts) {
    const dns = facts.dns;
    if (!dns) return notApplicable("DNS was not queried in this run");
    const addresses = dns.a.length + dns.aaaa.length;
    if (dns.resolved) return pass(addresses, `${dns.a.length} A and ${dns.aaaa.length} AAAA record(s)`);
    return fail(dns.error || "no address", `${facts.host} does not resolve (${dns.error || "no A or AAAA record"})`, { cap: 10 });
  },
};
