import type { CaaRecord } from "node:dns";
import { isIP } from "node:net";
import { getDomain } from "tldts";
import { DnsFacts } from "../../proto/index.ts";
import { createDnsClient, systemAddresses } from "../fetch/egress.ts";

export interface DnsFactsOptions {
  /** The egress DNS servers (`ip` or `ip:port`); empty = the system's. */
  readonly dnsServers: readonly string[];
  /** Per try (two tries). Default 3 s. */
  readonly timeoutMs?: number;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; code: string };

// Answers that mean "there is no such record": not failures of the lookup.
const ABSENT = new Set(["ENODATA", "ENOTFOUND"]);
const CODE_NAMES: Record<string, string> = { ENOTFOUND: "nxdomain", ENODATA: "nodata", ETIMEOUT: "timeout", ESERVFAIL: "servfail", EREFUSED: "refused", ECONNREFUSED: "refused" };

/**
 * The DNS facts of a host: its addresses, NS, MX, TXT and CAA (NS, MX and CAA fall back towards
 * the registrable domain, as a zone's records live there), and SPF, DMARC and BIMI of the
 * registrable domain. Failures are recorded in `error`, never thrown.
 */
export async function collectDnsFacts(host: string, opts: DnsFactsOptions): Promise<DnsFacts> {
  const name = host.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (isIP(name) !== 0) return DnsFacts.fromPartial({ resolved: true, [isIP(name) === 4 ? "a" : "aaaa"]: [name] });
  const domain = getDomain(name, { allowPrivateDomains: true }) ?? name;
  const client = createDnsClient(opts.dnsServers, opts.timeoutMs ?? 3000);
  const q = <T>(fn: () => Promise<T>) => attempt(fn);
  const [a, aaaa, ns, mx, txt, caa, spfTxt, dmarc, bimi] = await Promise.all([
    q(() => client.resolve4(name)),
    q(() => client.resolve6(name)),
    closest(name, domain, (n) => client.resolveNs(n)),
    closest(name, domain, (n) => client.resolveMx(n)),
    q(() => client.resolveTxt(name)),
    closest(name, domain, (n) => client.resolveCaa(n)),
    domain === name ? Promise.resolve(null) : q(() => client.resolveTxt(domain)),
    q(() => client.resolveTxt(`_dmarc.${domain}`)),
    q(() => client.resolveTxt(`default._bimi.${domain}`)),
  ]);
  const facts = DnsFacts.fromPartial({ registrableDomain: domain });
  facts.a = values(a);
  facts.aaaa = values(aaaa);
  if (facts.a.length + facts.aaaa.length === 0 && opts.dnsServers.length === 0) {
    // A name the system resolves from /etc/hosts resolves for the checks as it does for the fetcher.
    for (const found of await systemAddresses(name)) (found.family === 4 ? facts.a : facts.aaaa).push(found.address);
  }
  facts.resolved = facts.a.length + facts.aaaa.length > 0;
  facts.ns = values(ns).sort();
  facts.mx = values(mx)
    .sort((x, y) => x.priority - y.priority || x.exchange.localeCompare(y.exchange))
    .map((r) => `${r.priority} ${r.exchange}`);
  facts.txt = values(txt).map((chunks) => chunks.join(""));
  facts.caa = values(caa).map(formatCaa);
  const spf = (spfTxt === null ? facts.txt : values(spfTxt).map((c) => c.join(""))).filter((t) => /^v=spf1(\s|$)/i.test(t));
  facts.spf = spf[0] ?? "";
  facts.spfRecords = spf.length;
  facts.dmarc = firstStarting(values(dmarc), /^v=DMARC1(\s*;|\s|$)/i);
  facts.bimi = firstStarting(values(bimi), /^v=BIMI1(\s*;|\s|$)/i);
  facts.error = errors(facts.resolved, { a, aaaa, ns, mx, txt, caa, spf: spfTxt, dmarc, bimi });
  return facts;
}

async function attempt<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, code: String((err as NodeJS.ErrnoException).code ?? "EUNKNOWN") };
  }
}

/** Queries `name`, then each parent up to `domain`, until one has records. */
async function closest<T>(name: string, domain: string, query: (n: string) => Promise<T[]>): Promise<Outcome<T[]>> {
  let current = name;
  for (;;) {
    const out = await attempt(() => query(current));
    if ((out.ok && out.value.length > 0) || (!out.ok && !ABSENT.has(out.code)) || current === domain || !current.includes(".")) return out;
    current = current.slice(current.indexOf(".") + 1);
  }
}

function values<T>(o: Outcome<T[]> | null): T[] {
  return o !== null && o.ok ? o.value : [];
}

function firstStarting(records: string[][], re: RegExp): string {
  return records.map((c) => c.join("")).find((t) => re.test(t)) ?? "";
}

function formatCaa(r: CaaRecord): string {
  const entry: [string, unknown] = Object.entries(r).find(([k]) => k !== "critical") ?? ["", ""];
  return `${r.critical} ${entry[0]} ${String(entry[1])}`;
}

/** "nxdomain" (or timeout, servfail…) when the host has no address; then "mx: timeout" for other failed lookups. */
function errors(resolved: boolean, outcomes: Record<string, Outcome<unknown> | null>): string {
  const out: string[] = [];
  const failed = (o: Outcome<unknown> | null) => (o !== null && !o.ok ? o.code : null);
  if (!resolved) {
    const codes = [failed(outcomes.a ?? null), failed(outcomes.aaaa ?? null)].filter((c): c is string => c !== null);
    const code = codes.find((c) => c !== "ENODATA") ?? codes[0] ?? "ENODATA";
    out.push(name(code));
  }
  for (const [label, o] of Object.entries(outcomes)) {
    const code = failed(o);
    if (code === null || ABSENT.has(code) || (!resolved && (label === "a" || label === "aaaa"))) continue;
    out.push(`${label}: ${name(code)}`);
  }
  return out.join("; ");
}

function name(code: string): string {
  return CODE_NAMES[code] ?? code.toLowerCase();
}
