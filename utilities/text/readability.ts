import { defineUtility } from "../utility.ts";
import { languageOf } from "../shared/lemmas.ts";
import { sentencesOf, wordsOf } from "../shared/words.ts";
import { round } from "../shared/numbers.ts";

interface Input {
  text: string;
  language: "auto" | "en" | "ru";
}

/** Russian syllables are its vowels. */
function syllablesRu(word: string): number {
  return Math.max(1, word.match(/[аеёиоуыэюяАЕЁИОУЫЭЮЯ]/g)?.length ?? 0);
}

export const readability = defineUtility<Input>({
  id: "readability",
  group: "text",
  title: "Readability score",
  description:
    "Readability indices: Flesch Reading Ease (English, or Oborneva's Russian adaptation), Flesch–Kincaid grade (likewise), Gunning Fog, SMOG, Coleman–Liau and ARI. Flags the longest sentences and words",
  net: false,
  file: false,
  fields: [
    { name: "text", type: "text", label: "Text", required: true },
    { name: "language", type: "sel", label: "Language", options: ["auto", "en", "ru"], default: "auto" },
  ],
  example: {
    text: "The cat sat on the mat. It was a sunny day, and the cat was happy. Readability formulas estimate how difficult a passage is to understand.",
    language: "en",
  },
  async run(i) {
    const { syllable } = await import("syllable");
    const lang = languageOf(i.language, i.text);
    const sentences = sentencesOf(i.text);
    const words = wordsOf(i.text).filter((w) => /\p{L}/u.test(w));
    const syl = (w: string) => (lang === "ru" ? syllablesRu(w) : Math.max(1, syllable(w)));
    const S = Math.max(1, sentences.length);
    const W = Math.max(1, words.length);
    const sylCounts = words.map(syl);
    const Y = sylCounts.reduce((a, b) => a + b, 0);
    const poly = sylCounts.filter((n) => n >= 3).length;
    const letters = words.reduce((a, w) => a + (w.match(/\p{L}/gu)?.length ?? 0), 0);
    const wps = W / S;
    const spw = Y / W;
    const indices =
      lang === "ru"
        ? {
            // I. V. Oborneva's coefficients for Russian (2006).
            flesch_reading_ease: round(206.835 - 1.3 * wps - 60.1 * spw, 1),
            flesch_kincaid_grade: round(0.5 * wps + 8.4 * spw - 15.59, 1),
          }
        : {
            flesch_reading_ease: round(206.835 - 1.015 * wps - 84.6 * spw, 1),
            flesch_kincaid_grade: round(0.39 * wps + 11.8 * spw - 15.59, 1),
          };
    const all = {
      ...indices,
      gunning_fog: round(0.4 * (wps + (100 * poly) / W), 1),
      smog: round(1.043 * Math.sqrt((poly * 30) / S) + 3.1291, 1),
      coleman_liau: round(0.0588 * ((letters / W) * 100) - 0.296 * ((S / W) * 100) - 15.8, 1),
      ari: round(4.71 * (letters / W) + 0.5 * wps - 21.43, 1),
    };
    const longSentences = sentences
      .map((s) => ({ text: s, words: wordsOf(s).length }))
      .sort((a, b) => b.words - a.words)
      .slice(0, 3);
    const longWords = [...new Set(words)].map((w) => ({ word: w, syllables: syl(w) })).sort((a, b) => b.syllables - a.syllables || (a.word < b.word ? -1 : 1)).slice(0, 5);
    const ease = all.flesch_reading_ease;
    const band = ease >= 80 ? "easy" : ease >= 60 ? "plain" : ease >= 30 ? "difficult" : "very difficult";
    return {
      result: { language: lang, sentences: sentences.length, words: words.length, syllables: Y, indices: all, grade: all.flesch_kincaid_grade, band, long_sentences: longSentences, long_words: longWords },
      blocks: {
        pairs: [
          { label: "Flesch Reading Ease", value: String(ease), status: ease >= 60 ? "good" : ease >= 30 ? "warn" : "bad" },
          { label: "Grade (Flesch–Kincaid)", value: String(all.flesch_kincaid_grade) },
          { label: "Reads as", value: band },
        ],
        tables: [
          { title: "Indices", columns: ["index", "value"], rows: Object.entries(all).map(([k, v]) => [k, v]) },
          { title: "Longest sentences", columns: ["words", "sentence"], rows: longSentences.map((s) => [s.words, s.text]) },
        ],
      },
      warnings: lang === "ru" ? [{ code: "formula", text: "Fog, SMOG, Coleman–Liau and ARI use their English coefficients; read them as relative figures for Russian" }] : [],
    };
  },
});
