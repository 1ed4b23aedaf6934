import { createRequire } from "node:module";
import type { Stemmer } from "snowball-stemmers";
import { detectLanguage, wordsOf } from "./words.ts";

// Word forms reduced to a shared stem (Snowball, Russian and English), and the stop words of each
// language (stopwords-iso): the basis of keyword density, "water" and keyword grouping.

export type Lang = "ru" | "en";

let loaded: { stemmers: Record<Lang, Stemmer>; stop: Record<Lang, ReadonlySet<string>> } | null = null;

/** The stemmers and stop lists, required on first use (the catalogue loads without them). */
function data() {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const { newStemmer } = require("snowball-stemmers") as typeof import("snowball-stemmers");
  const stopwords = require("stopwords-iso") as Record<string, string[]>;
  loaded = {
    stemmers: { ru: newStemmer("russian"), en: newStemmer("english") },
    stop: { ru: new Set(stopwords.ru), en: new Set(stopwords.en) },
  };
  return loaded;
}

/** Lower case with ё read as е (how Russian text is searched and counted). */
export function normalizeWord(word: string): string {
  return word.toLowerCase().replace(/ё/g, "е");
}

/** The stem of a word: Cyrillic words by the Russian stemmer, others by the English one. */
export function stemOf(word: string): string {
  const w = normalizeWord(word);
  const { stemmers } = data();
  return (/[\u0400-\u04ff]/.test(w) ? stemmers.ru : stemmers.en).stem(w);
}

export function isStopWord(word: string): boolean {
  const w = normalizeWord(word);
  const { stop } = data();
  return stop.ru.has(w) || stop.en.has(w);
}

/** "auto" resolved by the script of the text. */
export function languageOf(choice: string, text: string): Lang {
  return choice === "ru" || choice === "en" ? choice : detectLanguage(text);
}

export interface Token {
  readonly word: string;
  readonly stem: string;
  readonly stop: boolean;
}

export function tokensOf(text: string): Token[] {
  return wordsOf(text)
    .filter((w) => /\p{L}/u.test(w))
    .map((w) => ({ word: normalizeWord(w), stem: stemOf(w), stop: isStopWord(w) }));
}
