import { isValidHreflang } from "../../analyzer/index.ts";
import { UtilityError, defineUtility, type Warning } from "../utility.ts";
import { USER_AGENTS } from "../shared/user-agents.ts";
import { fetchFollowing, mapLimit, netOf, requireHtml } from "./net-util.ts";

interface Input {
  url: string;
  check_return: boolean;
  max_alternates: number;
}

interface Entry {
  hreflang: string;
  href: string;
  status: number | null;
  final_url: string | null;
  returns: boolean | null;
  problems: string[];
}

/** A URL compared as search engines do: fragment dropped. */
function same(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    x.hash = "";
    y.hash = "";
    return x.href === y.href;
  } catch {
    return a === b;
  }
}

/** Why an hreflang value is wrong (the analyzer's hreflang_codes rule), or null. */
function hreflangProblem(value: string): string | null {
  if (isValidHreflang(value)) return null;
  if (/^[a-z]{2}-uk$/i.test(value)) return `"${value}": the region of the United Kingdom is GB`;
  return `"${value}" is not an ISO 639-1 language (+ ISO 3166-1 region) or x-default`;
}

export const hreflangCheck = defineUtility<Input>({
  id: "hreflang_check",
  group: "site",
  title: "hreflang validator",
  description:
    "Reads hreflang from the HTML and the Link header. Checks language/region codes, x-default and self-reference, then fetches each alternate to confirm it returns 200 and links back",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "URL", required: true },
    { name: "check_return", type: "bool", label: "Fetch each alternate and check the link back", default: true },
    { name: "max_alternates", type: "int", label: "Alternates fetched at most", default: 20, min: 1, max: 50 },
  ],
  example: { url: "https://example.com/" },
  async run(input, ports) {
    const net = netOf(ports);
    const ua = { "user-agent": USER_AGENTS.googlebot };
    const { res } = await fetchFollowing(net, input.url, { headers: ua });
    requireHtml(res, res.url);
    const page = res.url;
    const { facts } = net.page(res);
    const warnings: Warning[] = [];
    const problems: string[] = [];
    const entries: Entry[] = facts.hreflang.map((a) => ({ hreflang: a.hreflang, href: a.href, status: null, final_url: null, returns: null, problems: [] }));
    if (entries.length === 0) problems.push("the page declares no hreflang alternates");
    const seen = new Map<string, string>();
    for (const e of entries) {
      const bad = hreflangProblem(e.hreflang);
      if (bad) e.problems.push(bad);
      const key = e.hreflang.toLowerCase();
      const before = seen.get(key);
      if (before !== undefined && !same(before, e.href)) e.problems.push(`${e.hreflang} also points to ${before}`);
      seen.set(key, e.href);
    }
    if (entries.length > 0) {
      if (!entries.some((e) => same(e.href, page))) problems.push("no self-reference: the page does not list itself among its alternates");
      if (!entries.some((e) => e.hreflang.toLowerCase() === "x-default")) problems.push("no x-default alternate");
    }
    if (input.check_return) {
      const targets = [...new Set(entries.map((e) => e.href))].filter((h) => !same(h, page));
      const checked = targets.slice(0, input.max_alternates);
      if (targets.length > checked.length) warnings.push({ code: "sampled", text: `${targets.length} alternates; the first ${checked.length} were fetched` });
      const outcome = new Map<string, { status: number | null; final_url: string | null; returns: boolean | null; error: string | null }>();
      await mapLimit(checked, 4, async (href) => {
        try {
          const { res: alt, hops } = await fetchFollowing(net, href, { headers: ua }, 5);
          const back = alt.status === 200 ? net.page(alt).facts.hreflang.some((a) => same(a.href, page)) : null;
          outcome.set(href, { status: hops[0]?.status ?? alt.status, final_url: hops.length > 0 ? alt.url : null, returns: back, error: null });
        } catch (err) {
          if (!(err instanceof UtilityError)) throw err;
          outcome.set(href, { status: null, final_url: null, returns: null, error: err.message });
        }
      });
      for (const e of entries) {
        if (same(e.href, page)) {
          e.status = res.status;
          e.returns = true;
          continue;
        }
        const o = outcome.get(e.href);
        if (!o) continue;
        e.status = o.status;
        e.final_url = o.final_url;
        e.returns = o.returns;
        if (o.error) e.problems.push(o.error);
        else if (o.status !== 200) e.problems.push(o.final_url ? `redirects (${o.status}) to ${o.final_url}: hreflang must name the final URL` : `answers ${o.status}`);
        else if (o.returns === false) e.problems.push("does not link back (no return tag)");
      }
    }
    const bad = entries.filter((e) => e.problems.length > 0).length + problems.length;
    return {
      result: { url: input.url, final_url: page, lang: facts.lang || null, entries, problems, ok: bad === 0 },
      blocks: {
        pairs: [
          { label: "Alternates", value: String(entries.length) },
          { label: "Problems", value: String(bad), status: bad > 0 ? "bad" : "good" },
          ...problems.map((p) => ({ label: "Page", value: p, status: "warn" as const })),
        ],
        tables: [{ title: "hreflang", columns: ["hreflang", "URL", "Status", "Links back", "Problems"], rows: entries.map((e) => [e.hreflang, e.href, e.status, e.returns, e.problems.join("; ")]) }],
      },
      warnings,
    };
  },
});
