import { cleanText, normalizeQuery, scalarText } from "../cells.ts";
import type { ImportFacts } from "../facts.ts";
import type { JsonFormat } from "../format.ts";
import { sourceDomainOf } from "./backlink-row.ts";

// Keys.so market reports saved as JSON (search-data-anchors §5.2): /report/simple/organic/concurents
// (data[{name, perc, cnt, it10, pagesinindex, vis}]) and /report/simple/organic/keywords
// (data[{word, url, ws, wsk, pos}], one domain's keywords; the domain is the rows' URL host). The
// regional base (msk, spb, gru, …) is not in the answer: a top-level "base" names it, else msk
// (Keys.so's default) with a warning.

function baseOf(doc: unknown, facts: ImportFacts): string {
  const base = scalarText((doc as { base?: unknown }).base).toLowerCase();
  if (/^[a-z]{2,5}$/.test(base)) return base;
  facts.warnings.push('no "base" in the file: taken as msk (Yandex Moscow), Keys.so\'s default');
  return "msk";
}

function rowsWith(doc: unknown, ...keys: string[]): Record<string, unknown>[] | null {
  const d = (doc as { data?: unknown } | null)?.data;
  return Array.isArray(d) && d.length > 0 && d.every((x) => typeof x === "object" && x !== null && keys.every((k) => k in x) && !("dates" in x)) ? (d as Record<string, unknown>[]) : null;
}

const num = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : Number.parseFloat(scalarText(v));
  return Number.isFinite(n) ? n : null;
};

export const keyssoCompetitors: JsonFormat = {
  id: "keysso_competitors",
  provider: "keysso",
  kind: "market",
  expects: "Keys.so organic/concurents JSON: {data: [{name, perc, cnt, vis}]}",
  matches: (doc) => rowsWith(doc, "name", "cnt") !== null,
  read(doc, facts) {
    const base = baseOf(doc, facts);
    for (const r of rowsWith(doc, "name", "cnt") ?? []) {
      const domain = cleanText(scalarText(r.name)).toLowerCase().replace(/^www\./, "");
      if (domain === "") continue;
      facts.marketDomains.push({ base, domain, commonKeywords: num(r.cnt), similarityPct: num(r.perc), visibility: num(r.vis), top10: num(r.it10), pagesInIndex: num(r.pagesinindex) });
    }
  },
};

export const keyssoKeywords: JsonFormat = {
  id: "keysso_keywords",
  provider: "keysso",
  kind: "market",
  expects: "Keys.so organic/keywords JSON: {data: [{word, url, wsk, pos}]}",
  matches: (doc) => rowsWith(doc, "word", "pos", "url") !== null,
  read(doc, facts) {
    const base = baseOf(doc, facts);
    for (const r of rowsWith(doc, "word", "pos", "url") ?? []) {
      const url = cleanText(scalarText(r.url));
      const position = num(r.pos);
      const keyword = normalizeQuery(scalarText(r.word));
      const domain = sourceDomainOf(url);
      if (keyword === "" || domain === "" || position === null || position <= 0) continue;
      facts.marketKeywords.push({ base, domain, keyword, position, url, volume: num(r.wsk) });
    }
  },
};
