import { UtilityError, defineUtility, type UtilityNet } from "../utility.ts";
import { mapLimit, netOf } from "../site/net-util.ts";
import { ipKind, reversedLabels } from "./ip-kind.ts";
import { parseTarget } from "./ip-info.ts";

interface Input {
  target: string;
  lists: ListId[];
}

interface Blocklist {
  readonly name: string;
  readonly zone: string;
  /** ip: the reversed address is asked; domain: the domain name is. */
  readonly of: "ip" | "domain";
  /** What a return code means (a code it does not list is shown as "listed"). */
  meaning(code: string): string;
  /** A code that reports a refused or faulty query rather than a listing. */
  refused?(code: string): boolean;
}

const SPAMHAUS_REFUSED = (code: string) => code.startsWith("127.255.255.");
const SPAMHAUS_ERRORS: Readonly<Record<string, string>> = {
  "127.255.255.252": "query refused: typing error in the zone name",
  "127.255.255.254": "query refused: Spamhaus does not answer public resolvers (use an own recursive resolver)",
  "127.255.255.255": "query refused: too many queries from this resolver",
};

const LISTS = {
  spamhaus_zen: {
    name: "Spamhaus ZEN",
    zone: "zen.spamhaus.org",
    of: "ip",
    refused: SPAMHAUS_REFUSED,
    meaning: (c) =>
      SPAMHAUS_ERRORS[c] ??
      ({ "127.0.0.2": "SBL: a known spam source", "127.0.0.3": "SBL CSS: a snowshoe spam source", "127.0.0.9": "SBL DROP: a hijacked network", "127.0.0.10": "PBL: a dynamic address (ISP policy)", "127.0.0.11": "PBL: a dynamic address (Spamhaus policy)" } as Record<string, string>)[c] ??
      (/^127\.0\.0\.[4-7]$/.test(c) ? "XBL: an infected or exploited host" : "listed"),
  },
  spamcop: { name: "SpamCop", zone: "bl.spamcop.net", of: "ip", meaning: (c) => (c === "127.0.0.2" ? "reported as a spam source by SpamCop users" : "listed") },
  barracuda: { name: "Barracuda", zone: "b.barracudacentral.org", of: "ip", meaning: (c) => (c === "127.0.0.2" ? "poor sending reputation (Barracuda)" : "listed") },
  uceprotect: { name: "UCEPROTECT level 1", zone: "dnsbl-1.uceprotect.net", of: "ip", meaning: (c) => (c === "127.0.0.2" ? "this address sent to spam traps" : "listed") },
  psbl: { name: "PSBL", zone: "psbl.surriel.com", of: "ip", meaning: (c) => (c === "127.0.0.2" ? "sent mail to spam traps (passive list)" : "listed") },
  spamhaus_dbl: {
    name: "Spamhaus DBL",
    zone: "dbl.spamhaus.org",
    of: "domain",
    refused: SPAMHAUS_REFUSED,
    meaning: (c) =>
      SPAMHAUS_ERRORS[c] ??
      ({ "127.0.1.2": "a spam domain", "127.0.1.4": "a phishing domain", "127.0.1.5": "a malware domain", "127.0.1.6": "a botnet C&C domain" } as Record<string, string>)[c] ??
      (/^127\.0\.1\.1\d\d$/.test(c) ? "an abused legitimate domain" : "listed"),
  },
  surbl: {
    name: "SURBL",
    zone: "multi.surbl.org",
    of: "domain",
    refused: (c) => c === "127.0.0.1",
    meaning: (c) => {
      if (c === "127.0.0.1") return "query refused: SURBL blocks this resolver";
      const bits = Number(c.split(".")[3] ?? 0);
      const names = [
        [8, "phishing"],
        [16, "malware"],
        [64, "abused"],
        [128, "cracked site"],
      ] as const;
      const hit = names.filter(([b]) => (bits & b) !== 0).map(([, n]) => n);
      return hit.length > 0 ? `listed: ${hit.join(", ")}` : "listed";
    },
  },
} satisfies Record<string, Blocklist>;

type ListId = keyof typeof LISTS;
const LIST_IDS = Object.keys(LISTS) as ListId[];

