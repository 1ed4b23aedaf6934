// The external links of a crawl: every link off the site with the pages that carry it and, for
// those the crawl checked, whether it answers; summed per registrable domain.
import { getDomain } from "tldts";
import type { ExternalLinkCheck } from "../proto/index.ts";

/** What the summary reads of a page. */
export interface ExternalLinksOf {
  readonly url: string;
  readonly externalLinks: readonly { readonly href: string; readonly nofollow: boolean }[];
}

export interface ExternalSummary {
  readonly domains: { domain: string; links: number; nofollow: number; pages: number; checked: number; broken: number; unchecked: number }[];
  readonly links: { url: string; domain: string; sources: number; nofollow: boolean; status: number | null; error: string; state: "ok" | "broken" | "unchecked" }[];
  readonly total: number;
  readonly nofollow_share: number;
}

/** External links by URL and by domain, with the state of those checked ("unchecked" for the rest) and the nofollow share. */
export function externalSummary(pages: readonly ExternalLinksOf[], checks: readonly ExternalLinkCheck[]): ExternalSummary {
  const checked = new Map(checks.map((c) => [c.url, c]));
  const links = new Map<string, { url: string; domain: string; sources: Set<string>; nofollow: boolean }>();
  let total = 0;
  let nofollow = 0;
  for (const p of pages) {
    for (const l of p.externalLinks) {
      total += 1;
      if (l.nofollow) nofollow += 1;
      let host = "";
      try {
        host = new URL(l.href).hostname;
      } catch {
        continue;
      }
      const domain = getDomain(host, { allowPrivateDomains: true }) ?? host;
      const entry = links.get(l.href) ?? { url: l.href, domain, sources: new Set<string>(), nofollow: true };
      entry.sources.add(p.url);
      entry.nofollow &&= l.nofollow;
      links.set(l.href, entry);
    }
  }
  const list = [...links.values()].map((l) => {
    const c = checked.get(l.url);
    const state: "ok" | "broken" | "unchecked" = !c ? "unchecked" : c.status >= 400 || c.status === 0 ? "broken" : "ok";
    return { url: l.url, domain: l.domain, sources: l.sources.size, nofollow: l.nofollow, status: c ? c.status : null, error: c?.error ?? "", state };
  });
  list.sort((a, b) => a.domain.localeCompare(b.domain) || a.url.localeCompare(b.url));
  const byHref = new Map(list.map((l) => [l.url, l]));
  const domains = new Map<string, { domain: string; links: number; nofollow: number; pages: Set<string>; checked: number; broken: number; unchecked: number }>();
  for (const p of pages) {
    for (const l of p.externalLinks) {
      const entry = byHref.get(l.href);
      if (!entry) continue;
      const d = domains.get(entry.domain) ?? { domain: entry.domain, links: 0, nofollow: 0, pages: new Set<string>(), checked: 0, broken: 0, unchecked: 0 };
      d.links += 1;
      if (l.nofollow) d.nofollow += 1;
      d.pages.add(p.url);
      domains.set(entry.domain, d);
    }
  }
  for (const l of list) {
    const d = domains.get(l.domain);
    if (!d) continue;
    if (l.state === "unchecked") d.unchecked += 1;
    else {
      d.checked += 1;
      if (l.state === "broken") d.broken += 1;
    }
  }
  return {
    domains: [...domains.values()].map((d) => ({ domain: d.domain, links: d.links, nofollow: d.nofollow, pages: d.pages.size, checked: d.checked, broken: d.broken, unchecked: d.unchecked })).sort((a, b) => b.links - a.links || a.domain.localeCompare(b.domain)),
    links: list,
    total,
    nofollow_share: total > 0 ? Number((nofollow / total).toFixed(3)) : 0,
  };
}
