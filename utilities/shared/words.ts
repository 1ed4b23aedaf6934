// Word and sentence segmentation shared by the text utilities: Intl.Segmenter (full ICU in Node
// 20) handles Russian, English and other scripts alike.

const WORDS = new Intl.Segmenter("ru", { granularity: "word" });
const SENTENCES = new Intl.Segmenter("ru", { granularity: "sentence" });

/** The words of a text, as written (numbers count as words). */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const s of WORDS.segment(text)) if (s.isWordLike) out.push(s.segment);
  return out;
}

/** The sentences of a text that contain at least one word. */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const s of SENTENCES.segment(text)) {
    const t = s.segment.trim();
    if (t !== "" && /[\p{L}\p{N}]/u.test(t)) out.push(t);
  }
  return out;
}

/** Paragraphs: blocks separated by an empty line (or single lines when there are no empty lines). */
export function paragraphsOf(text: string): string[] {
  return text.split(/\r?\n\s*\r?\n/).map((p) => p.trim()).filter((p) => p !== "");
}

/** "ru" when Cyrillic letters outnumber Latin ones, else "en". */
export function detectLanguage(text: string): "ru" | "en" {
  const cyr = text.match(/[\u0400-\u04ff]/g)?.length ?? 0;
  const lat = text.match(/[a-z]/gi)?.length ?? 0;
  return cyr > lat ? "ru" : "en";
}
