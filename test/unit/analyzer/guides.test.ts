import { describe, expect, it } from "vitest";
import { CHECKS, checksCount, EXPLANATIONS, GUIDE_OF, GUIDES, renderGuideIndex, renderGuidePage, type Guide, type GuideSection } from "../../../analyzer/index.ts";

// The guide pages (GET /guides/{id}): every catalogued check in exactly one guide, each section
// written for its check — none empty, duplicated or template-identical — and rendered escaped.

const CYRILLIC = /\p{Script=Cyrillic}/gu;
const HAS_CYRILLIC = /\p{Script=Cyrillic}/u;
/** Russian letters a section's prose must hold at least (examples excluded). */
const MIN_RUSSIAN_LETTERS = 300;
const MIN_FIELD = 80;
const PROSE = ["problem", "rule", "fix", "verify"] as const;

const SECTIONS = GUIDES.flatMap((g) => g.sections.map((s) => ({ guide: g, s })));
const titleOf = new Map(CHECKS.map((c) => [c.code, c.title]));

/** The text with the check's own code, title words and heading words replaced by a placeholder. */
function template(s: GuideSection, text: string): string {
  const own = `${titleOf.get(s.code) ?? ""} ${s.heading}`.toLowerCase();
  const words = [s.code, s.code.replace(/_/g, " "), s.code.replace(/_/g, "-"), ...own.split(/[^\p{L}\p{N}.:/-]+/u)]
    .filter((w) => w.length >= 3)
    .sort((a, b) => b.length - a.length);
  let out = text.toLowerCase();
  for (const w of words) out = out.split(w).join("#");
  return out.replace(/\s+/g, " ").trim();
}

/** Pairs of different sections equal under `value`, as readable lines. */
function clashes(value: (s: GuideSection) => string[]): string[] {
  const seen = new Map<string, string>();
  const found: string[] = [];
  for (const { s } of SECTIONS) {
    for (const v of value(s)) {
      const first = seen.get(v);
      if (first === undefined) seen.set(v, s.code);
      else if (first !== s.code) found.push(`${first} and ${s.code}: "${v.slice(0, 80)}"`);
    }
  }
  return found;
}

describe("the guides catalogue", () => {
  it("places every catalogued check in exactly one guide, and nothing else", () => {
    const codes = CHECKS.map((c) => c.code);
    expect(codes).toHaveLength(119);
    const covered = SECTIONS.map(({ s }) => s.code);
    expect([...covered].sort()).toEqual([...codes].sort());
    expect(new Set(covered).size).toBe(covered.length);
    for (const code of codes) expect(GUIDE_OF.get(code)?.sections.some((s) => s.code === code), code).toBe(true);
    expect(GUIDE_OF.has("no_such_check")).toBe(false);
  });

  it("has 20 to 30 guides with kebab-case ids, each covering at least one check", () => {
    expect(GUIDES.length).toBeGreaterThanOrEqual(20);
    expect(GUIDES.length).toBeLessThanOrEqual(30);
    const ids = GUIDES.map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const g of GUIDES) {
      expect(g.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(g.sections.length, g.id).toBeGreaterThan(0);
    }
  });

  it("renders each check's section on its guide's page, anchored by the check's code", () => {
    for (const g of GUIDES) {
      const page = renderGuidePage(g);
      for (const s of g.sections) expect(page, `${g.id}#${s.code}`).toContain(`<section id="${s.code}">`);
    }
  });

  it("gives every explanation the reference of its guide section", () => {
    for (const c of CHECKS) {
      const g = GUIDE_OF.get(c.code) as Guide;
      expect(EXPLANATIONS[c.code]?.guide, c.code).toEqual({ id: g.id, title: g.title, url: `/guides/${g.id}#${c.code}` });
    }
  });
});

