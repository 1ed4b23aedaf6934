import { defineUtility } from "../utility.ts";
import { paragraphsOf, sentencesOf, wordsOf } from "../shared/words.ts";

// Reading speed 200 words a minute and speaking 130 (common editorial figures); an author's sheet
// is 40,000 characters with spaces (the Russian publishing unit).
const READ_WPM = 200;
const SPEAK_WPM = 130;
const AUTHOR_SHEET_CHARS = 40_000;
const LIMITS = [
  { name: "title", max: 60 },
  { name: "description", max: 160 },
  { name: "sms_cyrillic", max: 70 },
  { name: "sms_latin", max: 160 },
  { name: "post", max: 280 },
];

export const textStats = defineUtility<{ text: string }>({
  id: "text_stats",
  group: "text",
  title: "Word & character counter",
  description:
    "Counts characters with and without spaces, words, unique words, sentences, paragraphs and lines; reading and speaking time; author's sheets (40,000 chars). Checks the text against common limits (title 60, description 160, SMS 70/160, post 280)",
  net: false,
  file: false,
  fields: [{ name: "text", type: "text", label: "Text", required: true }],
  example: { text: "Привет, мир! Это тест.\n\nSecond paragraph here." },
  run({ text }) {
    const chars = [...text].length;
    const charsNoSpaces = [...text.replace(/\s/gu, "")].length;
    const words = wordsOf(text);
    const unique = new Set(words.map((w) => w.toLowerCase())).size;
    const sentences = sentencesOf(text).length;
    const paragraphs = paragraphsOf(text).length;
    const lines = text.split(/\r?\n/).length;
    const readS = Math.round((words.length / READ_WPM) * 60);
    const speakS = Math.round((words.length / SPEAK_WPM) * 60);
    const limits = LIMITS.map((l) => ({ name: l.name, max: l.max, fits: chars <= l.max }));
    return {
      result: {
        chars,
        chars_no_spaces: charsNoSpaces,
        words: words.length,
        unique_words: unique,
        sentences,
        paragraphs,
        lines,
        read_s: readS,
        speak_s: speakS,
        author_sheets: Math.round((chars / AUTHOR_SHEET_CHARS) * 1000) / 1000,
        limits,
      },
      blocks: {
        pairs: [
          { label: "Characters", value: String(chars) },
          { label: "Without spaces", value: String(charsNoSpaces) },
          { label: "Words", value: String(words.length) },
          { label: "Unique words", value: String(unique) },
          { label: "Sentences", value: String(sentences) },
          { label: "Paragraphs", value: String(paragraphs) },
          { label: "Reading time", value: `${readS} s` },
        ],
        tables: [{ title: "Limits", columns: ["limit", "max", "fits"], rows: limits.map((l) => [l.name, l.max, l.fits]) }],
      },
    };
  },
});
