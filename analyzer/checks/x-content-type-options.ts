import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";
import { header } from "./response.ts";

export const xContentTypeOptions: CheckDef = {
  code: "x_content_type_options",
  title: "X-Content-Type-Options is nosniff",
  group: "security",
  rankGroup: "security",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: "Send `X-Content-Type-Options: nosniff` with every response so browsers never run a file as a script or style against its declared type.",
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const value = header(page.response, "x-content-type-options");
        if (value === undefined) return { verdict: "fail", why: "no X-Content-Type-Options" };
        return value.split(",")[0]?.trim().toLowerCase() === "nosniff" ? "pass" : { verdict: "fail", why: `X-Content-Type-Options: ${value}` };
      },
      { problem: "no X-Content-Type-Options: nosniff", none: "no HTML page answered 200" },
    );
  },
};
