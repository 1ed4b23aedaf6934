import { defineUtility } from "../utility.ts";
import { stemOf, tokensOf } from "../shared/lemmas.ts";

interface Input {
  keywords: string[];
  language: "auto" | "ru" | "en";
  min_group: number;
  cross_negatives: boolean;
}

/**
 * Words that qualify a search rather than name its subject (buying, price, place, shop): they never
 * head a group, so "купить кресло мешок" joins "кресло мешок" rather than every other purchase.
 */
let modifiers: ReadonlySet<string> | null = null;
const MODIFIER_WORDS = (
    "купить заказать цена цены стоимость недорого дешево дёшево недорогой дешевый отзывы отзыв москва москве спб петербург интернет магазин онлайн бесплатно скидка акция доставка лучший " +
    "buy order price prices cost cheap best review reviews online shop store free sale near"
).split(" ");

interface Keyword {
  readonly text: string;
  readonly stems: string[];
  readonly words: Map<string, string>;
}

export const keywordGrouping = defineUtility<Input>({
  id: "keyword_grouping",
  group: "seo",
  title: "Keyword grouping & cross-negatives",
  description:
    "Groups a keyword list by shared stems (stop words removed) without search-engine data: each keyword joins the group of its most common subject stem (buy, price, city and shop words never head a group). Finds word-order duplicates and can build cross-negative keywords for Yandex Direct",
  net: false,
  file: false,
  fields: [
    { name: "keywords", type: "list", label: "Keywords, one per line", required: true, max: 10_000 },
    { name: "language", type: "sel", label: "Language", options: ["auto", "ru", "en"], default: "auto" },
    { name: "min_group", type: "int", label: "Smallest group", default: 2, min: 1, max: 1000 },
    { name: "cross_negatives", type: "bool", label: "Cross-negatives (Yandex Direct)", default: false },
  ],
  example: {
    keywords: ["купить диван", "диван купить", "угловой диван", "купить угловой диван", "кресло мешок", "купить кресло мешок", "ремонт холодильника"],
    cross_negatives: true,
  },
  run(i) {
    const seen = new Map<string, string>();
    const duplicates: { keyword: string; same_as: string }[] = [];
    const list: Keyword[] = [];
    for (const text of i.keywords) {
      const tokens = tokensOf(text).filter((t) => !t.stop);
      const stems = [...new Set(tokens.map((t) => t.stem))].sort();
      const key = stems.join(" ");
      const first = seen.get(key);
      if (first !== undefined) {
        duplicates.push({ keyword: text, same_as: first });
        continue;
      }
      seen.set(key, text);
      list.push({ text, stems, words: new Map(tokens.map((t) => [t.stem, t.word])) });
    }
    const freq = new Map<string, number>();
    for (const k of list) for (const s of k.stems) freq.set(s, (freq.get(s) ?? 0) + 1);
    const groups = new Map<string, Keyword[]>();
    for (const k of list) {
      modifiers ??= new Set(MODIFIER_WORDS.map(stemOf));
      const mods = modifiers;
      const subject = k.stems.filter((s) => !mods.has(s));
      const head = [...(subject.length > 0 ? subject : k.stems)].sort((a, b) => (freq.get(b) ?? 0) - (freq.get(a) ?? 0) || (a < b ? -1 : 1))[0] ?? "";
      groups.set(head, [...(groups.get(head) ?? []), k]);
    }
    const out: { name: string; keywords: string[] }[] = [];
    const ungrouped: string[] = [];
    for (const [head, members] of [...groups].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))) {
      if (members.length < i.min_group) {
        ungrouped.push(...members.map((m) => m.text));
        continue;
      }
      out.push({ name: members[0]?.words.get(head) ?? head, keywords: members.map((m) => m.text) });
    }
    // A keyword whose words are all inside a longer one gets the longer one's extra words as negatives,
    // so each search phrase is served by its most specific keyword.
    const negatives: { keyword: string; negatives: string[] }[] = [];
    if (i.cross_negatives) {
      for (const k of list) {
        const extra = new Set<string>();
        for (const other of list) {
          if (other === k || other.stems.length <= k.stems.length || !k.stems.every((s) => other.stems.includes(s))) continue;
          for (const s of other.stems) if (!k.stems.includes(s)) extra.add(other.words.get(s) ?? s);
        }
        if (extra.size > 0) negatives.push({ keyword: k.text, negatives: [...extra].sort().map((w) => `-${w}`) });
      }
    }
    const text = negatives.map((n) => `${n.keyword} ${n.negatives.join(" ")}`).join("\n");
    return {
      result: { groups: out, ungrouped, duplicates, negatives },
      blocks: {
        tables: [
          { title: "Groups", columns: ["group", "keywords"], rows: out.map((g) => [g.name, g.keywords.join("; ")]) },
          ...(duplicates.length > 0 ? [{ title: "Duplicates (same words)", columns: ["keyword", "same as"], rows: duplicates.map((d) => [d.keyword, d.same_as]) }] : []),
        ],
        ...(text ? { code: [{ lang: "text", text }] } : {}),
      },
    };
  },
});
