import { defineUtility } from "../utility.ts";
import { htmlToText, looksLikeHtml } from "../shared/html-text.ts";

const OPS = ["strip_html", "nbsp", "zero_width", "collapse_spaces", "collapse_newlines", "quotes", "dashes", "ellipsis", "emoji", "nfc", "mixed_script"] as const;
type Op = (typeof OPS)[number];
const DEFAULT_OPS: Op[] = ["nbsp", "zero_width", "strip_html", "collapse_spaces", "collapse_newlines", "nfc", "mixed_script"];

interface Input {
  text: string;
  ops: Op[];
}

/** Latin letters that look like Cyrillic ones, and back. */
const LAT_TO_CYR: Record<string, string> = { a: "а", c: "с", e: "е", o: "о", p: "р", x: "х", y: "у", A: "А", B: "В", C: "С", E: "Е", H: "Н", K: "К", M: "М", O: "О", P: "Р", T: "Т", X: "Х" };
const CYR_TO_LAT: Record<string, string> = Object.fromEntries(Object.entries(LAT_TO_CYR).map(([l, c]) => [c, l]));

interface Found {
  kind: string;
  count: number;
  examples: string[];
}

export const textCleaner = defineUtility<Input>({
  id: "text_cleaner",
  group: "text",
  title: "Text cleaner",
  description:
    "Cleans pasted text: strips HTML but keeps paragraphs, collapses spaces and line breaks, removes non-breaking and zero-width characters, normalises quotes, dashes and ellipses, removes emoji, applies Unicode NFC. Finds and fixes Latin look-alike letters inside Cyrillic words and the reverse",
  net: false,
  file: false,
  fields: [
    { name: "text", type: "text", label: "Text or HTML", required: true },
    { name: "ops", type: "multi", label: "Clean-ups", options: OPS, default: DEFAULT_OPS },
  ],
  example: { text: "<p>Привет,\u00a0мир!</p>\n\n\n<p>Это  тeкст с\u200b латинской «е».</p>" },
  run(i) {
    let text = i.text;
    const found: Found[] = [];
    const note = (kind: string, matches: string[]) => {
      if (matches.length > 0) found.push({ kind, count: matches.length, examples: [...new Set(matches)].slice(0, 5) });
    };
    const replace = (kind: string, re: RegExp, to: string | ((m: string) => string)) => {
      note(kind, text.match(re) ?? []);
      text = typeof to === "string" ? text.replace(re, to) : text.replace(re, to);
    };
    for (const op of i.ops) {
      switch (op) {
        case "strip_html":
          if (looksLikeHtml(text)) {
            note("html_tags", text.match(/<[^>]+>/g) ?? []);
            text = htmlToText(text);
          }
          break;
        case "nbsp":
          replace("nbsp", /[\u00a0\u202f\u2007]/g, " ");
          break;
        case "zero_width":
          replace("zero_width", /[\u200b-\u200d\u2060\ufeff\u00ad]/g, "");
          break;
        case "collapse_spaces":
          replace("extra_spaces", /[ \t]{2,}/g, " ");
          text = text.replace(/[ \t]+$/gm, "").replace(/^[ \t]+/gm, "");
          break;
        case "collapse_newlines":
          replace("extra_newlines", /\n{3,}/g, "\n\n");
          break;
        case "quotes":
          replace("quotes", /[«»„“”‟″]/g, '"');
          replace("apostrophes", /[‘’‚‛′]/g, "'");
          break;
        case "dashes":
          replace("dashes", /[‐‑‒–—―]/g, (m) => (m === "—" || m === "―" ? "-" : "-"));
          break;
        case "ellipsis":
          replace("ellipsis", /…/g, "...");
          break;
        case "emoji":
          replace("emoji", /[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}\u{FE0F}\u{200D}]/gu, "");
          break;
        case "nfc": {
          const nfc = text.normalize("NFC");
          if (nfc !== text) found.push({ kind: "not_nfc", count: 1, examples: [] });
          text = nfc;
          break;
        }
        case "mixed_script": {
          const fixed: string[] = [];
          text = text.replace(/[\p{L}]+/gu, (w) => {
            const cyr = (w.match(/[\u0400-\u04ff]/g) ?? []).length;
            const lat = (w.match(/[A-Za-z]/g) ?? []).length;
            if (cyr === 0 || lat === 0) return w;
            // The script of the letters that have no look-alike decides; failing that, the majority.
            const plainCyr = (w.match(/[\u0400-\u04ff]/g) ?? []).filter((c) => !(c in CYR_TO_LAT)).length;
            const plainLat = (w.match(/[A-Za-z]/g) ?? []).filter((c) => !(c in LAT_TO_CYR)).length;
            const toCyr = plainCyr !== plainLat ? plainCyr > plainLat : cyr >= lat;
            const map = toCyr ? LAT_TO_CYR : CYR_TO_LAT;
            const out = [...w].map((c) => map[c] ?? c).join("");
            if (out !== w) fixed.push(w);
            return out;
          });
          note("mixed_script", fixed);
          break;
        }
      }
    }
    text = text.trim();
    return {
      result: { text, found },
      blocks: {
        code: [{ lang: "text", text }],
        tables: [{ title: "Found and fixed", columns: ["kind", "count", "examples"], rows: found.map((f) => [f.kind, f.count, f.examples.join(", ")]) }],
      },
    };
  },
});
