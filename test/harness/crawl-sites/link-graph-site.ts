import { buildLinkGraphManifest, type LinkGraphManifest } from "./link-graph-manifest.ts";
import { buildLinkGraphModel } from "./link-graph-model.ts";
import { renderLinkGraph, type RenderedSite } from "./link-graph-routes.ts";
import { DEFAULT_LARGE_PAGE_BYTES, type Intended, type LinkGraphOptions } from "./link-graph-types.ts";
import type { CrawlSite } from "./serve-crawl-site.ts";

// The link-graph fixture: a site of a few hundred pages with every defect a whole-site crawl
// reports, and the manifest of what a correct crawl finds. The manifest needs the origin (its
// URLs are absolute), so it is computed once the server listens.

export interface LinkGraphSite {
  readonly site: CrawlSite;
  readonly largePageBytes: number;
  /** The truths for the site served at `origin` (computed once per origin). */
  manifest(origin: string): LinkGraphManifest;
}

/** Deterministic: the same options give the same bytes. */
export function linkGraphSite(opts: LinkGraphOptions = {}): LinkGraphSite {
  const model = buildLinkGraphModel(opts);
  const largePageBytes = opts.largePageBytes ?? DEFAULT_LARGE_PAGE_BYTES;
  const rendered = new Map<string, RenderedSite>();
  const manifests = new Map<string, LinkGraphManifest>();
  const render = (origin: string): RenderedSite => {
    let r = rendered.get(origin);
    if (!r) rendered.set(origin, (r = renderLinkGraph(model, origin)));
    return r;
  };
  return {
    site: { name: "link-graph", routes: (origin) => render(origin).routes },
    largePageBytes,
    manifest(origin) {
      let m = manifests.get(origin);
      if (!m) {
        m = buildLinkGraphManifest(model, render(origin), origin, largePageBytes);
        checkIntended(m, model.intended);
        manifests.set(origin, m);
      }
      return m;
    },
  };
}

/** The derived truths include what the builder meant to build; anything else is a fixture bug. */
function checkIntended(m: LinkGraphManifest, intended: Intended): void {
  const abs = (path: string) => new URL(path, m.origin).href;
  const problems: string[] = [];
  const orphans = intended.orphans.map(abs).sort();
  if (JSON.stringify(orphans) !== JSON.stringify(m.orphans)) problems.push(`orphans ${m.orphans.join(" ")} instead of ${orphans.join(" ")}`);
  for (const { a, b } of intended.nearPairs) {
    if (!m.nearDuplicates.some((p) => [p.a, p.b].includes(abs(a)) && [p.a, p.b].includes(abs(b)))) problems.push(`${a} and ${b} are not near-duplicates`);
  }
  const partial = intended.partialPair;
  if (partial && !m.partialOverlaps.some((p) => [p.a, p.b].includes(abs(partial.a)) && [p.a, p.b].includes(abs(partial.b)))) problems.push(`${partial.a} and ${partial.b} do not overlap partly`);
  const exact = intended.exactDuplicates.map(abs).sort();
  if (!m.duplicates.content.some((g) => JSON.stringify(g.urls) === JSON.stringify(exact))) problems.push(`no content group ${exact.join(" ")}`);
  if (m.stats.deepPages === 0) problems.push("no page at depth 6 or more");
  if (problems.length > 0) throw new Error(`link-graph fixture bug:\n${problems.join("\n")}`);
}
