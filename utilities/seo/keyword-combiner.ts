import { defineUtility, type Warning } from "../utility.ts";

interface Input {
  list1: string[];
  list2: string[];
  list3?: string[];
  list4?: string[];
  operators: "none" | "google" | "yandex";
  match_types?: string[];
}

const MAX_PHRASES = 50_000;
/** Yandex Direct ignores keywords of more than 7 words. */
const YANDEX_MAX_WORDS = 7;

const FORMATS: Record<string, (p: string) => string> = {
  broad: (p) => p,
  phrase: (p) => `"${p}"`,
  exact: (p) => `[${p}]`,
  // Yandex Direct: ! fixes the word form, + keeps a stop word, "…" limits the word set, […] fixes the order.
  fixed_forms: (p) => p.split(" ").map((w) => `!${w}`).join(" "),
  quoted: (p) => `"${p}"`,
  fixed_order: (p) => `[${p}]`,
  plus_stop_words: (p) => p.split(" ").map((w) => (w.length <= 3 ? `+${w}` : w)).join(" "),
};
const BY_OPERATORS: Record<Input["operators"], string[]> = { none: ["broad"], google: ["broad", "phrase", "exact"], yandex: ["broad", "fixed_forms", "quoted", "fixed_order", "plus_stop_words"] };

export const keywordCombiner = defineUtility<Input>({
  id: "keyword_combiner",
  group: "seo",
  title: "Keyword multiplier",
  description:
    'Combines up to 4 word lists (A×B×C×D) into phrases. Adds match types (Google Ads broad, "phrase", [exact]; Yandex Direct !word, +word, "…", […]), removes duplicates and keeps Yandex\'s 7-word limit. At most 50,000 phrases',
  net: false,
  file: false,
  fields: [
    { name: "list1", type: "list", label: "List A", required: true, max: 1000 },
    { name: "list2", type: "list", label: "List B", required: true, max: 1000 },
    { name: "list3", type: "list", label: "List C", max: 1000 },
    { name: "list4", type: "list", label: "List D", max: 1000 },
    { name: "operators", type: "sel", label: "Syntax", options: ["none", "google", "yandex"], default: "none" },
    { name: "match_types", type: "multi", label: "Match types", options: Object.keys(FORMATS) },
  ],
  example: { list1: ["купить", "заказать"], list2: ["диван", "угловой диван"], list3: ["в москве"], operators: "google", match_types: ["phrase", "exact"] },
  run(i) {
    const lists = [i.list1, i.list2, i.list3, i.list4].filter((l): l is string[] => l !== undefined);
    const warnings: Warning[] = [];
    let combos: string[] = [""];
    for (const list of lists) {
      const next: string[] = [];
      for (const c of combos) for (const w of list) next.push(c === "" ? w : `${c} ${w}`);
      combos = next;
      if (combos.length > MAX_PHRASES) {
        warnings.push({ code: "truncated", text: `more than ${MAX_PHRASES} combinations: the first ${MAX_PHRASES} are kept` });
        combos = combos.slice(0, MAX_PHRASES);
      }
    }
    const seen = new Set<string>();
    const base: string[] = [];
    let tooLong = 0;
    for (const c of combos) {
      const phrase = c.toLowerCase().replace(/\s+/g, " ").trim();
      if (seen.has(phrase)) continue;
      seen.add(phrase);
      if (i.operators === "yandex" && phrase.split(" ").length > YANDEX_MAX_WORDS) {
        tooLong++;
        continue;
      }
      base.push(phrase);
    }
    if (tooLong > 0) warnings.push({ code: "too_long", text: `${tooLong} phrases of more than ${YANDEX_MAX_WORDS} words left out (Yandex Direct's limit)` });
    const types = (i.match_types ?? BY_OPERATORS[i.operators]).filter((t) => BY_OPERATORS[i.operators].includes(t) || i.operators === "none");
    const phrases = types.flatMap((t) => base.map((p) => (FORMATS[t] as (p: string) => string)(p))).slice(0, MAX_PHRASES);
    return { result: { phrases, count: phrases.length }, blocks: { code: [{ lang: "text", text: phrases.join("\n") }], pairs: [{ label: "Phrases", value: String(phrases.length) }] }, warnings };
  },
});
