import { gunzipSync } from "node:zlib";
import { UtilityError, defineUtility, type NetResponse, type Warning } from "../utility.ts";
import { USER_AGENTS } from "../shared/user-agents.ts";
import { fetchFollowing, header, mapLimit, netOf } from "./net-util.ts";

interface Input {
  url: string;
  sample: number;
  follow_index: boolean;
}

interface File {
  url: string;
  status: number;
  kind: "urlset" | "sitemapindex" | "invalid";
  gzip: boolean;
  urls: number;
  bytes: number;
  problems: string[];
}

/** Child sitemaps of an index read at most (catalogue §2). */
const MAX_CHILDREN = 20;
/** W3C Datetime as sitemaps.org allows it: a date, or a date and time with a time zone. */
const W3C_DATETIME = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/** The `<lastmod>` values of a sitemap's text (a plain scan: the parser already judged the XML). */
function lastmods(text: string): string[] {
  return [...text.matchAll(/<(?:\w+:)?lastmod>\s*([^<]*?)\s*<\/(?:\w+:)?lastmod>/g)].map((m) => m[1] as string);
}

export const sitemapCheck = defineUtility<Input>({
  id: "sitemap_check",
  group: "site",
  title: "XML sitemap validator",
  description:
    "Downloads a sitemap or sitemap index (.gz allowed). Checks the XML and the protocol limits (50,000 URLs, 50 MB), foreign-host, duplicate and http URLs, lastmod format and future dates. Samples URLs for status, redirects and noindex",
  net: true,
  file: false,
  fields: [
    { name: "url", type: "url", label: "Sitemap URL", required: true },
    { name: "sample", type: "int", label: "URLs checked", default: 20, min: 0, max: 100 },
    { name: "follow_index", type: "bool", label: "Read the sitemaps an index lists (≤ 20)", default: true },
  ],
  example: { url: "https://example.com/sitemap.xml", sample: 5 },
  async run(input, ports) {
    const net = netOf(ports);
    const ua = { "user-agent": USER_AGENTS.googlebot };
    const siteHost = new URL(input.url).host;
    const warnings: Warning[] = [];
    const files: File[] = [];
    const urls: string[] = [];
    const read = async (url: string): Promise<{ file: File; children: readonly string[] }> => {
      const { res } = await fetchFollowing(net, url, { headers: ua });
      if (res.status !== 200) return { file: { url, status: res.status, kind: "invalid", gzip: false, urls: 0, bytes: res.body.length, problems: [`http_status: answers ${res.status}`] }, children: [] };
      const { facts, children } = await net.sitemap(res.url, res.body, siteHost, 50_000);
      const problems = [...facts.problems];
      if (res.truncated) problems.push("truncated: only the first 5 MB were read");
      const text = decoded(res, facts.gzip);
      const dates = lastmods(text);
      const badDates = dates.filter((d) => !W3C_DATETIME.test(d));
      if (badDates.length > 0) problems.push(`lastmod_format: ${badDates.length} (first: "${badDates[0]}")`);
      const future = dates.filter((d) => W3C_DATETIME.test(d) && Date.parse(d.length === 10 ? `${d}T00:00:00Z` : d) > ports.nowMs + 86_400_000);
      if (future.length > 0) problems.push(`lastmod_future: ${future.length} (first: "${future[0]}")`);
      if (!facts.isIndex) {
        const http = facts.sampleUrls.filter((u) => u.startsWith("http:") && input.url.startsWith("https:"));
        if (http.length > 0) problems.push(`http_url: ${http.length} (first: ${http[0]})`);
        const unique = new Set(facts.sampleUrls);
        if (unique.size < facts.sampleUrls.length) problems.push(`duplicate_url: ${facts.sampleUrls.length - unique.size}`);
        urls.push(...unique);
      }
      const kind = problems.some((p) => p.startsWith("not_xml") || p.startsWith("wrong_root")) ? "invalid" : facts.isIndex ? "sitemapindex" : "urlset";
      return { file: { url, status: res.status, kind, gzip: facts.gzip, urls: facts.urlCount, bytes: res.body.length, problems }, children };
    };
    const root = await read(input.url);
    if (root.file.status !== 200) throw new UtilityError("tool_failed", `${input.url} answered ${root.file.status}, not a sitemap`);
    files.push(root.file);
    if (root.file.kind === "sitemapindex" && input.follow_index) {
      const children = root.children.slice(0, MAX_CHILDREN);
      if (root.children.length > children.length) warnings.push({ code: "sampled", text: `the index lists ${root.children.length} sitemaps; the first ${children.length} were read` });
      for (const child of await mapLimit(children, 4, (c) => read(c))) {
        if (child.file.kind === "sitemapindex") child.file.problems.push("nested_index: an index listed by an index is not followed");
        files.push(child.file);
      }
    }
    const sampleUrls = urls.slice(0, input.sample);
    const sample = await mapLimit(sampleUrls, 4, async (url) => {
      try {
        const { res, hops } = await fetchFollowing(net, url, { headers: ua, maxBytes: 512 * 1024 }, 5);
        const robots = `${header(res, "x-robots-tag") ?? ""} ${res.status === 200 ? net.page(res).facts.metaRobots : ""}`.toLowerCase();
        return { url, status: hops[0]?.status ?? res.status, final_url: hops.length > 0 ? res.url : null, final_status: res.status, noindex: /\bnoindex\b|\bnone\b/.test(robots), error: null };
      } catch (err) {
        if (!(err instanceof UtilityError)) throw err;
        return { url, status: null, final_url: null, final_status: null, noindex: false, error: err.message };
      }
    });
    const problems = files.flatMap((f) => f.problems.map((p) => `${f.url}: ${p}`));
    for (const s of sample) {
      if (s.error) problems.push(`${s.url}: unreachable (${s.error})`);
      else if (s.final_url) problems.push(`${s.url}: redirects (${s.status}) to ${s.final_url}`);
      else if (s.status !== 200) problems.push(`${s.url}: answers ${s.status}`);
      if (s.noindex) problems.push(`${s.url}: noindex`);
    }
    const kind = root.file.kind;
    const total = kind === "sitemapindex" ? files.slice(1).reduce((n, f) => n + f.urls, 0) : root.file.urls;
    return {
      result: { url: input.url, kind, files, urls: total, problems, sample },
      blocks: {
        pairs: [
          { label: "Kind", value: kind, status: kind === "invalid" ? "bad" : "good" },
          { label: "URLs", value: String(total) },
          { label: "Problems", value: String(problems.length), status: problems.length > 0 ? "warn" : "good" },
        ],
        tables: [
          { title: "Files", columns: ["URL", "Kind", "URLs", "Bytes", "gzip", "Problems"], rows: files.map((f) => [f.url, f.kind, f.urls, f.bytes, f.gzip, f.problems.join("; ")]) },
          { title: "Sample", columns: ["URL", "Status", "Lands at", "noindex"], rows: sample.map((s) => [s.url, s.status ?? s.error, s.final_url, s.noindex]) },
        ],
      },
      warnings,
    };
  },
});

/** The sitemap's text (a .gz body unpacked again for the lastmod scan; the parser has checked its size). */
function decoded(res: NetResponse, gzip: boolean): string {
  if (!gzip || res.body[0] !== 0x1f) return new TextDecoder().decode(res.body);
  try {
    return new TextDecoder().decode(gunzipSync(res.body, { maxOutputLength: 50 * 1024 * 1024 }));
  } catch {
    return "";
  }
}
