import { createPublicKey } from "node:crypto";
import { defineUtility, type Pair, type UtilityNet } from "../utility.ts";
import { netOf } from "../site/net-util.ts";

interface Input {
  domain: string;
  dkim_selectors: string[];
}

type Status = "good" | "warn" | "bad" | "info";

interface SpfReport {
  record: string | null;
  lookups: number;
  void_lookups: number;
  all: string | null;
  includes: string[];
  problems: string[];
}

const SPF_LOOKUP_LIMIT = 10;
const SPF_VOID_LIMIT = 2;

/** The TXT records of a name that start with a tag (v=spf1, v=DMARC1…), case-insensitively. */
async function tagged(net: UtilityNet, name: string, tag: RegExp): Promise<string[]> {
  return (await net.resolve(name, "TXT")).map((r) => r.value).filter((v) => tag.test(v));
}

/** "k=v; k2=v2" tag lists (DMARC, DKIM, MTA-STS, TLS-RPT, BIMI). */
function tags(record: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of record.split(";")) {
    const i = part.indexOf("=");
    if (i > 0) out[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim();
  }
  return out;
}

/**
 * Expands an SPF record as a receiver would (RFC 7208 §4.6.4): every include, a, mx, ptr, exists
 * and redirect costs a DNS lookup (at most 10), and lookups that find nothing are void (at most 2).
 */
async function expandSpf(net: UtilityNet, domain: string): Promise<SpfReport> {
  const report: SpfReport = { record: null, lookups: 0, void_lookups: 0, all: null, includes: [], problems: [] };
  const records = await tagged(net, domain, /^v=spf1(\s|$)/i);
  if (records.length === 0) {
    report.problems.push("no SPF record: anyone may send as this domain");
    return report;
  }
  if (records.length > 1) report.problems.push(`${records.length} SPF records: receivers answer permerror`);
  report.record = records[0] as string;
  const seen = new Set<string>([domain]);
  const walk = async (record: string, depth: number, top: boolean): Promise<void> => {
    for (const term of record.split(/\s+/).slice(1)) {
      const m = /^([+?~-]?)(all|include|a|mx|ptr|exists|redirect|ip4|ip6)(?:[:=](.*))?$/i.exec(term);
      if (!m) continue;
      const mech = (m[2] as string).toLowerCase();
      const target = m[3];
      if (mech === "all") {
        if (top) report.all = `${m[1] || "+"}all`;
        continue;
      }
      if (mech === "ip4" || mech === "ip6") continue;
      report.lookups += 1;
      if (report.lookups > SPF_LOOKUP_LIMIT) continue;
      if (mech === "ptr") report.problems.push("the ptr mechanism is deprecated (RFC 7208 §5.5)");
      if (mech === "include" || mech === "redirect") {
        if (!target || seen.has(target.toLowerCase()) || depth > 10) continue;
        seen.add(target.toLowerCase());
        if (top) report.includes.push(target);
        const inner = await tagged(net, target, /^v=spf1(\s|$)/i);
        if (inner.length === 0) {
          report.void_lookups += 1;
          report.problems.push(`${mech}:${target} has no SPF record`);
          continue;
        }
        await walk(inner[0] as string, depth + 1, top && mech === "redirect");
      } else if (mech === "a" || mech === "mx") {
        const name = target?.split("/")[0] || domain;
        const found = await net.resolve(name, mech === "a" ? "A" : "MX");
        if (found.length === 0) report.void_lookups += 1;
      }
    }
  };
  await walk(report.record, 0, true);
  if (report.lookups > SPF_LOOKUP_LIMIT) report.problems.push(`${report.lookups} DNS lookups: more than ${SPF_LOOKUP_LIMIT}, receivers answer permerror`);
  if (report.void_lookups > SPF_VOID_LIMIT) report.problems.push(`${report.void_lookups} void lookups: more than ${SPF_VOID_LIMIT}, receivers may answer permerror`);
  if (report.all === null) report.problems.push("no all mechanism: mail from unlisted servers is neutral");
  else if (report.all === "+all") report.problems.push("+all lets every server on the internet send as this domain");
  else if (report.all === "?all") report.problems.push("?all says nothing about unlisted servers");
  return report;
}

/** The size of a DKIM public key (base64 SubjectPublicKeyInfo) in bits, or null when it does not parse. */
function keyBits(p: string): number | null {
  try {
    const key = createPublicKey({ key: Buffer.from(p.replace(/\s+/g, ""), "base64"), format: "der", type: "spki" });
    return key.asymmetricKeyDetails?.modulusLength ?? (key.asymmetricKeyType === "ed25519" ? 256 : null);
  } catch {
    return null;
  }
}

