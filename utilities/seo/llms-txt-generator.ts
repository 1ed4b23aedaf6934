import { UtilityError, defineUtility, type Warning } from "../utility.ts";

interface Input {
  site_name?: string;
  summary?: string;
  links?: string[];
  mode: "generate" | "validate";
  text?: string;
}

/** Lints an llms.txt against llmstxt.org: an H1 first, an optional > summary, then ## sections of "- [title](url): note" links. */
export function lintLlmsTxt(text: string): { problems: { line: number; problem: string }[]; sections: number; links: number } {
  const problems: { line: number; problem: string }[] = [];
  const lines = text.split(/\r?\n/);
  let sections = 0;
  let links = 0;
  const firstLine = lines.findIndex((l) => l.trim() !== "");
  if (firstLine < 0 || !/^# \S/.test(lines[firstLine] as string)) problems.push({ line: firstLine + 1, problem: "the file must start with an H1: # Name" });
  lines.forEach((raw, n) => {
    const l = raw.trim();
    if (n !== firstLine && /^# /.test(l)) problems.push({ line: n + 1, problem: "only one H1 is allowed" });
    if (/^## /.test(l)) sections++;
    if (/^#{3,} /.test(l)) problems.push({ line: n + 1, problem: "sections are H2 (##); deeper headings are not part of the format" });
    if (/^[-*] /.test(l)) {
      const m = /^[-*] \[([^\]]+)\]\(([^)\s]+)\)(?::\s*(.*))?$/.exec(l);
      if (!m) problems.push({ line: n + 1, problem: 'a list item is "- [title](url): note"' });
      else {
        links++;
        if (!/^https?:\/\//.test(m[2] as string)) problems.push({ line: n + 1, problem: `the link ${m[2]} is not an absolute URL` });
        if (sections === 0) problems.push({ line: n + 1, problem: "links belong under a ## section" });
      }
    }
  });
  if (links === 0) problems.push({ line: 0, problem: "no links: an llms.txt lists the pages a model should read" });
  return { problems, sections, links };
}

export const llmsTxtGenerator = defineUtility<Input>({
  id: "llms_txt_generator",
  group: "seo",
  title: "llms.txt generator & linter",
  description: "Builds /llms.txt (H1 name, > summary, ## sections of links with notes) from a site name, a summary and a URL list, or lints an existing file",
  net: false,
  file: false,
  fields: [
    { name: "site_name", type: "str", label: "Site name", max: 200 },
    { name: "summary", type: "str", label: "Summary", max: 2000 },
    { name: "links", type: "list", label: '"section | url | title | note" per line', max: 1000 },
    { name: "mode", type: "sel", label: "Mode", options: ["generate", "validate"], default: "generate" },
    { name: "text", type: "text", label: "An llms.txt to lint (validate)", max: 500_000 },
  ],
  example: {
    site_name: "МебельПро",
    summary: "Интернет-магазин мебели: диваны, кресла и шкафы с доставкой по Москве.",
    links: ["Каталог | https://mebelpro.ru/divany/ | Диваны | все модели с ценами", "Каталог | https://mebelpro.ru/kresla/ | Кресла", "Покупателям | https://mebelpro.ru/dostavka/ | Доставка | сроки и стоимость"],
  },
  run(i) {
    if (i.mode === "validate") {
      if (i.text === undefined) throw new UtilityError("bad_param", "input.text is required in validate mode", "input.text");
      const lint = lintLlmsTxt(i.text);
      return {
        result: { text: i.text, ...lint },
        blocks: { tables: [{ title: "Problems", columns: ["line", "problem"], rows: lint.problems.map((p) => [p.line, p.problem]) }], pairs: [{ label: "Verdict", value: lint.problems.length === 0 ? "valid" : `${lint.problems.length} problem(s)`, status: lint.problems.length === 0 ? "good" : "warn" }] },
      };
    }
    if (!i.site_name) throw new UtilityError("bad_param", "input.site_name is required in generate mode", "input.site_name");
    const sections = new Map<string, string[]>();
    const warnings: Warning[] = [];
    for (const line of i.links ?? []) {
      const [section = "", url = "", title, note] = line.split("|").map((s) => s.trim());
      if (!section || !/^https?:\/\//.test(url)) throw new UtilityError("bad_param", `input.links has "${line}"; each line is "section | url | title | note"`, "input.links");
      const name = title || new URL(url).pathname;
      sections.set(section, [...(sections.get(section) ?? []), `- [${name}](${url})${note ? `: ${note}` : ""}`]);
    }
    if (sections.size === 0) warnings.push({ code: "no_links", text: "no links: add the pages a model should read" });
    const parts = [`# ${i.site_name}`];
    if (i.summary) parts.push(`> ${i.summary.replace(/\s*\n\s*/g, " ")}`);
    for (const [name, items] of sections) parts.push(`## ${name}\n\n${items.join("\n")}`);
    const text = `${parts.join("\n\n")}\n`;
    const lint = lintLlmsTxt(text);
    return { result: { text, ...lint }, blocks: { code: [{ lang: "markdown", text, filename: "llms.txt" }] }, warnings };
  },
});
