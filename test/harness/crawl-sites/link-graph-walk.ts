import type { PageModel } from "./page-model.ts";

// Breadth-first walk of a generated site's link graph from its home page, over the model rather
// than over HTTP: which pages are reachable, at what depth, and every link on the way. It walks
// twice, once with a redirect hop free and once with it costing a hop, and refuses a site on
// which the two disagree: then a depth truth would depend on a crawler's convention.

/** How a URL answers, as the manifest reads it from the site's routes. */
export type Answer =
  | { readonly status: number; readonly kind: "page"; readonly page: PageModel; readonly bytes: number }
  | { readonly status: number; readonly kind: "file"; readonly type: string }
  | { readonly status: number; readonly kind: "redirect"; readonly location: string }
  | { readonly status: number; readonly kind: "broken" }
  | { readonly status: 0; readonly kind: "external" };

export interface LinkEdge {
  readonly source: string;
  /** Strict form: absolute, no fragment. */
  readonly target: string;
  readonly rel: string;
}

export interface Walk {
  /** Reachable pages and their depth. */
  readonly depth: Map<string, number>;
  /** Links from reachable pages to this host, one per <a> element, robots-forbidden ones included. */
  readonly internalLinks: LinkEdge[];
  readonly externalLinks: LinkEdge[];
}

const MAX_HOPS = 10;

export function walkLinkGraph(
  home: string,
  answer: (url: string) => Answer,
  allowed: (url: string) => boolean,
  links: (page: PageModel) => readonly { href: string; rel: string }[],
): Walk {
  const host = new URL(home).host;
  const internalLinks: LinkEdge[] = [];
  const externalLinks: LinkEdge[] = [];
  const outlinks = (url: string, page: PageModel): LinkEdge[] =>
    links(page).flatMap(({ href, rel }) => {
      const t = new URL(href, url);
      if (t.protocol !== "http:" && t.protocol !== "https:") return [];
      t.hash = "";
      return [{ source: url, target: t.href, rel }];
    });
  const landing = (start: string): string | null => {
    let url = start;
    for (let hop = 0; hop <= MAX_HOPS; hop++) {
      if (new URL(url).host !== host || !allowed(url)) return null;
      const a = answer(url);
      if (a.kind === "page") return url;
      if (a.kind !== "redirect") return null;
      url = a.location;
    }
    return null;
  };

  const depth = new Map<string, number>([[home, 0]]);
  const queue = [home];
  for (let i = 0; i < queue.length; i++) {
    const url = queue[i] as string;
    const a = answer(url);
    if (a.kind !== "page") continue;
    for (const edge of outlinks(url, a.page)) {
      if (new URL(edge.target).host !== host) {
        externalLinks.push(edge);
        continue;
      }
      internalLinks.push(edge);
      const final = landing(edge.target);
      if (final !== null && !depth.has(final)) {
        depth.set(final, (depth.get(url) ?? 0) + 1);
        queue.push(final);
      }
    }
  }

  // The same walk with every redirect hop costing one: the depths of pages must not change.
  const hops = new Map<string, number>([[home, 0]]);
  const next = [home];
  for (let i = 0; i < next.length; i++) {
    const url = next[i] as string;
    const a = answer(url);
    const targets = a.kind === "page" ? outlinks(url, a.page).map((e) => e.target) : a.kind === "redirect" ? [a.location] : [];
    for (const t of targets) {
      if (new URL(t).host !== host || !allowed(t) || hops.has(t)) continue;
      hops.set(t, (hops.get(url) ?? 0) + 1);
      next.push(t);
    }
  }
  for (const [url, d] of depth) {
    if (hops.get(url) !== d) throw new Error(`fixture bug: depth of ${url} is ${d} with free redirect hops but ${hops.get(url)} counting them`);
  }
  return { depth, internalLinks, externalLinks };
}
