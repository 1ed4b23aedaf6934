import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass, warnTier } from "./check.ts";
import { hostnameOf, isIpLiteral } from "./response.ts";

function tags(record: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of record.split(";")) {
    const [key, ...rest] = part.split("=");
    if (key?.trim()) out.set(key.trim().toLowerCase(), rest.join("=").trim());
  }
  return out;
}

export const dmarc: CheckDef = {
  code: "dmarc",
  title: "DMARC policy is published",
  group: "domain",
  rankGroup: "security",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: true,
  hint: "Publish a TXT record at _dmarc.<domain>: `v=DMARC1; p=quarantine; rua=mailto:…`, moving to p=reject once reports are clean.",
  run(facts) {
    const dns = facts.dns;
    if (!dns) return notApplicable("DNS was not queried in this run");
    if (isIpLiteral(hostnameOf(facts.host))) return notApplicable(`${facts.host} is an IP address: mail is not sent as it`);
    const domain = dns.registrableDomain || facts.host;
    if (!dns.dmarc) return fail(null, `no DMARC record at _dmarc.${domain}`);
    const t = tags(dns.dmarc);
    const policy = t.get("p");
    if (t.get("v")?.toUpperCase() !== "DMARC1" || !policy) return fail(dns.dmarc, "the DMARC record lacks v=DMARC1 or p=");
    // p=none only monitors: the catalogue rates it info, so it is a half failure at info level.
    if (policy === "none") return warnTier("none", "p=none: monitoring only, spoofed mail is still delivered", { level: "info" });
    return pass(policy, `p=${policy}${t.has("rua") ? "" : "; no rua= reports address"}`);
  },
};
