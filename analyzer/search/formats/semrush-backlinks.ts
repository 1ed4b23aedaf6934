import { cleanText, countAt, parseDay, parseFlag } from "../cells.ts";
import { hasColumns, type TableFormat } from "../format.ts";
import { linkUrl, sourceDomainOf } from "./backlink-row.ts";

// Semrush Backlink Analytics → Backlinks CSV (search-data-anchors §4). Page ascore is the source's
// rating (scale semrush_ascore); a lost link has Lost link = true and was last seen on Last seen.

export const semrushBacklinks: TableFormat = {
  id: "semrush_backlinks",
  provider: "semrush",
  kind: "backlinks",
  expects: "Semrush backlinks: Page ascore,Source title,Source url,Target url,Anchor,Nofollow,Sponsored,Ugc,First seen,Last seen,Lost link",
  matches: (h) => hasColumns(h, ["source url"], ["target url"], ["anchor"], ["page ascore"]),
  async read(header, rows, facts, ctx) {
    const col = (n: string) => header.indexOf(n);
    const [src, tgt, anchor, score, nf, sp, ugc, first, last, lostLink] = ["source url", "target url", "anchor", "page ascore", "nofollow", "sponsored", "ugc", "first seen", "last seen", "lost link"].map((n): number => col(n));
    const flag = (row: string[], i: number) => i >= 0 && parseFlag(row[i] ?? "");
    for await (const row of rows) {
      const sourceUrl = linkUrl(row[src as number] ?? "");
      if (sourceUrl === "") {
        ctx.skip("it has no source url");
        continue;
      }
      const lastSeen = last! >= 0 ? parseDay(row[last!] ?? "") : null;
      facts.backlinks.push({
        sourceUrl,
        targetUrl: linkUrl(row[tgt as number] ?? ""),
        anchor: cleanText(row[anchor as number] ?? ""),
        sourceDomain: sourceDomainOf(sourceUrl),
        nofollow: flag(row, nf as number) || flag(row, ugc as number) || flag(row, sp as number),
        sourceRating: countAt(row, score as number),
        ratingScale: "semrush_ascore",
        firstSeen: first! >= 0 ? parseDay(row[first!] ?? "") : null,
        lastSeen,
        lostAt: flag(row, lostLink as number) ? lastSeen : null,
      });
    }
  },
};
