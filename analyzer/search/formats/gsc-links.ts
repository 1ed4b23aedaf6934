import { parseDay } from "../cells.ts";
import type { TableFormat } from "../format.ts";
import { linkUrl, sourceDomainOf } from "./backlink-row.ts";

// GSC Links → "Latest links" (search-data-anchors §1.4): Linking page,Last crawled. A sample: no
// target, anchor, rel or rating, and no lost date — stored as such (target and anchor blank).

export const gscLinks: TableFormat = {
  id: "gsc_links",
  provider: "gsc",
  kind: "backlinks",
  expects: "Google Search Console latest links: Linking page,Last crawled",
  matches: (h) => h.length === 2 && h[0] === "linking page" && h[1] === "last crawled",
  async read(_header, rows, facts, ctx) {
    for await (const row of rows) {
      const sourceUrl = linkUrl(row[0] ?? "");
      if (!/^https?:\/\//i.test(sourceUrl)) {
        ctx.skip("its linking page is not an http(s) URL");
        continue;
      }
      facts.backlinks.push({ sourceUrl, targetUrl: "", anchor: "", sourceDomain: sourceDomainOf(sourceUrl), nofollow: false, sourceRating: null, ratingScale: null, firstSeen: null, lastSeen: parseDay(row[1] ?? ""), lostAt: null });
    }
  },
};
