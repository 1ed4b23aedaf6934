import type { CheckDef } from "./check.ts";
import { isValidLangTag, scriptContradicts } from "./language-tags.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const htmlLang: CheckDef = {
  code: "html_lang",
  title: "Page language is declared",
  group: "international",
  rankGroup: "presentation",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: 'Set `<html lang="…">` to the BCP 47 code of the page\'s language (e.g. `en`, `ru`, `pt-BR`).',
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const lang = page.lang.trim();
        if (!lang) return { verdict: "fail", why: "no lang attribute" };
        if (!isValidLangTag(lang)) return { verdict: "fail", why: `"${lang}" is not a valid language tag` };
        if (scriptContradicts(lang, page.textSample)) return { verdict: "fail", why: `lang="${lang}" but the text is in another script` };
        return "pass";
      },
      { problem: "<html lang> missing, invalid or not the text's language", none: "no HTML page answered 200" },
    );
  },
};