describe("the guide texts", () => {
  it("have no empty title, intro, heading, prose field, caption or example", () => {
    const empty: string[] = [];
    for (const g of GUIDES) {
      if (!g.title.trim() || !g.intro.trim()) empty.push(g.id);
      for (const s of g.sections) {
        for (const [field, text] of [["heading", s.heading], ...PROSE.map((f) => [f, s[f]])]) if (!text?.trim()) empty.push(`${s.code} ${field}`);
        if (s.examples.length === 0) empty.push(`${s.code} examples`);
        for (const e of s.examples) if (!e.caption.trim() || !e.code.trim()) empty.push(`${s.code} example`);
      }
    }
    expect(empty).toEqual([]);
  });

  it("write each section in Russian: at least 300 Cyrillic letters of prose, each field a paragraph", () => {
    const thin: string[] = [];
    for (const { s } of SECTIONS) {
      const prose = PROSE.map((f) => s[f]).join(" ");
      const letters = (prose.match(CYRILLIC) ?? []).length;
      if (letters < MIN_RUSSIAN_LETTERS) thin.push(`${s.code}: ${letters} letters`);
      for (const f of PROSE) if (s[f].trim().length < MIN_FIELD) thin.push(`${s.code} ${f}: ${s[f].length} characters`);
      if (!HAS_CYRILLIC.test(s.heading)) thin.push(`${s.code} heading`);
    }
    for (const g of GUIDES) if (!HAS_CYRILLIC.test(g.title) || (g.intro.match(CYRILLIC) ?? []).length < 150) thin.push(`${g.id} title or intro`);
    expect(thin).toEqual([]);
  });

  it("share no text between two sections, field by field or as a whole", () => {
    expect(clashes((s) => PROSE.map((f) => s[f].trim()))).toEqual([]);
    expect(clashes((s) => [s.heading.trim()])).toEqual([]);
    expect(clashes((s) => [PROSE.map((f) => s[f]).join("\n")])).toEqual([]);
    const titles = GUIDES.map((g) => g.title);
    const intros = GUIDES.map((g) => g.intro);
    expect(new Set(titles).size).toBe(titles.length);
    expect(new Set(intros).size).toBe(intros.length);
  });

  it("share no template-identical text once each check's own code, title and heading words are masked", () => {
    expect(clashes((s) => PROSE.map((f) => template(s, s[f])))).toEqual([]);
    expect(clashes((s) => [template(s, PROSE.map((f) => s[f]).join("\n"))])).toEqual([]);
  });
});

describe("the guide renderer", () => {
  const guide: Guide = {
    id: "test-guide",
    title: "Проверка <экранирования> & «кавычек»",
    intro: "Вступление с `<code>` и амперсандом: A & B.\n\nВторой абзац.",
    sections: [
      {
        code: "title_present",
        heading: "Тег <title> & его \"друзья\"",
        problem: "Текст с <script>alert(1)</script> внутри.",
        rule: "Порог `x < 20 && y > 60` в коде.",
        fix: "Исправление.",
        examples: [{ caption: "nginx <conf>", code: "if ($a < 1 && $b > 2) { return 'ok'; }" }],
        verify: "Проверка.",
      },
    ],
  };

  it("escapes every piece of data and marks `code` and paragraphs", () => {
    const page = renderGuidePage(guide);
    expect(page.startsWith('<!DOCTYPE html>\n<html lang="ru">\n')).toBe(true);
    expect(page).toContain("<title>Проверка &lt;экранирования&gt; &amp; «кавычек» — руководства Svc</title>");
    expect(page).toContain("<h1>Проверка &lt;экранирования&gt; &amp; «кавычек»</h1>");
    expect(page).toContain("<p>Вступление с <code>&lt;code&gt;</code> и амперсандом: A &amp; B.</p>\n<p>Второй абзац.</p>");
    expect(page).toContain('<section id="title_present">\n<h2>Тег &lt;title&gt; &amp; его &quot;друзья&quot;</h2>');
    expect(page).toContain("<p>Текст с &lt;script&gt;alert(1)&lt;/script&gt; внутри.</p>");
    expect(page).toContain("<p>Порог <code>x &lt; 20 &amp;&amp; y &gt; 60</code> в коде.</p>");
    expect(page).toContain("<figure><figcaption>nginx &lt;conf&gt;</figcaption><pre><code>if ($a &lt; 1 &amp;&amp; $b &gt; 2) { return &#39;ok&#39;; }</code></pre></figure>");
    expect(page).not.toContain("<script>");
    expect(page).toContain('<li><a href="#title_present">Тег &lt;title&gt; &amp; его &quot;друзья&quot;</a> <code>title_present</code></li>');
  });

  it("lists the guides with links to their pages and sections", () => {
    const index = renderGuideIndex([guide]);
    expect(index).toContain('<a href="/guides/test-guide">Проверка &lt;экранирования&gt; &amp; «кавычек»</a>');
    expect(index).toContain('<a href="/guides/test-guide#title_present">Тег &lt;title&gt; &amp; его &quot;друзья&quot;</a>');
    expect(index).toContain("(1 проверка)");
    expect(index).toContain("<p>Руководств: 1, проверок в них: 1.</p>");
  });

  it("counts checks in Russian", () => {
    expect([1, 2, 4, 5, 11, 14, 21, 22, 25, 101, 112, 118].map(checksCount)).toEqual([
      "1 проверка",
      "2 проверки",
      "4 проверки",
      "5 проверок",
      "11 проверок",
      "14 проверок",
      "21 проверка",
      "22 проверки",
      "25 проверок",
      "101 проверка",
      "112 проверок",
      "118 проверок",
    ]);
  });
});