export const mailDnsCheck = defineUtility<Input>({
  id: "mail_dns_check",
  group: "net",
  title: "SPF / DKIM / DMARC check",
  description:
    "Audits a mail domain: MX (resolvable, not a CNAME); SPF parsed and expanded against the 10-lookup and 2-void limits; DMARC policy; DKIM keys for given or common selectors; MTA-STS, TLS-RPT and BIMI. Unlike GET /dns/{host}: full SPF expansion and DKIM selectors",
  net: true,
  file: false,
  fields: [
    { name: "domain", type: "host", label: "Mail domain", required: true },
    { name: "dkim_selectors", type: "list", label: "DKIM selectors", max: 10, default: ["default", "google", "selector1", "selector2", "mail", "dkim"] },
  ],
  example: { domain: "example.com", dkim_selectors: ["mail", "default"] },
  async run(input, ports) {
    const net = netOf(ports);
    const domain = input.domain;
    const problems: string[] = [];

    const mx: { preference: number; exchange: string; addresses: number; cname: boolean }[] = [];
    for (const r of await net.resolve(domain, "MX")) {
      const [pref, exchange = ""] = r.value.split(" ");
      const name = exchange.replace(/\.$/, "");
      const cname = (await net.resolve(name, "CNAME")).length > 0;
      const addresses = (await net.resolve(name, "A")).length + (await net.resolve(name, "AAAA")).length;
      if (cname) problems.push(`MX ${name} is a CNAME (RFC 5321 §5.1 forbids it)`);
      if (addresses === 0) problems.push(`MX ${name} has no address`);
      mx.push({ preference: Number(pref), exchange: name, addresses, cname });
    }
    if (mx.length === 0) problems.push("no MX record: mail goes to the domain's A record, if any");

    const spf = await expandSpf(net, domain);
    problems.push(...spf.problems);

    const dmarcRecords = await tagged(net, `_dmarc.${domain}`, /^v=DMARC1/i);
    const d = dmarcRecords[0] ? tags(dmarcRecords[0]) : null;
    const dmarc = d
      ? { record: dmarcRecords[0] as string, p: d.p ?? null, sp: d.sp ?? null, pct: d.pct ? Number(d.pct) : 100, rua: d.rua ?? null, ruf: d.ruf ?? null, adkim: d.adkim ?? "r", aspf: d.aspf ?? "r" }
      : null;
    if (!dmarc) problems.push("no DMARC record at _dmarc: receivers get no policy and you get no reports");
    else {
      if (!dmarc.p || !["none", "quarantine", "reject"].includes(dmarc.p.toLowerCase())) problems.push("the DMARC record has no valid p= policy");
      else if (dmarc.p.toLowerCase() === "none") problems.push("DMARC p=none only monitors: spoofed mail is still delivered");
      if (!dmarc.rua) problems.push("DMARC has no rua: no aggregate reports are sent");
      if (dmarc.pct < 100) problems.push(`DMARC applies to ${dmarc.pct}% of mail only`);
    }

    const dkim: { selector: string; found: boolean; key_type: string | null; bits: number | null; revoked: boolean }[] = [];
    for (const selector of input.dkim_selectors) {
      const records = (await net.resolve(`${selector}._domainkey.${domain}`, "TXT")).map((r) => r.value).filter((v) => /(^|;)\s*(v=DKIM1|p=)/i.test(v));
      if (records.length === 0) {
        dkim.push({ selector, found: false, key_type: null, bits: null, revoked: false });
        continue;
      }
      const t = tags(records[0] as string);
      const revoked = (t.p ?? "") === "";
      const bits = revoked ? null : keyBits(t.p as string);
      if (!revoked && bits !== null && bits < 1024) problems.push(`DKIM key ${selector} has ${bits} bits: under 1024 is rejected by receivers`);
      dkim.push({ selector, found: true, key_type: t.k ?? "rsa", bits, revoked });
    }
    if (!dkim.some((k) => k.found && !k.revoked)) problems.push(`no DKIM key under the selectors tried (${input.dkim_selectors.join(", ")})`);

    const mtaSts = (await tagged(net, `_mta-sts.${domain}`, /^v=STSv1/i))[0] ?? null;
    const tlsRpt = (await tagged(net, `_smtp._tls.${domain}`, /^v=TLSRPTv1/i))[0] ?? null;
    const bimi = (await tagged(net, `default._bimi.${domain}`, /^v=BIMI1/i))[0] ?? null;

    const st = (ok: boolean, warn = false): Status => (ok ? "good" : warn ? "warn" : "bad");
    const pairs: Pair[] = [
      { label: "MX", value: mx.map((m) => `${m.preference} ${m.exchange}`).join(", ") || "none", status: st(mx.length > 0 && mx.every((m) => m.addresses > 0 && !m.cname)) },
      { label: "SPF", value: spf.record ?? "none", status: st(spf.record !== null && spf.problems.length === 0, spf.record !== null) },
      { label: "SPF DNS lookups", value: `${spf.lookups} of ${SPF_LOOKUP_LIMIT}`, status: st(spf.lookups <= SPF_LOOKUP_LIMIT) },
      { label: "DMARC", value: dmarc ? `p=${dmarc.p ?? "?"}` : "none", status: st(dmarc !== null && ["quarantine", "reject"].includes((dmarc.p ?? "").toLowerCase()), dmarc !== null) },
      { label: "DKIM", value: dkim.filter((k) => k.found).map((k) => `${k.selector}${k.bits ? ` (${k.bits} bits)` : ""}`).join(", ") || "none found", status: st(dkim.some((k) => k.found && !k.revoked), true) },
      { label: "MTA-STS", value: mtaSts ?? "none", status: mtaSts ? "good" : "info" },
      { label: "TLS-RPT", value: tlsRpt ?? "none", status: tlsRpt ? "good" : "info" },
      { label: "BIMI", value: bimi ?? "none", status: bimi ? "good" : "info" },
    ];
    return {
      result: { domain, mx, spf: { record: spf.record, lookups: spf.lookups, void_lookups: spf.void_lookups, all: spf.all, includes: spf.includes }, dmarc, dkim, mta_sts: mtaSts, tls_rpt: tlsRpt, bimi, problems },
      blocks: {
        pairs,
        tables: [
          { title: "DKIM selectors", columns: ["Selector", "Found", "Key", "Bits", "Revoked"], rows: dkim.map((k) => [k.selector, k.found, k.key_type, k.bits, k.revoked]) },
          ...(problems.length > 0 ? [{ title: "Problems", columns: ["Problem"], rows: problems.map((p) => [p]) }] : []),
        ],
      },
    };
  },
});
