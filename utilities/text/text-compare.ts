import type { Change } from "diff";
import { defineUtility } from "../utility.ts";
import { normalizeWord } from "../shared/lemmas.ts";
import { wordsOf } from "../shared/words.ts";
import { round } from "../shared/numbers.ts";

interface Input {
  text_a: string;
  text_b: string;
  unit: "words" | "lines" | "chars";
  shingle: number;
}

const MAX_DIFF_PARTS = 2000;

/** The set of w-shingles (runs of w consecutive words) of a text. */
function shingles(text: string, w: number): Set<string> {
  const words = wordsOf(text).map(normalizeWord);
  const out = new Set<string>();
  if (words.length > 0 && words.length < w) out.add(words.join(" "));
  for (let i = 0; i + w <= words.length; i++) out.add(words.slice(i, i + w).join(" "));
  return out;
}

export const textCompare = defineUtility<Input>({
  id: "text_compare",
  group: "text",
  title: "Text compare & similarity",
  description:
    "Compares two texts with a word, line or character diff and a similarity score from w-shingles (Jaccard), e.g. a rewrite against the original. No web plagiarism search",
  net: false,
  file: false,
  fields: [
    { name: "text_a", type: "text", label: "Original", required: true },
    { name: "text_b", type: "text", label: "Changed", required: true },
    { name: "unit", type: "sel", label: "Diff by", options: ["words", "lines", "chars"], default: "words" },
    { name: "shingle", type: "int", label: "Shingle length, words", default: 4, min: 3, max: 10 },
  ],
  example: { text_a: "The quick brown fox jumps over the lazy dog today", text_b: "The quick brown fox leaps over the lazy dog today", unit: "words", shingle: 3 },
  async run(i) {
    const { diffChars, diffLines, diffWords } = await import("diff");
    const a = shingles(i.text_a, i.shingle);
    const b = shingles(i.text_b, i.shingle);
    let shared = 0;
    for (const s of a) if (b.has(s)) shared++;
    const union = a.size + b.size - shared;
    const similarity = union === 0 ? 100 : round((shared / union) * 100, 1);
    const parts: Change[] = i.unit === "lines" ? diffLines(i.text_a, i.text_b) : i.unit === "chars" ? diffChars(i.text_a, i.text_b) : diffWords(i.text_a, i.text_b);
    const count = (p: Change) => (i.unit === "lines" ? (p.count ?? 1) : i.unit === "chars" ? p.value.length : wordsOf(p.value).length);
    const added = parts.filter((p) => p.added).reduce((n, p) => n + count(p), 0);
    const removed = parts.filter((p) => p.removed).reduce((n, p) => n + count(p), 0);
    const diff = parts.slice(0, MAX_DIFF_PARTS).map((p) => ({ op: p.added ? "+" : p.removed ? "-" : "=", text: p.value }));
    const marked = parts.map((p) => (p.added ? `{+${p.value}+}` : p.removed ? `[-${p.value}-]` : p.value)).join("");
    return {
      result: { similarity_pct: similarity, shingles_a: a.size, shingles_b: b.size, shared, added, removed, diff },
      blocks: {
        pairs: [
          { label: "Similarity (shingles)", value: `${similarity} %` },
          { label: `Added ${i.unit}`, value: String(added) },
          { label: `Removed ${i.unit}`, value: String(removed) },
        ],
        comparison: [{ before: i.text_a, after: i.text_b, mode: "diff" }],
        code: [{ lang: "diff", text: marked }],
      },
      warnings: parts.length > MAX_DIFF_PARTS ? [{ code: "truncated", text: `the diff lists its first ${MAX_DIFF_PARTS} parts` }] : [],
    };
  },
});
