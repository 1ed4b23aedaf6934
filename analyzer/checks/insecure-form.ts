import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

export const insecureForm: CheckDef = {
  code: "insecure_form",
  title: "Forms submit over HTTPS",
  group: "security",
  rankGroup: "security",
  level: "warn",
  weight: 3,
  effort: 2,
  recheck: true,
  hint: "Point every `<form action>` at an https:// URL and serve pages with forms over HTTPS, so what visitors type is never sent in clear text.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ url, page }) => {
        if (page.formsInsecureAction > 0) return { verdict: "fail", why: `${page.formsInsecureAction} form(s) post to http://` };
        if (page.forms > 0 && url.startsWith("http://")) return { verdict: "fail", why: "form on an http:// page" };
        return "pass";
      },
      { problem: "form data sent without encryption", none: "no HTML page answered 200" },
    );
  },
};
