import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { hostnameOf, isIpLiteral } from "./response.ts";

export const caa: CheckDef = {
  code: "caa",
  title: "CAA record limits certificate issuers",
  group: "domain",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: 'Publish a CAA record such as `0 issue "letsencrypt.org"` naming the certificate authorities allowed to issue certificates for the domain (RFC 8659).',
  run(facts) {
    const dns = facts.dns;
    if (!dns?.resolved) return notApplicable("DNS was not queried or did not resolve in this run");
    if (isIpLiteral(hostnameOf(facts.host))) return notApplicable(`${facts.host} is an IP address: certificates for addresses are not governed by CAA`);
    const issuers = dns.caa.filter((r) => /^\d+\s+issue(wild)?\s/i.test(r.trim()));
    if (dns.caa.length === 0) return fail(0, "no CAA record: any certificate authority may issue for this domain");
    if (issuers.length === 0) return fail(dns.caa.length, "CAA records without an issue tag restrict nothing");
    return pass(dns.caa.length, `CAA allows: ${issuers.map((r) => r.trim().split(/\s+/).slice(2).join(" ")).join(", ")}`);
  },
};
