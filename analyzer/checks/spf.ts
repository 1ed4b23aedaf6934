import type { CheckDef, Level } from "./check.ts";
import { fail, notApplicable, pass } from "./check.ts";
import { hostnameOf, isIpLiteral } from "./response.ts";

const MAX_LOOKUPS = 10;
const LOOKUP_TERM = /^[+?~-]?(include:|a$|a[:/]|mx$|mx[:/]|ptr|exists:|redirect=)/;

/** The first problem of an SPF record (RFC 7208), with its severity. */
export function spfProblem(record: string): { problem: string; level: Level } | undefined {
  const terms = record.trim().toLowerCase().split(/\s+/).slice(1);
  const lookups = terms.filter((t) => LOOKUP_TERM.test(t)).length;
  if (lookups > MAX_LOOKUPS) return { problem: `${lookups} DNS-querying terms (limit ${MAX_LOOKUPS})`, level: "warn" };
  if (terms.some((t) => /^[+?~-]?ptr/.test(t))) return { problem: "uses the deprecated ptr mechanism", level: "warn" };
  const all = terms.find((t) => /^[+?~-]?all$/.test(t));
  if (all === "all" || all === "+all") return { problem: `${all} lets any server send mail as this domain`, level: "bad" };
  if (all === undefined && !terms.some((t) => t.startsWith("redirect="))) return { problem: "does not end with -all or ~all", level: "warn" };
  if (all === "?all") return { problem: "?all is neutral: it protects nothing", level: "warn" };
  return undefined;
}

export const spf: CheckDef = {
  code: "spf",
  title: "SPF record is valid",
  group: "domain",
  rankGroup: "security",
  level: "warn",
  weight: 3,
  effort: 1,
  recheck: true,
  hint: "Publish exactly one TXT record `v=spf1 … -all` (or `~all`) listing your mail senders, with at most 10 DNS lookups; use `v=spf1 -all` if the domain sends no mail.",
  run(facts) {
    const dns = facts.dns;
    if (!dns) return notApplicable("DNS was not queried in this run");
    if (isIpLiteral(hostnameOf(facts.host))) return notApplicable(`${facts.host} is an IP address: mail is not sent as it`);
    if (dns.spfRecords > 1) return fail(dns.spfRecords, `${dns.spfRecords} SPF records: receivers treat that as an error`);
    // A missing record is a finding, not an absence of data: anyone can then send mail as the domain.
    if (!dns.spf) return fail(null, `no v=spf1 record at ${dns.registrableDomain || facts.host}`);
    const found = spfProblem(dns.spf);
    if (found) return fail(dns.spf, `SPF ${found.problem}`, { level: found.level });
    return pass(dns.spf, "one valid SPF record");
  },
};
