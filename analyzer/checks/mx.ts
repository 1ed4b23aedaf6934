import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { hostnameOf, isIpLiteral } from "./response.ts";

export const mx: CheckDef = {
  code: "mx",
  title: "Domain declares its mail servers",
  group: "domain",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Publish MX records for the servers that receive the domain's mail, or a null MX `0 .` (RFC 7505) if the domain takes no mail.",
  run(facts) {
    const dns = facts.dns;
    if (!dns?.resolved) return notApplicable("DNS was not queried or did not resolve in this run");
    if (isIpLiteral(hostnameOf(facts.host))) return notApplicable(`${facts.host} is an IP address: it receives no mail`);
    if (dns.mx.length === 0) return fail(0, "no MX record: senders fall back to the A record and mail to the domain goes astray");
    // A null MX ("0 .") is an explicit, valid "this domain takes no mail".
    if (dns.mx.some((r) => /^0\s+\.?$/.test(r.trim()))) return pass(dns.mx.length, "null MX: the domain declares it takes no mail");
    return pass(dns.mx.length, `${dns.mx.length} MX record${dns.mx.length === 1 ? "" : "s"}`);
  },
};
