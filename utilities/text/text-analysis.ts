import { defineUtility, type Warning } from "../utility.ts";
import { languageOf, tokensOf, type Token } from "../shared/lemmas.ts";
import { sentencesOf } from "../shared/words.ts";
import { round } from "../shared/numbers.ts";

interface Input {
  text: string;
  keywords?: string[];
  language: "auto" | "ru" | "en";
  ngrams: string[];
}

/** Density of one word above which a text reads as stuffed (a common editorial threshold). */
const STUFFING_PCT = 3;
const TOP = 20;

interface Phrase {
  count: number;
  forms: Map<string, number>;
}

/** Counts n-grams of consecutive content words inside each sentence, keyed by their stems. */
function countNgrams(sentences: Token[][], n: number): Map<string, Phrase> {
  const out = new Map<string, Phrase>();
  for (const tokens of sentences) {
    const content = tokens.filter((t) => !t.stop);
    for (let i = 0; i + n <= content.length; i++) {
      const gram = content.slice(i, i + n);
      const key = gram.map((t) => t.stem).join(" ");
      const form = gram.map((t) => t.word).join(" ");
      const entry = out.get(key) ?? { count: 0, forms: new Map<string, number>() };
      entry.count++;
      entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
      out.set(key, entry);
    }
  }
  return out;
}

function commonest(forms: Map<string, number>): string {
  return [...forms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? "";
}

export const textAnalysis = defineUtility<Input>({
  id: "text_analysis",
  group: "text",
  title: "SEO text analysis",
  description:
    "Measures \"water\" (stop-word share), classic and academic nausea, and keyword density of 1–3-word phrases by stem. Lists top phrases, warns about keyword stuffing and counts occurrences of target keywords",
  net: false,
  file: false,
  fields: [
    { name: "text", type: "text", label: "Text", required: true },
    { name: "keywords", type: "list", label: "Target keywords", max: 50 },
    { name: "language", type: "sel", label: "Language", options: ["auto", "ru", "en"], default: "auto" },
    { name: "ngrams", type: "multi", label: "Phrase lengths", options: ["1", "2", "3"], default: ["1", "2"] },
  ],
  example: {
    text: "Межкомнатные двери в Москве. Купить межкомнатные двери от фабрики: цены на двери и установка. Установка межкомнатных дверей за один день.",
    keywords: ["межкомнатная дверь", "установка дверей"],
    ngrams: ["1", "2"],
  },
  run(i) {
    const lang = languageOf(i.language, i.text);
    const sentences = sentencesOf(i.text).map(tokensOf);
    const tokens = sentences.flat();
    const words = tokens.length;
    const stop = tokens.filter((t) => t.stop).length;
    const unigrams = countNgrams(sentences, 1);
    const maxCount = Math.max(0, ...[...unigrams.values()].map((p) => p.count));
    const top: { phrase: string; n: number; count: number; density_pct: number }[] = [];
    for (const n of i.ngrams.map(Number).sort()) {
      const grams = [...countNgrams(sentences, n).values()].filter((p) => n === 1 || p.count > 1);
      grams.sort((a, b) => b.count - a.count || (commonest(a.forms) < commonest(b.forms) ? -1 : 1));
      for (const g of grams.slice(0, TOP)) top.push({ phrase: commonest(g.forms), n, count: g.count, density_pct: words === 0 ? 0 : round(((g.count * n) / words) * 100, 2) });
    }
    const keywords = (i.keywords ?? []).map((k) => {
      const stems = tokensOf(k).map((t) => t.stem);
      let count = 0;
      for (const s of sentences) {
        const seq = s.map((t) => t.stem);
        for (let j = 0; j + stems.length <= seq.length; j++) if (stems.length > 0 && stems.every((st, m) => seq[j + m] === st)) count++;
      }
      return { keyword: k, count, density_pct: words === 0 ? 0 : round(((count * stems.length) / words) * 100, 2) };
    });
    const warnings: Warning[] = top.filter((t) => t.n === 1 && t.density_pct > STUFFING_PCT && t.count > 2).map((t) => ({ code: "stuffing", text: `"${t.phrase}" makes ${t.density_pct} % of the words (over ${STUFFING_PCT} %)` }));
    const result = {
      language: lang,
      words,
      water_pct: words === 0 ? 0 : round((stop / words) * 100, 1),
      nausea: { classic: round(Math.sqrt(maxCount), 2), academic: words === 0 ? 0 : round((maxCount / words) * 100, 2) },
      top,
      keywords,
    };
    return {
      result,
      blocks: {
        pairs: [
          { label: "Words", value: String(words) },
          { label: "Water", value: `${result.water_pct} %`, status: result.water_pct > 60 ? "warn" : "good" },
          { label: "Classic nausea", value: String(result.nausea.classic), status: result.nausea.classic > 4 ? "warn" : "good" },
          { label: "Academic nausea", value: `${result.nausea.academic} %`, status: result.nausea.academic > 9 ? "warn" : "good" },
        ],
        tables: [
          { title: "Top phrases", columns: ["phrase", "words", "count", "density %"], rows: top.map((t) => [t.phrase, t.n, t.count, t.density_pct]) },
          ...(keywords.length > 0 ? [{ title: "Keywords", columns: ["keyword", "count", "density %"], rows: keywords.map((k) => [k.keyword, k.count, k.density_pct]) }] : []),
        ],
      },
      warnings,
    };
  },
});
