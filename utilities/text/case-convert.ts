import { defineUtility } from "../utility.ts";

type Mode = "upper" | "lower" | "sentence" | "title" | "camel" | "pascal" | "snake" | "kebab" | "constant" | "inverse" | "fix_caps";

interface Input {
  text: string;
  mode: Mode;
}

/** Words a title keeps in lower case unless first or last (Chicago-style English rules). */
const SMALL = new Set(["a", "an", "the", "and", "but", "or", "nor", "for", "so", "yet", "as", "at", "by", "in", "of", "off", "on", "per", "to", "up", "via", "vs"]);

const cap = (w: string) => (w === "" ? w : (w[0] as string).toLocaleUpperCase() + w.slice(1));

/** Identifier words: split at non-alphanumerics and at lower→upper and letter↔digit boundaries. */
function idWords(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.toLocaleLowerCase());
}

function title(text: string): string {
  const parts = text.toLocaleLowerCase().split(/(\s+)/);
  const wordIdx = parts.map((p, n) => (/\S/.test(p) ? n : -1)).filter((n) => n >= 0);
  const first = wordIdx[0];
  const last = wordIdx[wordIdx.length - 1];
  return parts
    .map((p, n) => {
      if (!/\S/.test(p)) return p;
      const bare = p.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
      const afterColon = /[:.!?]$/.test(parts[n - 2] ?? "");
      if (n !== first && n !== last && !afterColon && SMALL.has(bare)) return p;
      // Hyphenated compounds capitalise each part; a leading quote or bracket is kept.
      return p.split("-").map((seg) => seg.replace(/\p{L}/u, (c) => c.toLocaleUpperCase())).join("-");
    })
    .join("");
}

function sentence(text: string): string {
  return text.toLocaleLowerCase().replace(/(^\s*|[.!?…]\s+)(\p{L})/gu, (_m, pre: string, c: string) => pre + c.toLocaleUpperCase());
}

function invert(s: string): string {
  return [...s].map((c) => (c === c.toLocaleUpperCase() ? c.toLocaleLowerCase() : c.toLocaleUpperCase())).join("");
}

/** Words typed with Caps Lock on (пРИВЕТ, hELLO) are inverted; others are left alone. */
function fixCaps(text: string): string {
  return text.replace(/\p{L}+/gu, (w) => (w.length > 1 && /^\p{Ll}\p{Lu}+$/u.test(w) ? invert(w) : w));
}

const MODES: Record<Mode, (t: string) => string> = {
  upper: (t) => t.toLocaleUpperCase(),
  lower: (t) => t.toLocaleLowerCase(),
  sentence,
  title,
  camel: (t) => idWords(t).map((w, n) => (n === 0 ? w : cap(w))).join(""),
  pascal: (t) => idWords(t).map(cap).join(""),
  snake: (t) => idWords(t).join("_"),
  kebab: (t) => idWords(t).join("-"),
  constant: (t) => idWords(t).join("_").toLocaleUpperCase(),
  inverse: invert,
  fix_caps: fixCaps,
};

export const caseConvert = defineUtility<Input>({
  id: "case_convert",
  group: "text",
  title: "Case converter",
  description: "UPPER, lower, Sentence case, Title Case (English rules), camelCase, PascalCase, snake_case, kebab-case, CONSTANT_CASE, inverse, fix Caps Lock",
  net: false,
  file: false,
  fields: [
    { name: "text", type: "text", label: "Text", required: true },
    { name: "mode", type: "sel", label: "Convert to", required: true, options: Object.keys(MODES) },
  ],
  example: { text: "the lord of the rings: the return of the king", mode: "title" },
  run(i) {
    const text = MODES[i.mode](i.text);
    return { result: { text }, blocks: { code: [{ lang: "text", text }] } };
  },
});
