import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { hostnameOf, isIpLiteral } from "./response.ts";

export const ipv6: CheckDef = {
  code: "ipv6",
  title: "Site has an IPv6 address",
  group: "domain",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Publish an AAAA record for the host (most hosting and CDNs give an IPv6 address), so visitors on IPv6-only networks reach the site directly.",
  run(facts) {
    const dns = facts.dns;
    if (!dns?.resolved) return notApplicable("DNS was not queried or did not resolve in this run");
    if (isIpLiteral(hostnameOf(facts.host))) return notApplicable(`${facts.host} is an IP address: it has no AAAA record`);
    // The AAAA record only: whether the site answers over IPv6 would need a connection Svc does not make.
    if (dns.aaaa.length > 0) return pass(dns.aaaa.length, `AAAA ${dns.aaaa.join(", ")}`);
    return fail(0, `no AAAA record for ${facts.host}: the site is reachable over IPv4 only`);
  },
};
