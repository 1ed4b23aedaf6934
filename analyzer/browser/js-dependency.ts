// GET /deep/{host}/js: for each page the browser measured, what the raw HTML says against what the
// rendered DOM says, and how much of what a search engine reads exists only after JavaScript.
// Pure: raw facts come from the page extraction, rendered ones from the browser run (RenderedDom).
import type { PageFacts, RenderedDom, SiteFacts } from "../../proto/index.ts";

/** none: JavaScript changes nothing a search engine reads; low, medium, high: see `pageVerdict`. */
export type JsVerdict = "none" | "low" | "medium" | "high";

export interface FieldComparison {
  readonly raw: string;
  readonly rendered: string;
  /** same, added (only after JavaScript), changed, removed (JavaScript took it away). */
  readonly state: "same" | "added" | "changed" | "removed";
}

export interface JsPageReport {
  readonly url: string;
  readonly title: FieldComparison;
  readonly meta_description: FieldComparison;
  readonly canonical: FieldComparison;
  readonly robots: FieldComparison;
  readonly words: { readonly raw: number; readonly rendered: number; readonly js_only: number; readonly js_share: number };
  readonly links: { readonly raw: number; readonly rendered: number; readonly js_only: number; readonly examples: string[] };
  readonly headings: { readonly raw: number; readonly rendered: number; readonly js_only: string[] };
  readonly structured_data: { readonly raw: string[]; readonly rendered: string[]; readonly js_only: string[] };
  /** Words in the rendered DOM that are not visible until a user interacts (collapsed, hidden). */
  readonly hidden_words: number;
  readonly verdict: JsVerdict;
  readonly reasons: string[];
}

export interface JsDependencyReport {
  readonly summary: {
    readonly pages: number;
    readonly by_verdict: Record<JsVerdict, number>;
    readonly js_only_words: number;
    readonly js_only_links: number;
    readonly fields_only_after_js: string[];
    readonly text: string;
  };
  /** The site's: the most severe of its pages' (unknown without a browser run). */
  readonly verdict: JsVerdict | "unknown";
  readonly pages: JsPageReport[];
}

const ORDER: readonly JsVerdict[] = ["none", "low", "medium", "high"];

function compare(raw: string, rendered: string): FieldComparison {
  const r = raw.trim();
  const d = rendered.trim();
  const state = r === d ? "same" : !r ? "added" : !d ? "removed" : "changed";
  return { raw: r, rendered: d, state };
}

function headingKey(h: { level: number; text: string }): string {
  return `h${h.level}: ${h.text.replace(/\s+/g, " ").trim()}`;
}

/** One page: raw facts against the rendered DOM. */
export function comparePage(url: string, raw: PageFacts, rendered: RenderedDom): JsPageReport {
  const title = compare(raw.title, rendered.title);
  const description = compare(raw.metaDescription, rendered.metaDescription);
  const canonical = compare(raw.canonicals[0] ?? "", rendered.canonical);
  const robots = compare(raw.metaRobots, rendered.metaRobots);
  const rawLinks = new Set(raw.links.map((l) => l.href));
  const jsLinks = rendered.links.filter((l) => !rawLinks.has(l));
  const rawHeadings = new Set(raw.headings.filter((h) => h.level <= 3).map(headingKey));
  const renderedHeadings = rendered.headings.map(headingKey);
  const jsHeadings = renderedHeadings.filter((h) => !rawHeadings.has(h));
  const rawTypes = new Set(raw.schemaTypes);
  const jsTypes = rendered.schemaTypes.filter((t) => !rawTypes.has(t));
  const jsWords = Math.max(0, rendered.wordCount - raw.wordCount);
  const share = rendered.wordCount > 0 ? jsWords / rendered.wordCount : 0;
  const linkShare = rendered.links.length > 0 ? jsLinks.length / rendered.links.length : 0;

  const reasons: string[] = [];
  let verdict: JsVerdict = "none";
  const raise = (to: JsVerdict, why: string) => {
    reasons.push(why);
    if (ORDER.indexOf(to) > ORDER.indexOf(verdict)) verdict = to;
  };
  // What decides indexing and the snippet, or most of the text, only after JavaScript: high.
  for (const [name, c] of [["title", title], ["canonical", canonical], ["robots", robots]] as const) if (c.state !== "same") raise("high", `${name} ${c.state} by JavaScript`);
  if (jsHeadings.some((h) => h.startsWith("h1:")) && !raw.headings.some((h) => h.level === 1)) raise("high", "the h1 exists only after JavaScript");
  if (share >= 0.5) raise("high", `${Math.round(share * 100)} % of the text exists only after JavaScript`);
  else if (share >= 0.2) raise("medium", `${Math.round(share * 100)} % of the text exists only after JavaScript`);
  else if (jsWords > 0) raise("low", `${jsWords} words exist only after JavaScript`);
  if (description.state !== "same") raise("medium", `meta description ${description.state} by JavaScript`);
  if (linkShare >= 0.2) raise("medium", `${jsLinks.length} of ${rendered.links.length} links exist only after JavaScript`);
  else if (jsLinks.length > 0) raise("low", `${jsLinks.length} links exist only after JavaScript`);
  if (jsTypes.length > 0) raise("medium", `structured data only after JavaScript: ${jsTypes.join(", ")}`);
  if (jsHeadings.length > 0 && verdict === "none") raise("low", `${jsHeadings.length} headings exist only after JavaScript`);

  return {
    url,
    title,
    meta_description: description,
    canonical,
    robots,
    words: { raw: raw.wordCount, rendered: rendered.wordCount, js_only: jsWords, js_share: Math.round(share * 1000) / 1000 },
    links: { raw: rawLinks.size, rendered: rendered.links.length, js_only: jsLinks.length, examples: jsLinks.slice(0, 5) },
    headings: { raw: rawHeadings.size, rendered: renderedHeadings.length, js_only: jsHeadings.slice(0, 10) },
    structured_data: { raw: [...rawTypes], rendered: rendered.schemaTypes, js_only: jsTypes },
    hidden_words: rendered.hiddenWords,
    verdict,
    reasons,
  };
}

