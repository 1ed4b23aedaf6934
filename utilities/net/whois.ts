import { getDomain } from "tldts";
import { UtilityError, defineUtility, type Pair, type UtilityNet } from "../utility.ts";
import { netOf } from "../site/net-util.ts";

interface Input {
  domain: string;
  raw: boolean;
}

/** What a WHOIS record says, whatever the registry's dialect (ICANN gTLD, RIPN's .ru/.su/.рф, others' "key: value"). */
export interface WhoisFacts {
  registered: boolean;
  registrar: string | null;
  created: string | null;
  updated: string | null;
  expires: string | null;
  status: string[];
  ns: string[];
  registrar_whois: string | null;
}

const FIELDS: Readonly<Record<keyof Omit<WhoisFacts, "registered" | "status" | "ns">, readonly string[]>> = {
  registrar: ["registrar", "sponsoring registrar", "registrar name", "registrar organization"],
  created: ["creation date", "created", "created on", "registered on", "registration time", "domain registration date", "registered"],
  updated: ["updated date", "last updated", "last-update", "changed", "last modified", "modified"],
  expires: ["registry expiry date", "registrar registration expiration date", "expiration date", "expiry date", "paid-till", "expires", "expires on", "free-date", "renewal date"],
  registrar_whois: ["registrar whois server", "whois server"],
};
const STATUS_KEYS = ["domain status", "status", "state"];
const NS_KEYS = ["name server", "nserver", "nameserver", "name servers", "nameservers"];
const NOT_FOUND = /no match for|not found|no entries found|no data found|object does not exist|no object found|status:\s*free|is available for registration/i;

/** The "key: value" lines of a record, keys lower-cased. */
function lines(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(%|#|>>>)/.test(line)) continue;
    const m = /^\s*([A-Za-z][\w /.-]{0,60}?)\s*:\s*(.*?)\s*$/.exec(line);
    if (m?.[2]) out.push([(m[1] as string).toLowerCase(), m[2]]);
  }
  return out;
}

/** A date as ISO 8601 (UTC) when it parses, else as written. */
function isoDate(value: string): string {
  const v = value.replace(/\s*\(.*\)$/, "").trim();
  const d = /^\d{4}[-.]\d{2}[-.]\d{2}/.test(v) ? new Date(v.replace(/^(\d{4})\.(\d{2})\.(\d{2})/, "$1-$2-$3").replace(" ", "T")) : new Date(v);
  return Number.isNaN(d.getTime()) ? v : d.toISOString();
}

