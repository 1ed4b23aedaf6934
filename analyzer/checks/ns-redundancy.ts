import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { hostnameOf, isIpLiteral } from "./response.ts";

const MIN_NS = 2;

export const nsRedundancy: CheckDef = {
  code: "ns_redundancy",
  title: "Domain has at least two name servers",
  group: "domain",
  rankGroup: "security",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Delegate the domain to at least two name servers, ideally on different networks (RFC 2182), so one outage does not take the whole domain offline.",
  run(facts) {
    const dns = facts.dns;
    if (!dns?.resolved) return notApplicable("DNS was not queried or did not resolve in this run");
    if (isIpLiteral(hostnameOf(facts.host))) return notApplicable(`${facts.host} is an IP address: it has no name servers`);
    const servers = new Set(dns.ns.map((n) => n.trim().toLowerCase().replace(/\.$/, "")).filter(Boolean));
    // No NS answer at all is missing data, not a finding.
    if (servers.size === 0) return notApplicable("no NS records were returned");
    if (servers.size < MIN_NS) return fail(servers.size, `only one name server: ${[...servers][0]}`);
    return pass(servers.size, `${servers.size} name servers`);
  },
};
