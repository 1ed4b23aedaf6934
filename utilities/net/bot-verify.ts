import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { UtilityError, defineUtility } from "../utility.ts";
import { netOf } from "../site/net-util.ts";

interface Input {
  ips: string[];
}

/** Search and AI crawlers that can be verified by reverse DNS, with the host suffixes their owners publish. */
const BOTS: readonly { readonly name: string; readonly suffixes: readonly string[] }[] = [
  { name: "Googlebot", suffixes: ["googlebot.com", "google.com", "googleusercontent.com"] },
  { name: "Bingbot", suffixes: ["search.msn.com"] },
  { name: "YandexBot", suffixes: ["yandex.ru", "yandex.net", "yandex.com"] },
  { name: "Applebot", suffixes: ["applebot.apple.com"] },
  { name: "DuckDuckBot", suffixes: ["duckduckgo.com"] },
  { name: "Baiduspider", suffixes: ["baidu.com", "baidu.jp"] },
  { name: "Yahoo Slurp", suffixes: ["crawl.yahoo.net"] },
  { name: "PetalBot", suffixes: ["petalsearch.com"] },
  { name: "SeznamBot", suffixes: ["seznam.cz"] },
  { name: "MailRu bot", suffixes: ["mail.ru"] },
];

type Verdict = "verified" | "not_a_bot_host" | "forward_mismatch" | "no_ptr";

/** The reverse-DNS name of an address. */
function reverseName(ip: string): string {
  const addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv4") return `${addr.toByteArray().reverse().join(".")}.in-addr.arpa`;
  const hex = (addr as ipaddr.IPv6).parts.map((p) => p.toString(16).padStart(4, "0")).join("");
  return `${[...hex].reverse().join(".")}.ip6.arpa`;
}

/** The IPs in a list of addresses or whole access-log lines (the first address of each line). */
function extractIps(items: readonly string[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    const v4 = /(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.])/.exec(item)?.[1];
    const candidate = v4 && isIP(v4) === 4 ? v4 : item.split(/[\s,;"]+/).find((t) => isIP(t.replace(/^\[|\]$/g, "")) === 6)?.replace(/^\[|\]$/g, "");
    if (!candidate) throw new UtilityError("bad_param", `no IP address in "${item.slice(0, 80)}"`, "input.ips");
    if (!out.includes(candidate)) out.push(candidate);
  }
  return out;
}

export const botVerify = defineUtility<Input>({
  id: "bot_verify",
  group: "net",
  title: "Verify search-bot IPs",
  description:
    "Confirms that IPs from access logs really belong to Googlebot, Bingbot, YandexBot, Applebot, DuckDuckBot and others. Uses reverse DNS, a host-suffix check and forward DNS back to the same IP, the method Google and Yandex document. Whole log lines are accepted and the IPs are pulled out",
  net: true,
  file: false,
  fields: [{ name: "ips", type: "list", label: "IPs or access-log lines (one per line)", required: true, max: 50 }],
  example: { ips: ['66.249.66.1 - - [22/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 512 "-" "Googlebot/2.1"', "203.0.113.7"] },
  async run(input, ports) {
    const net = netOf(ports);
    const rows: { ip: string; ptr: string | null; claimed: string | null; forward_ok: boolean; verdict: Verdict }[] = [];
    for (const ip of extractIps(input.ips)) {
      const ptr = (await net.resolve(reverseName(ip), "PTR"))[0]?.value.replace(/\.$/, "").toLowerCase() ?? null;
      if (!ptr) {
        rows.push({ ip, ptr: null, claimed: null, forward_ok: false, verdict: "no_ptr" });
        continue;
      }
      const bot = BOTS.find((b) => b.suffixes.some((s) => ptr === s || ptr.endsWith(`.${s}`)));
      const family = isIP(ip) === 4 ? "A" : "AAAA";
      const forward = (await net.resolve(ptr, family)).map((r) => r.value);
      const normal = (a: string) => ipaddr.parse(a).toNormalizedString();
      const forward_ok = forward.some((a) => normal(a) === normal(ip));
      rows.push({ ip, ptr, claimed: bot?.name ?? null, forward_ok, verdict: !bot ? "not_a_bot_host" : forward_ok ? "verified" : "forward_mismatch" });
    }
    const label: Record<Verdict, string> = {
      verified: "genuine",
      not_a_bot_host: "not a search-bot host",
      forward_mismatch: "fake: the name does not resolve back to this IP",
      no_ptr: "no reverse DNS: not a verifiable bot",
    };
    return {
      result: { rows },
      blocks: {
        pairs: [{ label: "Genuine bots", value: `${rows.filter((r) => r.verdict === "verified").length} of ${rows.length}`, status: "info" }],
        tables: [{ title: "Reverse and forward DNS", columns: ["IP", "PTR", "Bot", "Forward DNS matches", "Verdict"], rows: rows.map((r) => [r.ip, r.ptr, r.claimed, r.forward_ok, label[r.verdict]]) }],
      },
    };
  },
});
