import type { CheckDef } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { hostnameOf, httpUrl, isIpLiteral } from "./response.ts";

function tags(record: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of record.split(";")) {
    const [key, ...rest] = part.split("=");
    if (key?.trim()) out.set(key.trim().toLowerCase(), rest.join("=").trim());
  }
  return out;
}

/** DMARC enforcement BIMI requires: p=quarantine or p=reject, and no pct below 100. */
function dmarcEnforces(record: string): boolean {
  const t = tags(record);
  const policy = t.get("p")?.toLowerCase();
  return (policy === "quarantine" || policy === "reject") && (t.get("pct") === undefined || t.get("pct") === "100");
}

export const bimi: CheckDef = {
  code: "bimi",
  title: "BIMI record shows the brand logo in mail",
  group: "domain",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 2,
  recheck: true,
  hint: "Publish a TXT record at default._bimi.<domain>: `v=BIMI1; l=https://…/logo.svg` (SVG Tiny PS), with DMARC at p=quarantine or p=reject.",
  run(facts) {
    const dns = facts.dns;
    if (!dns?.resolved) return notApplicable("DNS was not queried or did not resolve in this run");
    if (isIpLiteral(hostnameOf(facts.host))) return notApplicable(`${facts.host} is an IP address: mail is not sent from it`);
    const domain = dns.registrableDomain || facts.host;
    // "v=spf1 -all" declares that the domain sends no mail: there is no inbox to show a logo in.
    if (/^v=spf1\s+-all$/i.test(dns.spf.trim())) return notApplicable(`${domain} declares that it sends no mail (SPF -all)`);
    if (!dns.bimi) return fail(null, `no BIMI record at default._bimi.${domain}`);
    const logo = tags(dns.bimi).get("l") ?? "";
    const url = httpUrl(logo);
    if (!url || url.protocol !== "https:") return fail(dns.bimi, logo ? `l=${logo} is not an https URL` : "the record has no logo (l=): it declines BIMI");
    if (!dmarcEnforces(dns.dmarc)) return fail(dns.bimi, "mailboxes ignore BIMI unless DMARC is p=quarantine or p=reject at pct=100");
    return pass(logo, `logo ${logo}${tags(dns.bimi).has("a") ? " with a mark certificate (a=)" : ""}`);
  },
};
