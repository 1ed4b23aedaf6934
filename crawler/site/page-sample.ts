import type { PageFacts } from "../../proto/index.ts";

export interface SampleInput {
  /** The home page, already fetched. */
  readonly home: PageFacts;
  /** Candidates tried before all others (the site's watched pages). */
  readonly firstUrls?: readonly string[];
  /** Candidates from the sitemaps, tried next. */
  readonly sitemapUrls: readonly string[];
  /** host[:port] of the origin: only its URLs are sampled. */
  readonly originHost: string;
  readonly maxPages: number;
  /** Link hops from the home page that are followed. */
  readonly maxDepth: number;
  readonly concurrency: number;
  /** robots.txt's verdict for a URL. */
  readonly allowed: (url: string) => boolean;
  readonly fetchPage: (url: string) => Promise<PageFacts>;
  readonly onPage?: (done: number) => void;
}

interface Candidate {
  readonly url: string;
  /** Link hops from the home page; Infinity for a sitemap URL no fetched page has linked (yet). */
  depth: number;
}

// URLs that are certainly not pages: not worth a sample slot.
const ASSET = /\.(jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|rar|7z|mp[34]|webm|ogg|wav|avi|mov|css|js|mjs|json|xml|txt|woff2?|ttf|eot|exe|dmg|apk|docx?|xlsx?|pptx?)$/i;

/**
 * Samples internal pages breadth-first: sitemap URLs first, then the home page's links, then links
 * of those pages up to `maxDepth` link hops, same host only, allowed by robots.txt, not nofollow
 * (as the crawl: WordPress's `?replytocom=` reply links are nofollow copies of the post). A sitemap URL's
 * links are followed only when links reach it before it starts (its depth is then known). Pages
 * come back in the order they were started; `depth` is then set from the link graph of what was
 * fetched.
 */
export async function samplePages(input: SampleInput): Promise<PageFacts[]> {
  const home = input.home.response;
  const known = new Map<string, Candidate | null>(); // null: the home page, or already started
  for (const url of [home?.requestedUrl, home?.finalUrl, ...(home?.redirects.map((r) => r.url) ?? [])]) if (url) known.set(url, null);
  const queue: Candidate[] = [];
  const offer = (url: string, depth: number) => {
    if (known.has(url)) {
      // A queued sitemap URL that turns out to be linked gets its link depth, so its links are followed.
      const queued = known.get(url);
      if (queued) queued.depth = Math.min(queued.depth, depth);
      return;
    }
    if (!isCandidate(url, input.originHost) || !input.allowed(url)) return;
    const candidate = { url, depth };
    known.set(url, candidate);
    queue.push(candidate);
  };
  for (const url of input.firstUrls ?? []) offer(url, Infinity);
  for (const url of input.sitemapUrls) offer(url, Infinity);
  for (const link of input.home.links) if (link.internal && !link.nofollow) offer(link.href, 1);

  const pages: PageFacts[] = [];
  // A page is one page however it was reached: the final URL of each kept page (the home page's
  // among them) maps to its slot, and a fetch that lands on one already kept is not a second page.
  const landed = new Map<string, number>();
  if (home?.finalUrl) landed.set(home.finalUrl, -1);
  const inflight = new Set<Promise<void>>();
  let slots = 0;
  let budget = 0; // fetches that became (or may become) sample pages
  let done = 0;
  const failures: Error[] = [];
  const keep = (slot: number, page: PageFacts): boolean => {
    const final = page.response?.finalUrl;
    if (!final) return (pages[slot] = page), true;
    known.set(final, null);
    const other = landed.get(final);
    if (other === undefined) {
      landed.set(final, slot);
      pages[slot] = page;
      return true;
    }
    // The same page twice: the fetch that asked for it directly stands for it (its URL is the page's).
    const kept = pages[other];
    if (kept && (kept.response?.redirects.length ?? 0) > 0 && page.response?.redirects.length === 0) {
      pages[other] = page;
    }
    return false;
  };
  while (budget < input.maxPages && failures.length === 0) {
    const next = queue.shift();
    if (!next) {
      if (inflight.size === 0) break;
      await Promise.race(inflight);
      continue;
    }
    const slot = slots++;
    budget++;
    known.set(next.url, null);
    const task = input.fetchPage(next.url).then((page) => {
      if (!keep(slot, page)) {
        budget--;
        return;
      }
      if (next.depth < input.maxDepth) for (const link of page.links) if (link.internal && !link.nofollow) offer(link.href, next.depth + 1);
      input.onPage?.(++done);
    }, (err: unknown) => void failures.push(err instanceof Error ? err : new Error("page sample failed", { cause: err })));
    const tracked: Promise<void> = task.finally(() => inflight.delete(tracked));
    inflight.add(tracked);
    if (inflight.size >= Math.max(1, input.concurrency)) await Promise.race(inflight);
  }
  await Promise.all(inflight);
  if (failures[0]) throw failures[0];
  const sample = pages.filter((p): p is PageFacts => p !== undefined);
  assignLinkDepths(input.home, sample);
  return sample;
}

function isCandidate(url: string, originHost: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return (u.protocol === "http:" || u.protocol === "https:") && u.host === originHost && !ASSET.test(u.pathname);
}

/** Shortest link path from the home page over the fetched pages; -1 for pages no fetched page links to. */
export function assignLinkDepths(home: PageFacts, pages: PageFacts[]): void {
  const byUrl = new Map<string, PageFacts>();
  for (const p of pages) {
    p.depth = -1;
    for (const u of urlsOf(p)) byUrl.set(u, p);
  }
  let frontier = [home];
  const visited = new Set<PageFacts>([home]);
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: PageFacts[] = [];
    for (const page of frontier) {
      for (const link of page.links) {
        const target = byUrl.get(link.href);
        if (!target || visited.has(target)) continue;
        visited.add(target);
        target.depth = depth;
        next.push(target);
      }
    }
    frontier = next;
  }
}

function urlsOf(p: PageFacts): string[] {
  const r = p.response;
  return r ? [r.requestedUrl, r.finalUrl, ...r.redirects.map((x) => x.url)] : [];
}