interface Listing {
  list: string;
  zone: string;
  target: string;
  listed: boolean;
  code: string | null;
  meaning: string | null;
  reason: string | null;
  error: string | null;
}

async function query(net: UtilityNet, id: ListId, target: string): Promise<Listing> {
  const list: Blocklist = LISTS[id];
  const name = `${list.of === "ip" ? reversedLabels(target) : target}.${list.zone}`;
  const base = { list: id, zone: list.zone, target };
  try {
    const answers = (await net.resolve(name, "A")).map((r) => r.value);
    if (answers.length === 0) return { ...base, listed: false, code: null, meaning: null, reason: null, error: null };
    const code = answers.sort()[0] as string;
    if (list.refused?.(code)) return { ...base, listed: false, code, meaning: list.meaning(code), reason: null, error: list.meaning(code) };
    const txt = (await net.resolve(name, "TXT")).map((r) => r.value);
    return { ...base, listed: true, code: answers.join(", "), meaning: answers.map((c) => list.meaning(c)).join("; "), reason: txt[0] ?? null, error: null };
  } catch (err) {
    if (!(err instanceof UtilityError)) throw err;
    return { ...base, listed: false, code: null, meaning: null, reason: null, error: err.message };
  }
}

export const dnsblCheck = defineUtility<Input>({
  id: "dnsbl_check",
  group: "net",
  title: "Blacklist (DNSBL) check",
  description:
    "Checks an IP, or a domain's A and MX IPs, against DNS blocklists (Spamhaus ZEN/DBL, SpamCop, Barracuda, UCEPROTECT, PSBL, SURBL) and explains the return codes",
  net: true,
  file: false,
  fields: [
    { name: "target", type: "str", label: "IP or domain", required: true, max: 253 },
    { name: "lists", type: "multi", label: "Blocklists", options: LIST_IDS, default: ["spamhaus_zen", "spamcop", "barracuda", "psbl", "spamhaus_dbl", "surbl"] },
  ],
  example: { target: "192.0.2.1" },
  async run(input, ports) {
    const net = netOf(ports);
    const target = parseTarget(input.target);
    let ips: string[];
    let domain: string | null = null;
    if ("ip" in target) ips = [ipKind(target.ip).ip];
    else {
      domain = target.host;
      const a = (await net.resolve(domain, "A")).map((r) => r.value);
      const mx = (await net.resolve(domain, "MX")).map((r) => r.value.split(" ")[1]?.replace(/\.$/, "") ?? "").filter(Boolean);
      const mxIps: string[] = [];
      for (const host of mx.slice(0, 3)) mxIps.push(...(await net.resolve(host, "A")).map((r) => r.value));
      ips = [...new Set([...a, ...mxIps])].slice(0, 5);
    }
    const jobs: { id: ListId; target: string }[] = [];
    for (const id of input.lists) {
      if (LISTS[id].of === "ip") for (const ip of ips.filter((i) => ipKind(i).version === 4 || id === "spamhaus_zen")) jobs.push({ id, target: ip });
      else if (domain !== null) jobs.push({ id, target: domain });
    }
    if (jobs.length === 0) throw new UtilityError("tool_failed", `no chosen list checks ${domain !== null ? `${domain} (it has no IPv4 address)` : "an address"}: pick an address list or a domain list`);
    const listings = await mapLimit(jobs, 4, (j) => query(net, j.id, j.target));
    const listed = listings.filter((l) => l.listed);
    return {
      result: { target: input.target, ips, domain, listed: listed.length, listings },
      blocks: {
        pairs: [{ label: "Listed in", value: listed.length === 0 ? "none of the lists" : listed.map((l) => `${LISTS[l.list as ListId].name} (${l.target})`).join(", "), status: listed.length > 0 ? "bad" : "good" }],
        tables: [{ title: "Blocklists", columns: ["List", "Checked", "Listed", "Code", "Meaning", "Reason"], rows: listings.map((l) => [LISTS[l.list as ListId].name, l.target, l.listed, l.code, l.meaning ?? l.error, l.reason]) }],
      },
      warnings: listings.some((l) => l.error !== null) ? [{ code: "no_answer", text: "some lists gave no usable answer (see the table)" }] : [],
    };
  },
});
