import type NSpellModule from "nspell";
import { defineUtility, type Warning } from "../utility.ts";

interface Input {
  text: string;
  language: "auto" | "ru" | "en" | "ru+en";
  ignore?: string[];
}

type Lang = "ru" | "en";
type NSpell = ReturnType<typeof NSpellModule>;

// Hunspell dictionaries (dictionary-ru 3.0, dictionary-en 4.0) under nspell 2.1. Building the
// Russian one takes seconds and a few hundred MB, so it is built once per thread and kept: the
// gateway runs this utility in a thread of its own that builds both before it takes runs
// (docs/utilities.md, "spell_check"); a direct call builds what it needs on first use.
const spellers = new Map<Lang, Promise<NSpell>>();

function speller(lang: Lang): Promise<NSpell> {
  let s = spellers.get(lang);
  if (!s) {
    s = (async () => {
      const { default: nspell } = await import("nspell");
      const dict = lang === "ru" ? (await import("dictionary-ru")).default : (await import("dictionary-en")).default;
      return nspell({ aff: Buffer.from(dict.aff), dic: Buffer.from(dict.dic) });
    })();
    spellers.set(lang, s);
  }
  return s;
}

/** Builds both dictionaries (the dedicated thread calls it before taking runs). */
export async function warmSpellers(): Promise<void> {
  await speller("en");
  await speller("ru");
}

const MAX_SUGGESTED = 200;
const SUGGESTIONS = 5;

/** Words with their positions; URLs, e-mail addresses and words with digits are left out. */
function words(text: string): { word: string; at: number }[] {
  const masked = text.replace(/\b(?:https?:\/\/|www\.)\S+|\S+@\S+\.\S+/giu, (m) => " ".repeat(m.length));
  const out: { word: string; at: number }[] = [];
  for (const m of masked.matchAll(/[\p{L}\p{M}\d]+(?:['’-][\p{L}\p{M}\d]+)*/gu)) {
    const word = m[0];
    if (/\d/.test(word)) continue;
    // Abbreviations (НДС, HTML) and single letters are not spelled.
    if (word.length < 2 || (word === word.toUpperCase() && word.length <= 6 && /\p{Lu}/u.test(word))) continue;
    out.push({ word, at: m.index });
  }
  return out;
}

function scriptOf(word: string): Lang | null {
  const cyr = /\p{Script=Cyrillic}/u.test(word);
  const lat = /\p{Script=Latin}/u.test(word);
  if (cyr && !lat) return "ru";
  if (lat && !cyr) return "en";
  return null;
}

function correct(s: NSpell, word: string): boolean {
  if (s.correct(word)) return true;
  // ё/е: texts write е for ё and the dictionary may list either.
  if (/[ёЁ]/.test(word) && s.correct(word.replace(/ё/g, "е").replace(/Ё/g, "Е"))) return true;
  const lower = word.toLowerCase();
  return lower !== word && s.correct(lower);
}

export const spellCheck = defineUtility<Input>({
  id: "spell_check",
  group: "text",
  title: "Spell checker (RU/EN)",
  description: "Checks spelling in Russian and English with Hunspell dictionaries: misspellings with positions and suggestions, an ignore list, ё/е tolerant. Grammar is not checked",
  net: false,
  file: false,
  fields: [
    { name: "text", type: "text", label: "Text", required: true, max: 100_000 },
    { name: "language", type: "sel", label: "Language", options: ["auto", "ru", "en", "ru+en"], default: "auto" },
    { name: "ignore", type: "list", label: "Words to accept (one a line)", max: 500 },
  ],
  example: { text: "Превед, мир! This sentense has an eror.", language: "auto" },
  ownThread: true,
  memoryMb: 1024,
  warmUp: warmSpellers,
  async run(input) {
    const ignore = new Set((input.ignore ?? []).map((w) => w.toLowerCase()));
    const langs: Lang[] = input.language === "ru" ? ["ru"] : input.language === "en" ? ["en"] : ["ru", "en"];
    const loaded = new Map<Lang, NSpell>();
    for (const l of langs) loaded.set(l, await speller(l));
    const found = new Map<string, { word: string; lang: Lang; positions: number[] }>();
    let checked = 0;
    for (const { word, at } of words(input.text)) {
      const lang = scriptOf(word);
      const s = lang ? loaded.get(lang) : undefined;
      if (!lang || !s || ignore.has(word.toLowerCase())) continue;
      checked += 1;
      if (correct(s, word)) continue;
      const entry = found.get(word) ?? { word, lang, positions: [] };
      entry.positions.push(at);
      found.set(word, entry);
    }
    const warnings: Warning[] = [];
    const list = [...found.values()];
    if (list.length > MAX_SUGGESTED) warnings.push({ code: "suggestions_cut", text: `${list.length} distinct misspellings; suggestions are given for the first ${MAX_SUGGESTED}` });
    const errors = list.map((e, i) => ({
      word: e.word,
      language: e.lang,
      count: e.positions.length,
      positions: e.positions,
      suggestions: i < MAX_SUGGESTED ? (loaded.get(e.lang) as NSpell).suggest(e.word).slice(0, SUGGESTIONS) : [],
    }));
    return {
      result: { words_checked: checked, errors },
      blocks: {
        pairs: [
          { label: "Words checked", value: String(checked) },
          { label: "Misspellings", value: String(errors.length), status: errors.length > 0 ? "warn" : "good" },
        ],
        tables: [{ title: "Misspellings", columns: ["Word", "Language", "Count", "Positions", "Suggestions"], rows: errors.map((e) => [e.word, e.language, e.count, e.positions.join(", "), e.suggestions.join(", ")]) }],
      },
      warnings,
    };
  },
});
