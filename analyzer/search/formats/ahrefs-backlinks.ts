import { cleanText, countAt, parseDay, parseFlag } from "../cells.ts";
import { hasColumns, type TableFormat } from "../format.ts";
import { linkUrl, sourceDomainOf } from "./backlink-row.ts";

// Ahrefs Site Explorer → Backlinks (search-data-anchors §4): UTF-16LE, tab-separated, quoted.
// Domain rating is the source's rating (scale ahrefs_dr); Lost is the date a link was lost.

export const ahrefsBacklinks: TableFormat = {
  id: "ahrefs_backlinks",
  provider: "ahrefs",
  kind: "backlinks",
  expects: "Ahrefs backlinks: Referring page URL,Target URL,Anchor,Domain rating,Nofollow,UGC,Sponsored,First seen,Last seen,Lost",
  matches: (h) => hasColumns(h, ["referring page url"], ["target url"], ["anchor"]),
  async read(header, rows, facts, ctx) {
    const col = (n: string) => header.indexOf(n);
    const [src, tgt, anchor, dr, nf, ugc, sp, first, last, lost] = ["referring page url", "target url", "anchor", "domain rating", "nofollow", "ugc", "sponsored", "first seen", "last seen", "lost"].map((n): number => col(n));
    const flag = (row: string[], i: number) => i >= 0 && parseFlag(row[i] ?? "");
    for await (const row of rows) {
      const sourceUrl = linkUrl(row[src as number] ?? "");
      if (sourceUrl === "") {
        ctx.skip("it has no referring page URL");
        continue;
      }
      facts.backlinks.push({
        sourceUrl,
        targetUrl: linkUrl(row[tgt as number] ?? ""),
        anchor: cleanText(row[anchor as number] ?? ""),
        sourceDomain: sourceDomainOf(sourceUrl),
        nofollow: flag(row, nf as number) || flag(row, ugc as number) || flag(row, sp as number),
        sourceRating: countAt(row, dr as number),
        ratingScale: "ahrefs_dr",
        firstSeen: first! >= 0 ? parseDay(row[first!] ?? "") : null,
        lastSeen: last! >= 0 ? parseDay(row[last!] ?? "") : null,
        lostAt: lost! >= 0 ? parseDay(row[lost!] ?? "") : null,
      });
    }
  },
};
