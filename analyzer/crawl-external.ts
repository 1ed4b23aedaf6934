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
  const tally = new ExternalTally(checks);
  for (const p of pages) tally.add(p.externalLinks);
  return tally.summary();
}

interface LinkEntry {
  readonly url: string;
  readonly domain: string;
  /** Distinct pages carrying it (pages are added once each). */
  sources: number;
  lastPage: number;
  nofollow: boolean;
}

interface DomainEntry {
  readonly domain: string;
  links: number;
  nofollow: number;
  pages: number;
  lastPage: number;
}

/**
 * externalSummary page by page, in one pass (the whole-crawl analysis streams its pages' external
 * links): each page given once; a link's distinct sources and a domain's distinct pages are
 * counted with the last page that counted them, not a set of page URLs.
 */
export class ExternalTally {
  private readonly checked: Map<string, ExternalLinkCheck>;
  private readonly links = new Map<string, LinkEntry>();
  private readonly domains = new Map<string, DomainEntry>();
  private total = 0;
  private nofollow = 0;
  private pages = 0;

  constructor(checks: readonly ExternalLinkCheck[]) {
    this.checked = new Map(checks.map((c) => [c.url, c]));
  }

  /** One page's external links (each page once). */
  add(links: readonly { readonly href: string; readonly nofollow: boolean }[]): void {
    const page = this.pages++;
    for (const l of links) {
      this.total += 1;
      if (l.nofollow) this.nofollow += 1;
      let entry = this.links.get(l.href);
      if (!entry) {
        let host = "";
        try {
          host = new URL(l.href).hostname;
        } catch {
          continue;
        }
        const domain = getDomain(host, { allowPrivateDomains: true }) ?? host;
        entry = { url: l.href, domain, sources: 0, lastPage: -1, nofollow: true };
        this.links.set(l.href, entry);
      }
      if (entry.lastPage !== page) {
        entry.lastPage = page;
        entry.sources += 1;
      }
      entry.nofollow &&= l.nofollow;
      let d = this.domains.get(entry.domain);
      if (!d) this.domains.set(entry.domain, (d = { domain: entry.domain, links: 0, nofollow: 0, pages: 0, lastPage: -1 }));
      d.links += 1;
      if (l.nofollow) d.nofollow += 1;
      if (d.lastPage !== page) {
        d.lastPage = page;
        d.pages += 1;
      }
    }
  }

  summary(): ExternalSummary {
    const list = [...this.links.values()].map((l) => {
      const c = this.checked.get(l.url);
      const state: "ok" | "broken" | "unchecked" = !c ? "unchecked" : c.status >= 400 || c.status === 0 ? "broken" : "ok";
      return { url: l.url, domain: l.domain, sources: l.sources, nofollow: l.nofollow, status: c ? c.status : null, error: c?.error ?? "", state };
    });
    list.sort((a, b) => a.domain.localeCompare(b.domain) || a.url.localeCompare(b.url));
    const counts = new Map<string, { checked: number; broken: number; unchecked: number }>();
    for (const l of list) {
      const c = counts.get(l.domain) ?? { checked: 0, broken: 0, unchecked: 0 };
      if (l.state === "unchecked") c.unchecked += 1;
      else {
        c.checked += 1;
        if (l.state === "broken") c.broken += 1;
      }
      counts.set(l.domain, c);
    }
    return {
      domains: [...this.domains.values()]
        .map((d) => ({ domain: d.domain, links: d.links, nofollow: d.nofollow, pages: d.pages, checked: 0, broken: 0, unchecked: 0, ...counts.get(d.domain) }))
        .sort((a, b) => b.links - a.links || a.domain.localeCompare(b.domain)),
      links: list,
      total: this.total,
      nofollow_share: this.total > 0 ? Number((this.nofollow / this.total).toFixed(3)) : 0,
    };
  }
}