/** The pages of an analysis whose rendered DOM was read, each once (the first profile that read it). */
export function jsDependency(facts: SiteFacts): JsDependencyReport {
  const raws = rawPagesByUrl(facts);
  const seen = new Set<string>();
  const pages: JsPageReport[] = [];
  for (const m of facts.browserPages) {
    const raw = raws.get(m.url);
    if (!raw || !m.rendered?.present || seen.has(m.url)) continue;
    seen.add(m.url);
    pages.push(comparePage(m.url, raw, m.rendered));
  }
  const byVerdict: Record<JsVerdict, number> = { none: 0, low: 0, medium: 0, high: 0 };
  for (const p of pages) byVerdict[p.verdict] += 1;
  const verdict = pages.length === 0 ? "unknown" : pages.reduce<JsVerdict>((v, p) => (ORDER.indexOf(p.verdict) > ORDER.indexOf(v) ? p.verdict : v), "none");
  const fields = new Set<string>();
  for (const p of pages) for (const [name, c] of [["title", p.title], ["meta_description", p.meta_description], ["canonical", p.canonical], ["robots", p.robots]] as const) if (c.state === "added") fields.add(name);
  const jsWords = pages.reduce((s, p) => s + p.words.js_only, 0);
  const jsLinks = pages.reduce((s, p) => s + p.links.js_only, 0);
  return {
    summary: { pages: pages.length, by_verdict: byVerdict, js_only_words: jsWords, js_only_links: jsLinks, fields_only_after_js: [...fields], text: summaryText(verdict, pages.length) },
    verdict,
    pages,
  };
}

function summaryText(verdict: JsVerdict | "unknown", pages: number): string {
  switch (verdict) {
    case "unknown":
      return "No page was rendered in a browser in the latest check: the dependency on JavaScript is unknown.";
    case "none":
      return `JavaScript changes nothing search engines read on the ${pages} rendered page${pages === 1 ? "" : "s"}.`;
    case "low":
      return "Search engines see almost everything without JavaScript; a little text or a few links are added by scripts.";
    case "medium":
      return "A noticeable part of what search engines read (text, links, description or structured data) exists only after JavaScript: it is indexed late, or not at all by engines that do not render.";
    case "high":
      return "What decides indexing (title, canonical, robots, the h1 or most of the text) exists only after JavaScript: engines that do not render see a different page. Render it on the server.";
  }
}

/** Raw facts of the home page and the sample, by the URL the browser loaded (final and requested). */
function rawPagesByUrl(facts: SiteFacts): Map<string, PageFacts> {
  const out = new Map<string, PageFacts>();
  for (const p of [facts.home, ...facts.pages]) {
    if (!p?.response) continue;
    for (const url of [p.response.finalUrl, p.response.requestedUrl]) if (url && !out.has(url)) out.set(url, p);
  }
  return out;
}