export function parseWhois(text: string): WhoisFacts {
  const kv = lines(text);
  const first = (keys: readonly string[]) => kv.find(([k]) => keys.includes(k))?.[1] ?? null;
  const all = (keys: readonly string[]) => kv.filter(([k]) => keys.includes(k)).map(([, v]) => v);
  const created = first(FIELDS.created);
  const expires = first(FIELDS.expires);
  const updated = first(FIELDS.updated);
  const status = all(STATUS_KEYS)
    .flatMap((v) => v.split(/,\s*/))
    .map((v) => v.replace(/\s+https?:\/\/\S+$/, "").trim())
    .filter(Boolean);
  const ns = [...new Set(all(NS_KEYS).map((v) => (v.split(/\s+/)[0] as string).replace(/\.$/, "").toLowerCase()))];
  const registrar = first(FIELDS.registrar);
  return {
    registered: !(NOT_FOUND.test(text) && created === null),
    registrar,
    created: created ? isoDate(created) : null,
    updated: updated ? isoDate(updated) : null,
    expires: expires ? isoDate(expires) : null,
    status: [...new Set(status)],
    ns,
    registrar_whois: first(FIELDS.registrar_whois)?.replace(/^https?:\/\//, "").replace(/\/.*$/, "") ?? null,
  };
}

/** The registry's WHOIS server of a TLD, as IANA's record names it ("refer:" or "whois:"). */
function referral(ianaRecord: string): string | null {
  const kv = lines(ianaRecord);
  return kv.find(([k]) => k === "refer")?.[1] ?? kv.find(([k]) => k === "whois")?.[1] ?? null;
}

async function lookup(net: UtilityNet, domain: string): Promise<{ servers: string[]; records: string[] }> {
  const tld = domain.slice(domain.lastIndexOf(".") + 1);
  const iana = await net.whois(net.whoisRoot, tld);
  const registry = referral(iana);
  if (!registry) throw new UtilityError("tool_failed", `IANA names no WHOIS server for .${tld}`);
  const servers = [registry];
  const records = [await net.whois(registry, domain)];
  // Thin registries (.com, .net) answer with the registrar's server, which has the full record.
  const registrarServer = parseWhois(records[0] as string).registrar_whois;
  if (registrarServer && registrarServer.toLowerCase() !== registry.toLowerCase()) {
    try {
      records.push(await net.whois(registrarServer, domain));
      servers.push(registrarServer);
    } catch {
      // The registry's record stands on its own.
    }
  }
  return { servers, records };
}

const DAY_MS = 86_400_000;

export const whois = defineUtility<Input>({
  id: "whois",
  group: "net",
  title: "Domain WHOIS & age",
  description:
    "Domain WHOIS over port 43 (IANA → registry → registrar referral). Returns registrar, created and expiry dates, domain age, days to expiry, statuses, name servers and the raw record. .ru/.рф/.su included",
  net: true,
  file: false,
  fields: [
    { name: "domain", type: "host", label: "Domain", required: true },
    { name: "raw", type: "bool", label: "Show the raw record", default: true },
  ],
  example: { domain: "example.ru", raw: true },
  async run(input, ports) {
    const net = netOf(ports);
    const domain = getDomain(input.domain, { allowPrivateDomains: false }) ?? input.domain;
    const { servers, records } = await lookup(net, domain);
    // The registrar's record is the fuller one; the registry's fills what it lacks.
    const facts = records.map(parseWhois);
    const merged = facts.slice(0, -1).reduceRight<WhoisFacts>((acc, f) => ({
      registered: acc.registered && f.registered,
      registrar: acc.registrar ?? f.registrar,
      created: acc.created ?? f.created,
      updated: acc.updated ?? f.updated,
      expires: acc.expires ?? f.expires,
      status: acc.status.length > 0 ? acc.status : f.status,
      ns: acc.ns.length > 0 ? acc.ns : f.ns,
      registrar_whois: acc.registrar_whois ?? f.registrar_whois,
    }), facts[facts.length - 1] as WhoisFacts);
    const ms = (iso: string | null) => (iso && !Number.isNaN(Date.parse(iso)) ? Date.parse(iso) : null);
    const createdMs = ms(merged.created);
    const expiresMs = ms(merged.expires);
    const age_days = createdMs === null ? null : Math.floor((ports.nowMs - createdMs) / DAY_MS);
    const days_left = expiresMs === null ? null : Math.floor((expiresMs - ports.nowMs) / DAY_MS);
    const result = {
      domain,
      registered: merged.registered,
      registrar: merged.registrar,
      created: merged.created,
      updated: merged.updated,
      expires: merged.expires,
      age_days,
      days_left,
      status: merged.status,
      ns: merged.ns,
      servers,
      source: "whois",
    };
    const pairs: Pair[] = merged.registered
      ? [
          { label: "Registrar", value: merged.registrar ?? "not shown" },
          { label: "Created", value: merged.created ?? "not shown" },
          { label: "Age", value: age_days === null ? "unknown" : `${Math.floor(age_days / 365)} years (${age_days} days)` },
          { label: "Expires", value: merged.expires ?? "not shown", status: days_left === null ? "info" : days_left < 0 ? "bad" : days_left < 30 ? "warn" : "good" },
          { label: "Days to expiry", value: days_left === null ? "unknown" : String(days_left) },
          { label: "Name servers", value: merged.ns.join(", ") || "none" },
          { label: "Status", value: merged.status.join(", ") || "none" },
        ]
      : [{ label: "Registered", value: "no: the registry has no record of this domain", status: "info" }];
    return {
      result: input.raw ? { ...result, raw: records.join("\n\n") } : result,
      blocks: {
        pairs,
        code: input.raw ? records.map((text, i) => ({ lang: "text", text, filename: `${servers[i]}.txt` })) : [],
      },
    };
  },
});
