import { UtilityError, defineUtility, type Warning } from "../utility.ts";
import { fetchFollowing, mapLimit, netOf, requireHtml } from "./net-util.ts";
import { USER_AGENTS } from "../shared/user-agents.ts";

interface Input {
  url: string;
  check_status: boolean;
  max_check: number;
  scope: "all" | "internal" | "external";
}

interface Row {
  href: string;
  anchor: string;
  rel: string;
  type: "internal" | "external";
  status: number | null;
  final_url: string | null;
  /** The status where a redirect landed. */
  final_status: number | null;
  error: string | null;
}

export const pageLinks = defineUtility<Input>({
  id: "page_links",
  group: "site",
  title: "Link extractor & broken links",
  description:
    "Lists every link on one page: internal or external, nofollow, anchor text or image alt. Optionally checks each link's status. Unlike GET /links/{host} it reads one live page of any site",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "URL", required: true },
    { name: "check_status", type: "bool", label: "Check each link's status", default: false },
    { name: "max_check", type: "int", label: "Links checked at most", default: 50, min: 1, max: 100 },
    { name: "scope", type: "sel", label: "Links", options: ["all", "internal", "external"], default: "all" },
  ],
  example: { url: "https://example.com/", check_status: true, max_check: 20 },
  async run(input, ports) {
    const net = netOf(ports);
    const ua = { "user-agent": USER_AGENTS.browser };
    const { res } = await fetchFollowing(net, input.url, { headers: ua });
    requireHtml(res, res.url);
    const { facts } = net.page(res);
    const all = facts.links.filter((l) => /^https?:/.test(l.href));
    const links = all.filter((l) => input.scope === "all" || (input.scope === "internal") === l.internal);
    const rows: Row[] = links.map((l) => ({ href: l.href, anchor: l.text, rel: l.nofollow ? "nofollow" : "", type: l.internal ? "internal" : "external", status: null, final_url: null, final_status: null, error: null }));
    const warnings: Warning[] = [];
    if (input.check_status) {
      // Each distinct URL once, four at a time; a redirect is followed to where it lands.
      const distinct = [...new Set(rows.map((r) => r.href))];
      const checked = distinct.slice(0, input.max_check);
      if (distinct.length > checked.length) warnings.push({ code: "sampled", text: `${distinct.length} distinct links; the first ${checked.length} were checked` });
      const outcome = new Map<string, Pick<Row, "status" | "final_url" | "final_status" | "error">>();
      await mapLimit(checked, 4, async (href) => {
        try {
          const { res: r, hops } = await fetchFollowing(net, href, { headers: ua, maxBytes: 1 }, 5);
          outcome.set(href, { status: hops[0]?.status ?? r.status, final_url: hops.length > 0 ? r.url : null, final_status: hops.length > 0 ? r.status : null, error: null });
        } catch (err) {
          // An unreachable link, or one the egress policy refuses, is a broken link of this page.
          if (!(err instanceof UtilityError)) throw err;
          outcome.set(href, { status: null, final_url: null, final_status: null, error: err.message });
        }
      });
      for (const row of rows) Object.assign(row, outcome.get(row.href) ?? {});
    }
    const internal = rows.filter((r) => r.type === "internal").length;
    const broken = rows.filter((r) => r.error !== null || (r.final_status ?? r.status ?? 0) >= 400).length;
    const counts = { total: rows.length, internal, external: rows.length - internal, nofollow: rows.filter((r) => r.rel === "nofollow").length, unique: new Set(rows.map((r) => r.href)).size, broken };
    return {
      result: { url: input.url, final_url: res.url, counts, links: rows },
      blocks: {
        pairs: [
          { label: "Links", value: String(counts.total) },
          { label: "Internal / external", value: `${counts.internal} / ${counts.external}` },
          { label: "nofollow", value: String(counts.nofollow) },
          ...(input.check_status ? [{ label: "Broken", value: String(broken), status: broken > 0 ? ("bad" as const) : ("good" as const) }] : []),
        ],
        tables: [{ title: "Links", columns: ["URL", "Anchor", "Rel", "Type", "Status", "Lands at"], rows: rows.map((r) => [r.href, r.anchor, r.rel, r.type, r.status ?? r.error, r.final_url && `${r.final_url} (${r.final_status})`]) }],
      },
      warnings,
    };
  },
});
