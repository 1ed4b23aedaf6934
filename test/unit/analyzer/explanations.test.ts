import { describe, expect, it } from "vitest";
import { CHECKS, EXPLANATIONS, type Explanation } from "../../../analyzer/index.ts";

// The explanation texts of GET /explain/{code} (issue 4 §1): one per catalogued check, none
// empty, duplicated or template-identical, each language in its own script.

const CYRILLIC = /\p{Script=Cyrillic}/u;
const MIN_TEXT = 20;
const MIN_NAME = 3;

interface Text {
  code: string;
  lang: "ru" | "en";
  field: string;
  text: string;
}

/** Every text of one explanation, glossary entries one by one, with where it sits. */
function textsOf(code: string, e: Explanation): Text[] {
  const out: Text[] = [];
  for (const lang of ["ru", "en"] as const) {
    const h = e.hint[lang];
    out.push({ code, lang, field: "hint.what", text: h.what }, { code, lang, field: "hint.good", text: h.good }, { code, lang, field: "hint.bad", text: h.bad });
    h.glossary.forEach((g) => out.push({ code, lang, field: "hint.glossary", text: g }));
    const p = e.plain[lang];
    if (p) for (const [field, text] of Object.entries(p)) out.push({ code, lang, field: `plain.${field}`, text });
  }
  return out;
}

const ALL = Object.entries(EXPLANATIONS).flatMap(([code, e]) => textsOf(code, e));
const titleOf = new Map(CHECKS.map((c) => [c.code, c.title]));

/** The text with the check's own code and title words replaced by a placeholder. */
function template(t: Text): string {
  const title = (titleOf.get(t.code) ?? "").toLowerCase();
  const words = [t.code, t.code.replace(/_/g, " "), t.code.replace(/_/g, "-"), ...title.split(/[^\p{L}\p{N}.:/-]+/u)]
    .filter((w) => w.length >= 3)
    .sort((a, b) => b.length - a.length);
  let s = t.text.toLowerCase();
  for (const w of words) s = s.split(w).join("#");
  return s.replace(/\s+/g, " ").trim();
}

/** Texts of two different checks that are equal under `value`, among texts with the same `key`. */
function duplicates(key: (t: Text) => string, value: (t: Text) => string): string[] {
  const seen = new Map<string, Text>();
  const found: string[] = [];
  for (const t of ALL) {
    const k = `${key(t)}\u0000${value(t)}`;
    const first = seen.get(k);
    if (!first) seen.set(k, t);
    else if (first.code !== t.code) found.push(`${t.lang} ${t.field}: ${first.code} and ${t.code}: "${t.text}"`);
  }
  return found;
}

describe("check explanations", () => {
  it("explain every catalogued check, and nothing else", () => {
    const codes = CHECKS.map((c) => c.code);
    expect(codes).toHaveLength(119);
    expect(Object.keys(EXPLANATIONS).sort()).toEqual([...codes].sort());
    expect(EXPLANATIONS["no_such_check"]).toBeUndefined();
    expect(Object.hasOwn(EXPLANATIONS, "toString")).toBe(false);
  });

  it("have hint texts in both languages, plain in Russian, a glossary of \"term — meaning\" and a guide section", () => {
    for (const [code, e] of Object.entries(EXPLANATIONS)) {
      expect(e.hint.ru.glossary.length, code).toBeGreaterThan(0);
      expect(e.hint.en.glossary.length, code).toBe(e.hint.ru.glossary.length);
      expect(e.plain.ru, code).toBeDefined();
      expect(e.guide.url, code).toBe(`/guides/${e.guide.id}#${code}`);
      for (const g of [...e.hint.ru.glossary, ...e.hint.en.glossary]) expect(g, code).toMatch(/^\S.* — \S/);
    }
  });

  it("have no empty or too short text (names at least 3 characters, the rest at least 20)", () => {
    const short = ALL.filter((t) => t.text.trim().length < (t.field === "plain.name" ? MIN_NAME : MIN_TEXT)).map((t) => `${t.code} ${t.lang} ${t.field}: "${t.text}"`);
    expect(short).toEqual([]);
    expect(ALL.length).toBeGreaterThanOrEqual(CHECKS.length * 15);
  });

  it("share no text between two checks within a language and field", () => {
    expect(duplicates((t) => `${t.lang} ${t.field}`, (t) => t.text.trim())).toEqual([]);
  });

  it("share no template-identical text once each check's own code and title words are masked", () => {
    expect(duplicates((t) => t.lang, template)).toEqual([]);
  });

  it("write Russian texts in Cyrillic and English texts mostly in ASCII", () => {
    const notRussian = ALL.filter((t) => t.lang === "ru" && !CYRILLIC.test(t.text)).map((t) => `${t.code} ${t.field}`);
    expect(notRussian).toEqual([]);
    const notEnglish = ALL.filter((t) => {
      if (t.lang !== "en") return false;
      const chars = [...t.text];
      const ascii = chars.filter((ch) => ch.charCodeAt(0) < 128).length;
      return CYRILLIC.test(t.text) || ascii / chars.length < 0.9;
    }).map((t) => `${t.code} ${t.field}`);
    expect(notEnglish).toEqual([]);
  });
});
